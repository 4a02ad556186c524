package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * RESULTS.md's experiment 3 section and plot, from randomness.csv (LAN) and randomness-wan.csv (emulated WAN):
 * per configuration, {@code echoRandom} against {@code echo} of the same group and run, and against the
 * {@code none} group's echo. The targets: CT at ≥ 128-bit security adds ≤ 10 % latency, BA ≤ 15 %.
 */
final class RandomnessReport {
    private final Path results;

    RandomnessReport(Path results) {
        this.results = results;
    }

    /** Median figures of one (wan, clients, mode, operation) over its measured repetitions. */
    private record Cell(double mean, double p50, double p99, double cps, int reps, double load) {
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = new ArrayList<>(Report.section(md, results, "randomness.csv",
                "Experiment 3: randomness (integrity paper §7.2)", "scripts/perf randomness"));
        rows.addAll(Csv.read(results.resolve("randomness-wan.csv")));
        if (rows.isEmpty()) {
            return;
        }
        List<String> modes = Report.distinct(rows, "mode");
        List<Integer> wans = numbers(rows, "wan_delay_ms");
        List<Integer> clients = numbers(rows, "clients");
        Map<String, Cell> cells = cells(rows);
        Csv.Row first = rows.get(0);
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`, machine: %s (nproc %s). Four replicas in one "
                + "JVM on 127.0.0.1 serve `RandomEchoService`; its clients call `echo` (not randomized) and "
                + "`echoRandom` (declared `<bftws:Randomized bits=\"256\"/>`, returns the echo and the number) with "
                + "the same %s payload, on the same group in the same run, warm-up %s s and measurement %s s per "
                + "configuration (LAN run), median over the repetitions (`reps`). *echoRandom / echo* is the "
                + "randomness overhead of that configuration; *× none* compares with the echo of the group without randomness. `wan ms` is the "
                + "emulated one-way delay per hop (0 = loopback; see \"Emulated WAN\" below). 1-minute load average "
                + "at the start of the measurements: %.1f–%.1f (the machine is shared: read each row with its load).\n\n",
                first.get("time_utc"), first.get("commit"), first.get("machine"), first.get("nproc"),
                first.get("payload"), first.get("warmup_s"), first.get("measure_s"),
                loads(rows).min().orElse(Double.NaN), loads(rows).max().orElse(Double.NaN)));
        md.append("| wan ms | clients | configuration | echo p50 ms | echoRandom p50 ms | echoRandom / echo: p50 "
                + "| mean | p99 | echo calls/s | echoRandom calls/s | echoRandom / echo: calls/s | echoRandom p50 × none "
                + "| reps | load1 |\n|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String> randomized = modes.stream().filter(m -> !m.equals("none")).toList();
        Map<String, List<Double>> plot = new LinkedHashMap<>();
        for (int w : wans) {
            for (int c : clients) {
                Cell none = cells.get(key(w, c, "none", "echo"));
                Map<String, Double> ratios = new LinkedHashMap<>();
                for (String mode : modes) {
                    Cell echo = cells.get(key(w, c, mode, "echo"));
                    Cell rnd = cells.get(key(w, c, mode, "echoRandom"));
                    if (echo == null && rnd == null) {
                        continue;
                    }
                    row(md, w, c, mode, echo, rnd, none);
                    if (echo != null && rnd != null) {
                        ratios.put(mode, rnd.p50 / echo.p50);
                    }
                }
                // a bar chart's series must cover every configuration: runs of a subset are in the table only
                if (ratios.keySet().containsAll(randomized)) {
                    plot.put((w == 0 ? "LAN" : "WAN " + w + " ms") + ", " + c + " client(s)",
                            randomized.stream().map(ratios::get).toList());
                }
            }
        }
        md.append("\nThe targets: CT at ≥ 128-bit security (ct-cks: P-256, 128-bit; ct-rsa3072) adds ≤ 10 % latency "
                + "(echoRandom / echo ≤ 1.10), BA ≤ 15 % (≤ 1.15). BLS12-381 is ≈117–128-bit, RSA-2048 ≈112-bit.\n\n");
        plot(md, plots, randomized, plot);
    }

    private static void row(StringBuilder md, int wan, int clients, String mode, Cell echo, Cell rnd, Cell none) {
        md.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %.1f |\n",
                wan, clients, mode, echo == null ? "—" : f2(echo.p50), rnd == null ? "—" : f2(rnd.p50),
                bold(Report.ratio(nan(rnd, Cell::p50), nan(echo, Cell::p50))),
                Report.ratio(nan(rnd, Cell::mean), nan(echo, Cell::mean)),
                Report.ratio(nan(rnd, Cell::p99), nan(echo, Cell::p99)),
                echo == null ? "—" : String.format(Locale.ROOT, "%.0f", echo.cps),
                rnd == null ? "—" : String.format(Locale.ROOT, "%.0f", rnd.cps),
                Report.ratio(nan(rnd, Cell::cps), nan(echo, Cell::cps)),
                Report.ratio(nan(rnd, Cell::p50), nan(none, Cell::p50)),
                (echo != null ? echo : rnd).reps, (echo != null ? echo : rnd).load));
    }

    private void plot(StringBuilder md, List<Path> plots, List<String> randomized, Map<String, List<Double>> complete)
            throws IOException {
        if (complete.isEmpty() || randomized.isEmpty()) {
            return;
        }
        Path png = results.resolve("randomness.png");
        Plots.bars(png, "Randomness overhead: p50 of echoRandom / p50 of echo (same group, same run)",
                "configuration", "latency ratio (log scale)", true, randomized, complete);
        plots.add(png);
        md.append("![randomness overhead](results/randomness.png)\n\n");
    }

    private static Map<String, Cell> cells(List<Csv.Row> rows) {
        Map<String, List<Csv.Row>> groups = new LinkedHashMap<>();
        for (Csv.Row r : rows) {
            if (r.get("status").equals("ok") || r.get("status").equals("errors")) {
                groups.computeIfAbsent(key(r.number("wan_delay_ms"), r.number("clients"), r.get("mode"),
                        r.get("operation")), k -> new ArrayList<>()).add(r);
            }
        }
        Map<String, Cell> cells = new LinkedHashMap<>();
        groups.forEach((k, rs) -> cells.put(k, new Cell(Report.med(rs, "mean_ms"), Report.med(rs, "p50_ms"),
                Report.med(rs, "p99_ms"), Report.med(rs, "throughput_cps"), rs.size(), Report.med(rs, "load1_start"))));
        return cells;
    }

    private static String key(double wan, double clients, String mode, String operation) {
        return (int) wan + "|" + (int) clients + "|" + mode + "|" + operation;
    }

    private static java.util.stream.DoubleStream loads(List<Csv.Row> rows) {
        return rows.stream().mapToDouble(r -> r.number("load1_start")).filter(d -> !Double.isNaN(d));
    }

    private static List<Integer> numbers(List<Csv.Row> rows, String column) {
        return new ArrayList<>(new TreeSet<>(rows.stream().map(r -> (int) r.number(column)).toList()));
    }

    private static double nan(Cell c, java.util.function.ToDoubleFunction<Cell> f) {
        return c == null ? Double.NaN : f.applyAsDouble(c);
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String bold(String ratio) {
        return ratio.equals("—") ? ratio : "**" + ratio + "**";
    }
}
