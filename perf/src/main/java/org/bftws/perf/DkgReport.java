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

    /** Draws dkg.png alone: {@code DkgReport RESULTS_DIR}. */
    public static void main(String[] args) throws IOException {
        new DkgReport(Path.of(args.length > 0 ? args[0] : "perf/results")).write(new StringBuilder(), new ArrayList<>());
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

    private static Csv.Row withSeries(Csv.Row r) {
        Map<String, String> f = new java.util.LinkedHashMap<>(r.fields());
        f.put("series", r.get("scheme") + " " + r.get("op"));
        return new Csv.Row(f);
    }
}
