package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * RESULTS.md's section for experiment 2 (three-tier echo, BFT-WS paper §4.1.2) from {@code three-tier.csv}:
 * per client count, the median of each mode over its repetitions and BFT-WS's ratios to the plain
 * three-tier baseline of the same run.
 */
final class ThreeTierReport {
    static final String CSV = "three-tier.csv";

    private ThreeTierReport() {
    }

    static void append(Path results, StringBuilder md) throws IOException {
        List<Csv.Row> rows = Csv.read(results.resolve(CSV));
        md.append("## Experiment 2: three-tier echo (BFT-WS paper §4.1.2)\n\n");
        if (rows.isEmpty()) {
            md.append("No `" + CSV + "` yet: run `scripts/perf three-tier`.\n\n");
            return;
        }
        Csv.Row first = rows.get(0);
        md.append(String.format(Locale.ROOT, "Run of %s, commit `%s`, machine: %s (nproc %s); %s repetition(s). "
                + "Client → middle tier (relay) → backend (echo), everything in one JVM on 127.0.0.1. `plain`: one "
                + "plain Axis2 server per tier; `bftws`: 4 middle replicas, one replicated client of 4 backend "
                + "replicas (BFT-WS §3.4 filtering: a nested request is ordered once 2 middle replicas sent it "
                + "identically and executes once; Fig. 8).\n\n",
                first.get("time_utc"), first.get("commit"), first.get("machine"), first.get("nproc"),
                Report.distinct(rows, "rep").size()));
        md.append("| payload | clients | mode | mean ms | p50 ms | p99 ms | calls/s | p50 × plain | calls/s × plain "
                + "| reps | status |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (String payload : Report.distinct(rows, "payload")) {
            for (String clients : Report.distinct(rows, "clients")) {
                List<Csv.Row> plain = measured(rows, Report.PLAIN, payload, clients);
                for (String mode : Report.distinct(rows, "mode")) {
                    line(md, payload, clients, mode, rows, plain);
                }
            }
        }
        md.append('\n');
    }

    private static void line(StringBuilder md, String payload, String clients, String mode, List<Csv.Row> rows,
            List<Csv.Row> plain) {
        List<Csv.Row> ok = measured(rows, mode, payload, clients);
        if (ok.isEmpty()) {
            md.append("| ").append(payload).append(" | ").append(clients).append(" | ").append(mode)
                    .append(" | | | | | | | 0 | not measured |\n");
            return;
        }
        double p50 = Report.med(ok, "p50_ms");
        double cps = Report.med(ok, "throughput_cps");
        boolean base = mode.equals(Report.PLAIN);
        md.append(String.format(Locale.ROOT, "| %s | %s | %s | %.2f | %.2f | %.2f | %.0f | %s | %s | %d | ok |\n",
                payload, clients, mode, Report.med(ok, "mean_ms"), p50, Report.med(ok, "p99_ms"), cps,
                base ? "1" : Report.ratio(p50, plain.isEmpty() ? Double.NaN : Report.med(plain, "p50_ms")),
                base ? "1" : Report.ratio(cps, plain.isEmpty() ? Double.NaN : Report.med(plain, "throughput_cps")),
                ok.size()));
    }

    private static List<Csv.Row> measured(List<Csv.Row> rows, String mode, String payload, String clients) {
        return rows.stream().filter(r -> r.get("mode").equals(mode) && r.get("payload").equals(payload)
                && r.get("clients").equals(clients)
                && (r.get("status").equals("ok") || r.get("status").equals("errors"))).toList();
    }
}
