package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * RESULTS.md's experiment 4 section and plots (the shapes of the BFT-WS paper's Figs. 9–11), from
 * recovery-checkpoint.csv, recovery-transfer.csv and recovery-viewchange.csv: medians over repetitions per
 * state size or checkpoint interval.
 */
final class RecoveryReport {
    private final Path results;

    RecoveryReport(Path results) {
        this.results = results;
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        md.append("## Experiment 4: recovery (BFT-WS paper §4.2, Figs. 9–11)\n\n");
        List<Csv.Row> cp = Csv.read(results.resolve("recovery-checkpoint.csv"));
        List<Csv.Row> st = Csv.read(results.resolve("recovery-transfer.csv"));
        List<Csv.Row> vc = Csv.read(results.resolve("recovery-viewchange.csv"));
        if (cp.isEmpty() && st.isEmpty() && vc.isEmpty()) {
            md.append("No `recovery-*.csv` yet: run `scripts/perf recovery`.\n\n");
            return;
        }
        Csv.Row first = !cp.isEmpty() ? cp.get(0) : !st.isEmpty() ? st.get(0) : vc.get(0);
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`, machine: %s. 4 replicas in one JVM on 127.0.0.1 "
                + "serve a state of S bytes (`StateService`: get_state/set_state through `StatefulService`) to one "
                + "client calling in a closed loop; times come from engine events observed with "
                + "`TotalOrderManager.addEventListener`, medians over %d repetition(s). Retransmission every 5 ticks "
                + "(100 ms), view-change timeout %s ms, client retransmission 10 ticks (200 ms). 1-minute load "
                + "average at the start of the measurements: %s.\n\n", first.get("time_utc"), first.get("commit"),
                first.get("machine"), Report.distinct(cp.isEmpty() ? vc : cp, "rep").size(),
                vc.isEmpty() ? "500" : vc.get(0).get("timeout_ms"), loadRange(cp, st, vc)));
        section(md, plots, cp, "state_bytes", "Checkpointing (Fig. 9)",
                "capture = commit of the checkpoint's batch to the replica's own signed checkpoint (execution of that "
                        + "batch, get_state, digest, signature; at replicas whose own checkpoint came before "
                        + "stability); get_state = the service copying its state; to stable = own checkpoint to 2f+1 "
                        + "matching checkpoint messages. Checkpoint every " + cp.stream().findFirst()
                        .map(r -> r.get("checkpoint_interval")).orElse("?") + " requests.",
                List.of("capture_ms", "get_state_ms", "to_stable_ms", "capture_max_ms", "calls_per_s"),
                List.of("capture_ms", "to_stable_ms"), "recovery-checkpoint.png", "state KB");
        section(md, plots, st, "state_bytes", "State transfer (Fig. 10)",
                "Replica 3 stopped, one checkpoint taken without it, restarted empty at its endpoint: learned = "
                        + "restart to its learning a stable checkpoint it lacks (it sends fetch-state then); transfer "
                        + "= that fetch-state to set_state having restored the state (the paper's state-transfer "
                        + "latency); to execute = restart to its first request executed after set_state; restart = "
                        + "starting the replica's Axis2 instance.",
                List.of("restart_ms", "learned_stable_ms", "transfer_ms", "to_execute_ms"),
                List.of("transfer_ms", "to_execute_ms"), "recovery-transfer.png", "state KB");
        section(md, plots, vc, "checkpoint_interval", "View change (Fig. 11)",
                "The primary of view 0 stopped when checkpoint interval − 1 batches had executed past the stable "
                        + "checkpoint (the most a view change carries); view change = view-change start to view 1 "
                        + "entered at the new primary (the paper's measure; near zero when the new primary's own "
                        + "timer fires last and it joins on its peers' view-change messages), and at the slowest "
                        + "backup; group = the first backup's view-change start to the new primary entering view 1; "
                        + "outage = the client's longest gap between replies around the stop, which includes the "
                        + "view-change timeout the backups wait before suspecting the primary.",
                List.of("since_stable", "view_change_ms", "view_change_max_ms", "view_change_group_ms", "outage_ms",
                        "stop_to_reply_ms"),
                List.of("view_change_ms", "view_change_max_ms", "view_change_group_ms"), "recovery-viewchange.png", "checkpoint interval");
    }

    /**
     * recovery-crash.csv ({@code scripts/perf crash-primary}): per ordering engine, the client's outage when the
     * replica that leads stops, medians over the repetitions, with the ratio to PBFT's.
     */
    void writeCrashes(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Csv.read(results.resolve("recovery-crash.csv"));
        md.append("### The leader crashed, per ordering engine (`scripts/perf crash-primary`)\n\n");
        if (rows.isEmpty()) {
            md.append("Not measured yet.\n\n");
            return;
        }
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`: 4 replicas in one JVM serve the state service "
                + "to one client calling in a closed loop; after the warm-up's stable checkpoints the replica that leads "
                + "stops (PBFT's primary; the hybrid engine's leader of the current epoch; under async, with no "
                + "leader, replica 0). Outage = the client's longest gap between replies from the last one before the "
                + "stop on; stop to reply = from the stop to the end of that gap. View-change timeout %s ms (it also "
                + "caps the hybrid engine's switch budget). 1-minute load average at the start: %s.%n%n",
                rows.get(0).get("time_utc"), rows.get(0).get("commit"), rows.get(0).get("timeout_ms"),
                loadRange(rows)));
        md.append("| ordering | outage ms | stop to reply ms | to PBFT's stop to reply | views or epochs | reps |\n"
                + "|---|---:|---:|---:|---|---:|\n");
        double pbft = Report.med(rows.stream().filter(r -> r.get("ordering").equals("pbft")
                && r.get("status").equals("ok")).toList(), "stop_to_reply_ms");
        Map<String, List<Double>> series = new LinkedHashMap<>();
        List<String> orderings = Report.distinct(rows, "ordering");
        for (String o : orderings) {
            List<Csv.Row> ok = rows.stream().filter(r -> r.get("ordering").equals(o) && r.get("status").equals("ok"))
                    .toList();
            double outage = Report.med(ok, "outage_ms");
            double toReply = Report.med(ok, "stop_to_reply_ms");
            md.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %s | %s | %d |%n", o, outage, toReply,
                    Report.ratio(toReply, pbft), String.join(", ", ok.stream().map(r -> r.get("view")).toList()),
                    ok.size()));
            series.computeIfAbsent("outage", k -> new ArrayList<>()).add(outage);
            series.computeIfAbsent("stop to reply", k -> new ArrayList<>()).add(toReply);
        }
        md.append('\n');
        for (Csv.Row r : rows) {
            if (!r.get("status").equals("ok")) {
                md.append("- failed: ").append(r.get("ordering")).append(" rep ").append(r.get("rep")).append(": ")
                        .append(r.get("note")).append('\n');
            }
        }
        Path png = results.resolve("recovery-crash.png");
        Plots.bars(png, "Client outage when the leader crashes", "ordering", "ms", false, orderings, series);
        plots.add(png);
        md.append("\n![crashed leader](results/recovery-crash.png)\n\n");
    }

    private void section(StringBuilder md, List<Path> plots, List<Csv.Row> rows, String key, String title,
            String explanation, List<String> columns, List<String> plotted, String png, String xTitle)
            throws IOException {
        md.append("### ").append(title).append("\n\n");
        if (rows.isEmpty()) {
            md.append("Not measured in this run.\n\n");
            return;
        }
        md.append(explanation).append("\n\n");
        Map<Double, List<Csv.Row>> byKey = new TreeMap<>();
        List<Csv.Row> failed = new ArrayList<>();
        for (Csv.Row r : rows) {
            if (r.get("status").equals("ok")) {
                byKey.computeIfAbsent(r.number(key), k -> new ArrayList<>()).add(r);
            } else {
                failed.add(r);
            }
        }
        boolean bytes = key.equals("state_bytes");
        md.append("| ").append(bytes ? "state" : key.replace('_', ' ')).append(" | ")
                .append(String.join(" | ", columns.stream().map(c -> c.replace('_', ' ')).toList()))
                .append(" | reps |\n|---:|").append("---:|".repeat(columns.size() + 1)).append('\n');
        Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (Map.Entry<Double, List<Csv.Row>> e : byKey.entrySet()) {
            double x = bytes ? e.getKey() / 1024 : e.getKey();
            md.append("| ").append(bytes ? String.format(Locale.ROOT, "%.0f KB", x) : String.format(Locale.ROOT, "%.0f", x));
            for (String c : columns) {
                double m = Report.med(e.getValue(), c);
                md.append(String.format(Locale.ROOT, c.equals("since_stable") || c.equals("calls_per_s") ? " | %.0f"
                        : " | %.2f", m));
                if (plotted.contains(c)) {
                    series.computeIfAbsent(c.replace('_', ' '), k -> new ArrayList<>()).add(new double[] {x, m});
                }
            }
            md.append(" | ").append(e.getValue().size()).append(" |\n");
        }
        md.append('\n');
        for (Csv.Row r : failed) {
            md.append("- failed: ").append(key).append(' ').append(r.get(key)).append(" rep ").append(r.get("rep"))
                    .append(": ").append(r.get("note")).append('\n');
        }
        if (!series.isEmpty()) {
            Map<String, double[][]> xy = new LinkedHashMap<>();
            series.forEach((name, pts) -> xy.put(name, new double[][] {pts.stream().mapToDouble(p -> p[0]).toArray(),
                pts.stream().mapToDouble(p -> p[1]).toArray()}));
            Plots.lines(results.resolve(png), title, xTitle, "ms", xy);
            plots.add(results.resolve(png));
            md.append("\n![").append(title).append("](results/").append(png).append(")\n\n");
        }
    }

    @SafeVarargs
    private static String loadRange(List<Csv.Row>... lists) {
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (List<Csv.Row> rows : lists) {
            for (Csv.Row r : rows) {
                double l = r.number("load1_start");
                lo = Double.isNaN(lo) || l < lo ? l : lo;
                hi = Double.isNaN(hi) || l > hi ? l : hi;
            }
        }
        return String.format(Locale.ROOT, "%.1f–%.1f", lo, hi);
    }
}
