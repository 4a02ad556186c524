package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/** RESULTS.md's profiler section, from profile.csv (org.bftws.perf.profile.Profiler). */
final class ProfileReport {
    /** Rows per table: enough to see where the time goes. */
    private static final int SHOWN = 8;

    private final Path results;

    ProfileReport(Path results) {
        this.results = results;
    }

    void write(StringBuilder md) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "profile.csv",
                "Profile: BFT-WS 1 KB echo under Java Flight Recorder", "scripts/perf profile");
        if (rows.isEmpty()) {
            return;
        }
        Csv.Row first = rows.get(0);
        List<Integer> clients = new TreeSet<>(Report.distinct(rows, "clients").stream().map(Integer::parseInt).toList())
                .stream().toList();
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`, machine: %s, 1-minute load average %s. "
                + "4 replicas and the clients in one JVM; JFR's `profile` settings sample every running Java thread "
                + "every 10 ms (`jdk.ExecutionSample`); only samples inside the measurement windows count. "
                + "*Component* = the innermost BFT-WS package on the sampled stack (which project code the CPU is "
                + "spent for, library code below it included); *bftws method* = that frame's method; "
                + "*package*/*method* = the top frame; *thread* = the thread's role. Shares are of all samples in the window.\n\n", first.get("time_utc"),
                first.get("commit"), first.get("machine"), first.get("load1_start")));
        for (String kind : List.of("component", "bftws method", "thread", "package", "method")) {
            md.append("| ").append(kind);
            for (int c : clients) {
                md.append(" | ").append(c).append(" client(s): samples (share)");
            }
            md.append(" |\n|---|").append("---:|".repeat(clients.size())).append('\n');
            List<String> names = rows.stream().filter(r -> r.get("kind").equals(kind)).map(r -> r.get("name"))
                    .distinct().limit(SHOWN * 2L).toList();
            names = names.stream().sorted((a, b) -> Double.compare(share(rows, kind, b), share(rows, kind, a)))
                    .limit(SHOWN).toList();
            for (String name : names) {
                md.append("| `").append(name).append('`');
                for (int c : clients) {
                    Optional<Csv.Row> r = find(rows, c, kind, name);
                    md.append(r.map(x -> String.format(Locale.ROOT, " | %s (%.0f %%)", x.get("samples"),
                            100 * x.number("share"))).orElse(" | —"));
                }
                md.append(" |\n");
            }
            md.append('\n');
        }
        int hi = clients.get(clients.size() - 1);
        Optional<Csv.Row> top = top(rows, hi, "component");
        Optional<Csv.Row> topBftws = top(rows, hi, "bftws method");
        Optional<Csv.Row> topThread = top(rows, hi, "thread");
        Optional<Csv.Row> topMethod = top(rows, hi, "method");
        if (top.isPresent() && topBftws.isPresent() && topThread.isPresent() && topMethod.isPresent()) {
            md.append(String.format(Locale.ROOT, "**Slowest component on the critical path** (largest share of CPU "
                    + "samples at %d clients): `%s`, %.0f %% of the samples, most of it under `%s` (%.0f %%); busiest "
                    + "thread role `%s` (%.0f %%); hottest method `%s` (%.0f %%).\n\n", hi, top.get().get("name"),
                    100 * top.get().number("share"), topBftws.get().get("name"), 100 * topBftws.get().number("share"),
                    topThread.get().get("name"), 100 * topThread.get().number("share"), topMethod.get().get("name"),
                    100 * topMethod.get().number("share")));
        }
    }

    /** The largest aggregate of {@code kind} at {@code clients} (the CSV lists them largest first). */
    private static Optional<Csv.Row> top(List<Csv.Row> rows, int clients, String kind) {
        return rows.stream().filter(r -> r.get("kind").equals(kind) && r.get("clients").equals(String.valueOf(clients)))
                .findFirst();
    }

    /** The largest share of {@code name} over the client counts, for ordering a table. */
    private static double share(List<Csv.Row> rows, String kind, String name) {
        return rows.stream().filter(r -> r.get("kind").equals(kind) && r.get("name").equals(name))
                .mapToDouble(r -> r.number("share")).max().orElse(0);
    }

    private static Optional<Csv.Row> find(List<Csv.Row> rows, int clients, String kind, String name) {
        return rows.stream().filter(r -> r.get("clients").equals(String.valueOf(clients)) && r.get("kind").equals(kind)
                && r.get("name").equals(name)).findFirst();
    }
}
