package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The RESULTS.md section on keys without a dealer ({@code scripts/bench-dkg}, sim's {@code DkgBench}): time per
 * replica in its own state machine and bytes ordered for the distributed key generation and a proactive refresh at n = 4, 7, 10,
 * from {@code dkg.csv}, with a plot ({@code dkg.png}).
 */
final class DkgReport {
    private final Path results;

    DkgReport(Path results) {
        this.results = results;
    }

    /** Draws dkg.png and dkg-loopback.png alone: {@code DkgReport RESULTS_DIR}. */
    public static void main(String[] args) throws IOException {
        DkgReport report = new DkgReport(Path.of(args.length > 0 ? args[0] : "perf/results"));
        report.write(new StringBuilder(), new ArrayList<>());
        report.writeLoopback(new StringBuilder(), new ArrayList<>());
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "dkg.csv",
                "Distributed key generation and proactive refresh (`scripts/bench-dkg`)", "scripts/bench-dkg");
        if (rows.isEmpty()) {
            return;
        }
        md.append("All replicas correct, messages ordered first come first served in one process (the ordering's own "
                + "cost comes on top). Time a replica spends in its own state machine's calls (a wall clock: a busy machine inflates it) over the whole run, and the "
                + "DKG messages the group orders. P-256 keys serve the CKS coin and TDH2, G2 keys threshold BLS. "
                + "Median of the runs. From `perf/results/dkg.csv` as written.\n\n");
        md.append("| scheme | n | op | ms / replica (mean) | ms (slowest replica) | messages | bytes ordered | "
                + "bytes / replica |\n|---|---:|---|---:|---:|---:|---:|---:|\n");
        for (Csv.Row r : rows) {
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %s | %s | %.0f |%n", r.get("scheme"),
                    r.get("n"), r.get("op"), r.number("replica_ms_mean"), r.number("replica_ms_max"), r.get("messages"),
                    r.get("bytes_ordered"), r.number("bytes_per_replica")));
        }
        md.append('\n');
        List<String> ns = new ArrayList<>();
        Map<String, List<Double>> series = Report.series(rows.stream().map(DkgReport::withSeries).toList(), "series",
                r -> "n = " + r.get("n"), "replica_ms_mean", ns);
        Path png = results.resolve("dkg.png");
        Plots.bars(png, "DKG and refresh: time per replica in its state machine", "group size", "ms per replica", true, ns, series);
        plots.add(png);
        md.append("![dkg](results/dkg.png)\n\n");
    }

    /** The same over the group's own ordering and HTTP on loopback ({@code scripts/bench-dkg --loopback}). */
    void writeLoopback(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "dkg-loopback.csv",
                "Key generation and refresh over the group's ordering on loopback (`scripts/bench-dkg --loopback`)",
                "scripts/bench-dkg --loopback");
        if (rows.isEmpty()) {
            return;
        }
        md.append("One JVM per replica (`scripts/start-group --keys dkg`), then `scripts/refresh-keys` several times. "
                + "Replica ms: from the first ordered operation (key generation) or the ordered vote that started it "
                + "(refresh) to its end at that replica, the mean over replicas and runs; command ms: `refresh-keys` "
                + "from asking for the votes to every replica running the new keys, the mean over runs; operations "
                + "and bytes ordered without PBFT's and HTTP's envelopes. From `perf/results/dkg-loopback.csv`.\n\n");
        md.append("| scheme | n | op | runs | replica ms (mean) | command ms (mean) | operations | bytes ordered |\n"
                + "|---|---:|---|---:|---:|---:|---:|---:|\n");
        Map<String, List<Csv.Row>> groups = new java.util.LinkedHashMap<>();
        for (Csv.Row r : rows) {
            groups.computeIfAbsent(r.get("scheme") + " " + r.get("n") + " " + r.get("op"), k -> new ArrayList<>()).add(r);
        }
        List<Csv.Row> means = new ArrayList<>();
        for (List<Csv.Row> g : groups.values()) {
            Csv.Row first = g.get(0);
            long runs = g.stream().map(r -> r.get("epoch")).distinct().count();
            double ms = g.stream().mapToDouble(r -> r.number("replica_ms")).average().orElse(Double.NaN);
            double command = g.stream().filter(r -> !r.get("command_ms").isEmpty())
                    .mapToDouble(r -> r.number("command_ms")).average().orElse(Double.NaN);
            double ops = g.stream().mapToDouble(r -> r.number("operations")).average().orElse(Double.NaN);
            double bytes = g.stream().mapToDouble(r -> r.number("bytes")).average().orElse(Double.NaN);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %.0f | %s | %.0f | %.0f |%n", first.get("scheme"),
                    first.get("n"), first.get("op"), runs, ms, Double.isNaN(command) ? "-"
                            : String.format(Locale.ROOT, "%.0f", command), ops, bytes));
            Map<String, String> f = new java.util.LinkedHashMap<>();
            f.put("series", first.get("scheme") + " " + first.get("op"));
            f.put("n", first.get("n"));
            f.put("replica_ms", String.valueOf(ms));
            means.add(new Csv.Row(f));
        }
        md.append('\n');
        List<String> ns = new ArrayList<>();
        Map<String, List<Double>> series = Report.series(means, "series", r -> "n = " + r.get("n"), "replica_ms", ns);
        Path png = results.resolve("dkg-loopback.png");
        Plots.bars(png, "DKG and refresh over PBFT on loopback: ms per replica", "group size", "ms per replica", true,
                ns, series);
        plots.add(png);
        md.append("![dkg-loopback](results/dkg-loopback.png)\n\n");
    }

    private static Csv.Row withSeries(Csv.Row r) {
        Map<String, String> f = new java.util.LinkedHashMap<>(r.fields());
        f.put("series", r.get("scheme") + " " + r.get("op"));
        return new Csv.Row(f);
    }
}
