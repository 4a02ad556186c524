package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * Summarises {@code randomness-stats.csv} (scripts/bench-randomness): per source and suite the tests run, passed,
 * weak and failed (a dieharder result on a rewound file counts apart, with how many of those passed: it is
 * not meaningful), into {@code randomness-stats-summary.csv}, and the fraction passed as bars in {@code
 * randomness-stats.png} (a suite whose results were all on a rewound file is plotted as such).
 *
 * <pre>RandomnessStatsReport STATS.csv OUTDIR</pre>
 */
public final class RandomnessStatsReport {
    private RandomnessStatsReport() {
    }

    public static void main(String[] args) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        Path out = Path.of(args[1]);
        // source -> suite -> {run, passed, weak, failed, rewound, passed on a rewound file}
        Map<String, Map<String, int[]>> counts = new TreeMap<>();
        Map<String, Long> bytes = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            int[] c = counts.computeIfAbsent(f[0], s -> new TreeMap<>()).computeIfAbsent(f[1], s -> new int[6]);
            bytes.put(f[0], Long.parseLong(f[6]));
            String result = f[5];
            if (result.endsWith("-REWOUND")) {
                c[4]++;
                c[5] += result.startsWith("PASSED") ? 1 : 0;
                continue;
            }
            c[0]++;
            switch (result) {
                case "PASSED" -> c[1]++;
                case "WEAK" -> c[2]++;
                default -> c[3]++;
            }
        }
        StringBuilder csv = new StringBuilder("source,bytes,suite,tests,passed,weak,failed,rewound,passed_rewound\n");
        List<String> suites = new ArrayList<>();
        for (Map.Entry<String, Map<String, int[]>> s : counts.entrySet()) {
            for (Map.Entry<String, int[]> t : s.getValue().entrySet()) {
                int[] c = t.getValue();
                csv.append(s.getKey()).append(',').append(bytes.get(s.getKey())).append(',').append(t.getKey())
                        .append(',').append(c[0]).append(',').append(c[1]).append(',').append(c[2]).append(',')
                        .append(c[3]).append(',').append(c[4]).append(',').append(c[5]).append('\n');
                if (!suites.contains(t.getKey())) {
                    suites.add(t.getKey());
                }
            }
        }
        Files.writeString(out.resolve("randomness-stats-summary.csv"), csv);
        List<String> sources = new ArrayList<>(counts.keySet());
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (String suite : suites) {
            List<Double> fractions = new ArrayList<>();
            for (String source : sources) {
                int[] c = counts.get(source).getOrDefault(suite, new int[6]);
                fractions.add(c[0] > 0 ? (double) c[1] / c[0] : c[4] > 0 ? (double) c[5] / c[4] : 0.0);
            }
            boolean allRewound = true;
            for (String source : sources) {
                int[] c = counts.get(source).getOrDefault(suite, new int[6]);
                allRewound &= c[0] == 0;
            }
            series.put(allRewound ? suite + " (file rewound: not meaningful)" : suite, fractions);
        }
        Plots.bars(out.resolve("randomness-stats.png"), "Statistical tests of the group's random output",
                "source", "fraction of tests passed", false, sources, series, LegendPosition.OutsideS);
        System.out.print(csv);
    }
}
