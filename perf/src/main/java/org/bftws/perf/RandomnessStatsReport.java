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
 * Plots scripts/bench-randomness's results: per source and suite the fraction of tests passed from {@code
 * randomness-stats-summary.csv} (SP 800-22: tests meeting both the proportion and the uniformity criterion;
 * dieharder: tests run that it rated PASSED) into {@code randomness-stats.png}, and the distribution of every SP
 * 800-22 p-value per source over ten bins from {@code randomness-stats.csv} into {@code
 * randomness-stats-pvalues.png} (uniform data gives 0.1 in each).
 *
 * <pre>RandomnessStatsReport RESULTSDIR</pre>
 */
public final class RandomnessStatsReport {
    private static final int BINS = 10;

    private RandomnessStatsReport() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        List<String> summary = Files.readAllLines(dir.resolve("randomness-stats-summary.csv"));
        Map<String, Map<String, Double>> passed = new TreeMap<>(); // suite -> source -> fraction
        List<String> sources = new ArrayList<>();
        for (String line : summary.subList(1, summary.size())) {
            String[] f = line.split(",");
            int tests = Integer.parseInt(f[3]);
            passed.computeIfAbsent(f[2], s -> new TreeMap<>()).put(f[0],
                    tests == 0 ? 0.0 : Double.parseDouble(f[4]) / tests);
            if (!sources.contains(f[0])) {
                sources.add(f[0]);
            }
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        passed.forEach((suite, bySource) -> {
            List<Double> values = new ArrayList<>();
            sources.forEach(s -> values.add(bySource.getOrDefault(s, 0.0)));
            series.put(suite, values);
        });
        Plots.bars(dir.resolve("randomness-stats.png"), "Statistical tests of the group's random output",
                "source", "fraction of tests passed", false, sources, series, LegendPosition.OutsideS);

        Map<String, long[]> histograms = new TreeMap<>();
        List<String> rows = Files.readAllLines(dir.resolve("randomness-stats.csv"));
        for (String line : rows.subList(1, rows.size())) {
            String[] f = line.split(",");
            if (f[1].equals("nist-sp800-22") && !f[4].isEmpty()) {
                int bin = Math.min(BINS - 1, (int) (Double.parseDouble(f[4]) * BINS));
                histograms.computeIfAbsent(f[0], s -> new long[BINS])[bin]++;
            }
        }
        List<String> bins = new ArrayList<>();
        for (int b = 0; b < BINS; b++) {
            bins.add(String.format("%.1f-%.1f", b / (double) BINS, (b + 1) / (double) BINS));
        }
        Map<String, List<Double>> shares = new LinkedHashMap<>();
        histograms.forEach((source, counts) -> {
            long total = 0;
            for (long c : counts) {
                total += c;
            }
            List<Double> values = new ArrayList<>();
            for (long c : counts) {
                values.add((double) c / total);
            }
            shares.put(source, values);
        });
        Plots.bars(dir.resolve("randomness-stats-pvalues.png"), "SP 800-22 p-values per source (uniform: 0.1 per bin)",
                "p-value", "fraction of p-values", false, bins, shares, LegendPosition.OutsideS);
        System.out.print(String.join("\n", summary) + "\n");
    }
}
