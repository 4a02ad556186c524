package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** RESULTS.md's experiment 5 section and plots, from scale.csv: BFT-WS at n = 4, 7, 10 against WS-RM. */
final class ScaleReport {
    private final Path results;

    ScaleReport(Path results) {
        this.results = results;
    }

    /** Median p50, p99 and calls/s of one (mode, clients) over its measured repetitions. */
    private record Cell(double p50, double p99, double cps, int reps, double load) {
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "scale.csv",
                "Experiment 5: scale, n = 4, 7, 10 (f = 1, 2, 3)", "scripts/perf scale");
        if (rows.isEmpty()) {
            return;
        }
        List<String> modes = Report.distinct(rows, "mode");
        List<Integer> clients = new ArrayList<>(new TreeSet<>(Report.distinct(rows, "clients").stream()
                .map(Integer::parseInt).toList()));
        Map<String, Cell> cells = new LinkedHashMap<>();
        for (String mode : modes) {
            for (int c : clients) {
                List<Csv.Row> ok = rows.stream().filter(r -> r.get("mode").equals(mode)
                        && r.get("clients").equals(String.valueOf(c)) && r.get("status").equals("ok")).toList();
                if (!ok.isEmpty()) {
                    cells.put(mode + "|" + c, new Cell(Report.med(ok, "p50_ms"), Report.med(ok, "p99_ms"),
                            Report.med(ok, "throughput_cps"), ok.size(), Report.med(ok, "load1_start")));
                }
            }
        }
        Csv.Row first = rows.get(0);
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`, machine: %s. The echo measurement (closed-loop "
                + "clients, payload %s, warm-up %s s, measurement %s s, %d repetition(s), median quoted) with WS-RM as "
                + "the baseline in the same run and BFT-WS groups of n = 3f+1 replicas, all in one JVM on 127.0.0.1 "
                + "(so n replicas share the same %s cores: the cost of n here is CPU as much as messages).\n\n",
                first.get("time_utc"), first.get("commit"), first.get("machine"), first.get("payload"),
                first.get("warmup_s"), first.get("measure_s"), Report.distinct(rows, "rep").size(), first.get("nproc")));
        md.append("| clients | mode | n | p50 ms | p99 ms | calls/s | p50 × n=4 | calls/s × n=4 | p50 × WS-RM "
                + "| calls/s × WS-RM | reps | load1 (median) |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int c : clients) {
            Cell base = cells.get(Report.BFTWS + "|" + c);
            Cell wsrm = cells.get(Report.WSRM + "|" + c);
            for (String mode : modes) {
                Cell cell = cells.get(mode + "|" + c);
                if (cell == null) {
                    continue;
                }
                boolean bft = mode.startsWith(Report.BFTWS);
                md.append(String.format(Locale.ROOT, "| %d | %s | %s | %.2f | %.2f | %.0f | %s | %s | %s | %s | %d | %.1f |\n",
                        c, mode, bft ? String.valueOf(replicas(mode)) : "—", cell.p50, cell.p99, cell.cps,
                        bft ? Report.ratio(cell.p50, base == null ? Double.NaN : base.p50) : "",
                        bft ? Report.ratio(cell.cps, base == null ? Double.NaN : base.cps) : "",
                        bft ? Report.ratio(cell.p50, wsrm == null ? Double.NaN : wsrm.p50) : "",
                        bft ? Report.ratio(cell.cps, wsrm == null ? Double.NaN : wsrm.cps) : "", cell.reps, cell.load));
            }
        }
        md.append('\n');
        plot(md, plots, cells, modes, clients, "scale-latency.png", "p50 latency vs replicas (1 KB echo)", "ms", true);
        plot(md, plots, cells, modes, clients, "scale-throughput.png", "throughput vs replicas (1 KB echo)",
                "calls/s", false);
    }

    private void plot(StringBuilder md, List<Path> plots, Map<String, Cell> cells, List<String> modes,
            List<Integer> clients, String name, String title, String unit, boolean latency) throws IOException {
        Map<String, double[][]> series = new LinkedHashMap<>();
        for (int c : clients) {
            List<double[]> pts = new ArrayList<>();
            for (String mode : modes) {
                Cell cell = cells.get(mode + "|" + c);
                if (mode.startsWith(Report.BFTWS) && cell != null) {
                    pts.add(new double[] {replicas(mode), latency ? cell.p50 : cell.cps});
                }
            }
            if (!pts.isEmpty()) {
                series.put(c + " client(s)", new double[][] {pts.stream().mapToDouble(p -> p[0]).toArray(),
                    pts.stream().mapToDouble(p -> p[1]).toArray()});
            }
        }
        if (!series.isEmpty()) {
            Plots.lines(results.resolve(name), "BFT-WS " + title, "replicas n", unit, series);
            plots.add(results.resolve(name));
            md.append("![").append(title).append("](results/").append(name).append(")\n\n");
        }
    }

    /** n of a BFT-WS mode name: {@code bftws} is 4, {@code bftws-nN} is N. */
    static int replicas(String mode) {
        return mode.equals(Report.BFTWS) ? 4 : Integer.parseInt(mode.substring(mode.indexOf("-n") + 2));
    }
}
