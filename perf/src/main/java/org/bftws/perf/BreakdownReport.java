package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import org.bftws.perf.breakdown.CpuMeter;

/**
 * RESULTS.md's latency-breakdown section and {@code breakdown.png}, from breakdown.csv
 * ({@code org.bftws.perf.breakdown.BreakdownExperiment}).
 */
final class BreakdownReport {
    static final String CSV = "breakdown.csv";
    static final String PNG = "breakdown.png";

    private final Path results;

    BreakdownReport(Path results) {
        this.results = results;
    }

    /** The stacked bars: mean ms per phase, one bar per client count; null if there is no CSV. */
    Path plot() throws IOException {
        List<Csv.Row> rows = Csv.read(results.resolve(CSV));
        if (rows.isEmpty()) {
            return null;
        }
        List<Integer> clients = clients(rows);
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (String phase : phases(rows)) {
            List<Double> v = new ArrayList<>();
            for (int c : clients) {
                v.add(phaseMs(rows, c, phase));
            }
            series.put(phase, v);
        }
        Path png = results.resolve(PNG);
        Plots.stackedBars(png, "BFT-WS 1 KB echo, 4 replicas: mean latency by phase", "clients", "ms per request",
                clients.stream().map(c -> c + " client(s)").toList(), series);
        return png;
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, CSV, "Latency breakdown and work per request (BFT-WS 1 KB echo)",
                "scripts/perf breakdown");
        if (rows.isEmpty()) {
            return;
        }
        Csv.Row first = rows.get(0);
        List<Integer> clients = clients(rows);
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`, machine: %s (nproc %s), 1-minute load average "
                + "%s at the start; `scripts/perf breakdown`. 4 replicas (f = 1), the client and the WS-RM baseline in one JVM on 127.0.0.1 "
                + "(one clock: phases are aligned by request id and sequence number, not by time). Latency: the mean "
                + "over the requests of a traced window, from the replica whose reply completed the vote (the "
                + "critical path); counts and CPU: an untraced window, per delivered request. See "
                + "docs/performance.md, \"Latency breakdown\", for what each part covers.\n\n",
                first.get("time_utc"), first.get("commit"), first.get("machine"), first.get("nproc"),
                first.get("load1_start")));
        latency(md, rows, clients);
        Path png = plot();
        if (png != null) {
            plots.add(png);
            md.append("![latency breakdown](results/").append(PNG).append(")\n\n");
        }
        work(md, rows, clients);
        cpu(md, rows, clients);
    }

    private void latency(StringBuilder md, List<Csv.Row> rows, List<Integer> clients) {
        header(md, "phase | part", clients, ": ms (share)", "---:|");
        for (String phase : phases(rows)) {
            for (String part : distinct(rows, "latency", phase)) {
                md.append("| ").append(phase).append(" | ").append(part);
                for (int c : clients) {
                    double total = totalMs(rows, c);
                    double v = value(rows, c, "latency", phase, part).orElse(Double.NaN);
                    md.append(String.format(Locale.ROOT, " | %.3f (%.0f %%)", v, 100 * v / total));
                }
                md.append(" |\n");
            }
            md.append("| **").append(phase).append("** | ");
            for (int c : clients) {
                md.append(String.format(Locale.ROOT, " | **%.3f** (%.0f %%)", phaseMs(rows, c, phase),
                        100 * phaseMs(rows, c, phase) / totalMs(rows, c)));
            }
            md.append(" |\n");
        }
        md.append("| **total** (mean client latency) | ");
        for (int c : clients) {
            md.append(String.format(Locale.ROOT, " | **%.3f**", totalMs(rows, c)));
        }
        md.append(" |\n| requests analysed | ");
        for (int c : clients) {
            md.append(String.format(Locale.ROOT, " | %.0f", value(rows, c, "latency", "requests analysed", "")
                    .orElse(Double.NaN)));
        }
        md.append(" |\n\n");
    }

    private void work(StringBuilder md, List<Csv.Row> rows, List<Integer> clients) {
        md.append("Work per delivered request: measured, the protocol's minimum for the measured batch size and the "
                + "group's authentication (with MACs, `bftws.authentication=macs`, commits need no signature check), "
                + "and all-to-all with signatures (every message received checked once; above it is double work).\n\n");
        header(md, "what | where | kind", clients, ": measured / minimum / all-to-all", "---|");
        for (String section : List.of("verify", "sign", "wire", "mac", "batch")) {
            for (Csv.Row r : rows) {
                if (!r.get("section").equals(section) || !r.get("clients").equals(String.valueOf(clients.get(0)))) {
                    continue;
                }
                String where = r.get("phase");
                String kind = r.get("part");
                md.append("| ").append(section).append(" | ").append(where).append(" | ").append(kind);
                for (int c : clients) {
                    double m = value(rows, c, section, where, kind).orElse(Double.NaN);
                    Optional<Double> min = value(rows, c, section + " minimum", where, kind);
                    Optional<Double> all = value(rows, c, section + " all-to-all", where, kind);
                    md.append(String.format(Locale.ROOT, " | %.2f", m));
                    md.append(min.map(v -> String.format(Locale.ROOT, " / %.2f", v)).orElse(""));
                    md.append(all.map(v -> String.format(Locale.ROOT, " / %.2f", v)).orElse(""));
                }
                md.append(" |\n");
            }
        }
        md.append('\n');
    }

    private void cpu(StringBuilder md, List<Csv.Row> rows, List<Integer> clients) {
        md.append("CPU per delivered request (ms; the process from the operating system's accounting, threads by "
                + "role from ThreadMXBean; HTTP workers serve every Axis2 instance of the JVM).\n\n");
        header(md, "mode | threads", clients, "", "---:|");
        for (String mode : List.of("wsrm", "bftws")) {
            for (String role : distinct(rows, "cpu", mode)) {
                md.append("| ").append(mode).append(" | ").append(role);
                for (int c : clients) {
                    md.append(String.format(Locale.ROOT, " | %.3f", value(rows, c, "cpu", mode, role)
                            .orElse(Double.NaN)));
                }
                md.append(" |\n");
            }
        }
        md.append("| **BFT-WS / WS-RM** | process");
        for (int c : clients) {
            double b = value(rows, c, "cpu", "bftws", "process").orElse(Double.NaN);
            double w = value(rows, c, "cpu", "wsrm", "process").orElse(Double.NaN);
            md.append(" | ").append(Report.pair(b, w, "ms"));
        }
        md.append(" |\n\n");
        ceiling(md, rows, clients);
    }

    /**
     * A replica's share (its own threads and a 1/n share of the HTTP workers, which also carry the client's reply
     * handling: an upper bound) against a WS-RM server's (its HTTP workers and Sandesha2's threads), and the
     * throughput bound the CPU ratio puts on a shared machine, next to 1/(n+1).
     */
    private void ceiling(StringBuilder md, List<Csv.Row> rows, List<Integer> clients) {
        List<String> replicas = distinct(rows, "cpu", "bftws").stream().filter(r -> r.startsWith("replica ")).toList();
        int n = replicas.size();
        for (int c : clients) {
            double own = replicas.stream().mapToDouble(r -> value(rows, c, "cpu", "bftws", r).orElse(0.0)).sum();
            double http = value(rows, c, "cpu", "bftws", HTTP).orElse(Double.NaN);
            double replica = (own + http) / n;
            double server = value(rows, c, "cpu", "wsrm", HTTP).orElse(Double.NaN)
                    + value(rows, c, "cpu", "wsrm", "other threads").orElse(0.0);
            double b = value(rows, c, "cpu", "bftws", "process").orElse(Double.NaN);
            double w = value(rows, c, "cpu", "wsrm", "process").orElse(Double.NaN);
            md.append(String.format(Locale.ROOT, "- %d client(s): a replica ≈ (%.3f + %.3f) / %d = %.3f ms per request "
                    + "against a WS-RM server's %.3f ms (%s); with everything CPU-bound on shared cores BFT-WS's "
                    + "throughput is at most %.2f× WS-RM's (WS-RM CPU / BFT-WS CPU), against 1/(n+1) = %.2f.%n", c,
                    http, own, n, replica, server, Report.ratio(replica, server), w / b, 1.0 / (n + 1)));
        }
        md.append('\n');
    }

    private static final String HTTP = CpuMeter.HTTP_WORKERS;

    /** A table's header: the fixed columns ({@code "a | b"}), then one column per client count. */
    private static void header(StringBuilder md, String fixed, List<Integer> clients, String suffix, String align) {
        md.append("| ").append(fixed);
        clients.forEach(c -> md.append(" | ").append(c).append(" client(s)").append(suffix));
        md.append(" |\n|").append("---|".repeat(fixed.split("\\|").length)).append(align.repeat(clients.size()))
                .append('\n');
    }

    private static List<Integer> clients(List<Csv.Row> rows) {
        return new ArrayList<>(new TreeSet<>(Report.distinct(rows, "clients").stream().map(Integer::parseInt).toList()));
    }

    /** The latency phases in CSV order (the analysis' order), without the count row. */
    private static List<String> phases(List<Csv.Row> rows) {
        return rows.stream().filter(r -> r.get("section").equals("latency") && r.get("unit").equals("ms"))
                .map(r -> r.get("phase")).distinct().toList();
    }

    private static List<String> distinct(List<Csv.Row> rows, String section, String phase) {
        return rows.stream().filter(r -> r.get("section").equals(section) && r.get("phase").equals(phase))
                .map(r -> r.get("part")).distinct().toList();
    }

    private static double phaseMs(List<Csv.Row> rows, int clients, String phase) {
        return rows.stream().filter(r -> r.get("clients").equals(String.valueOf(clients))
                && r.get("section").equals("latency") && r.get("phase").equals(phase) && r.get("unit").equals("ms"))
                .mapToDouble(r -> r.number("value")).sum();
    }

    private static double totalMs(List<Csv.Row> rows, int clients) {
        return rows.stream().filter(r -> r.get("clients").equals(String.valueOf(clients))
                && r.get("section").equals("latency") && r.get("unit").equals("ms")).mapToDouble(r -> r.number("value"))
                .sum();
    }

    private static Optional<Double> value(List<Csv.Row> rows, int clients, String section, String phase, String part) {
        return rows.stream().filter(r -> r.get("clients").equals(String.valueOf(clients))
                && r.get("section").equals(section) && r.get("phase").equals(phase) && r.get("part").equals(part))
                .map(r -> r.number("value")).findFirst();
    }
}
