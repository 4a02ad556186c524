package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** RESULTS.md's replica heap section, from heap.csv (scripts/perf-heap: one JVM per replica, jcmd). */
final class HeapReport {
    /** The target for a replica's heap at steady state. */
    static final double TARGET_MB = 512;

    private HeapReport() {
    }

    static void write(Path results, StringBuilder md) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "heap.csv",
                "Replica heap at steady state (`scripts/perf-heap`)", "scripts/perf-heap");
        if (rows.isEmpty()) {
            return;
        }
        md.append("Each replica in its own JVM (`scripts/start-group`), measured with `jcmd PID GC.heap_info` after "
                + "the echo client's calls, before and after a full GC (`jcmd PID GC.run`): used after the full GC is "
                + "the replica's live heap; committed is what the JVM holds from the OS; RSS includes code, threads "
                + "and metaspace. From `perf/results/heap.csv` as written.\n\n");
        Report.table(md, rows);
        double worst = rows.stream().mapToDouble(r -> r.number("used_after_gc_kb")).max().orElse(Double.NaN) / 1024;
        double committed = rows.stream().mapToDouble(r -> r.number("committed_kb")).max().orElse(Double.NaN) / 1024;
        md.append(String.format(Locale.ROOT, "\nLargest live heap %.1f MB, largest committed heap %.1f MB, against "
                + "the target of ≤ %.0f MB per replica: %s.\n\n", worst, committed, TARGET_MB,
                committed <= TARGET_MB ? "met" : "not met"));
    }
}
