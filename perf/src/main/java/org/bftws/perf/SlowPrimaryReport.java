package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The RESULTS.md section on the slow-primary attack ({@code scripts/bench-slow-primary}, sim's {@code
 * SlowPrimaryBench}): delivered requests per virtual second for PBFT and for asynchronous ordering while the
 * primary delays each of its messages just under the view-change timeout, from {@code slow-primary.csv}, with
 * a plot. The figure that says when each ordering mode is the better choice.
 */
final class SlowPrimaryReport {
    /** The target: asynchronous ordering delivers at least ten times PBFT's requests under the attack. */
    static final double TARGET_RATIO = 10;

    private final Path results;

    SlowPrimaryReport(Path results) {
        this.results = results;
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "slow-primary.csv",
                "Slow-primary attack: PBFT against asynchronous ordering (`scripts/bench-slow-primary`)",
                "scripts/bench-slow-primary");
        if (rows.isEmpty()) {
            return;
        }
        md.append("The simulator's group, n = 4, on a steady network (each message 1.." + rows.get(0).get("link_delay_ticks")
                + " ticks, nothing lost) with " + rows.get(0).get("clients") + " closed-loop clients, figures "
                + "summed over seeds 1.." + rows.get(0).get("seeds") + ". The primary — under PBFT the primary of the view, "
                + "under asynchronous ordering replica 0, which has no special role there — delays every message it sends "
                + "by the given number of ticks; at 180 ticks that is just under the 200-tick view-change timeout, so no "
                + "backup ever suspects it (0 view changes). A virtual second is 50 ticks of 20 ms (the module's "
                + "`bftws.tickMillis`). Target: async ≥ " + (int) TARGET_RATIO + "× PBFT under the attack. From "
                + "`perf/results/slow-primary.csv` as written.\n\n");
        md.append("| delay (ticks) | ordering | requests / virtual s | mean latency (ticks) | view changes | "
                + "messages / request | violations | async / PBFT |\n|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (Csv.Row r : rows) {
            String ratio = r.get("async_to_pbft");
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.0f | %s | %.1f | %s | %s |%n",
                    r.get("slow_delay_ticks"), r.get("ordering"), r.number("requests_per_virtual_second"),
                    r.number("mean_latency_ticks"), r.get("view_changes"), r.number("messages_per_request"),
                    r.get("violations"), ratio.isEmpty() ? "—" : ratio + "×"));
        }
        md.append('\n');
        List<String> delays = new ArrayList<>();
        Map<String, List<Double>> series = Report.series(rows, "ordering", r -> r.get("slow_delay_ticks"),
                "requests_per_virtual_second", delays);
        Path png = results.resolve("slow-primary.png");
        Plots.bars(png, "Slow primary, n = 4: delivered requests per virtual second", "primary's delay per message (ticks)",
                "requests / virtual s", false, delays, series);
        plots.add(png);
        md.append("![slow-primary](results/slow-primary.png)\n\n");
    }
}
