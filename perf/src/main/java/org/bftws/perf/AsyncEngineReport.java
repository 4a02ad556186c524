package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * The RESULTS.md sections on PBFT's and SINTRA's ordering engines side by side ({@code scripts/bench-engine
 * --ordering pbft,async}, sim's {@code AsyncBench}): requests per CPU-second of one replica against the
 * target async ≥ ½ PBFT ({@code engine-async.csv}), messages, bytes and coin operations per request
 * ({@code engine-async-counts.csv}) and the async group's heap over many requests ({@code
 * engine-async-memory.csv}), each with a plot.
 */
final class AsyncEngineReport {
    /** The target: the asynchronous engine at no less than half PBFT's requests per CPU-second. */
    static final double TARGET_RATIO = 0.5;

    private final Path results;

    AsyncEngineReport(Path results) {
        this.results = results;
    }

    void write(StringBuilder md, List<Path> plots) throws IOException {
        throughput(md, plots);
        counts(md, plots);
        memory(md, plots);
    }

    private void throughput(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "engine-async.csv",
                "PBFT and asynchronous engines, whole groups in process (`scripts/bench-engine --ordering pbft,async`)",
                "scripts/bench-engine --ordering pbft,async");
        if (rows.isEmpty()) {
            return;
        }
        md.append("n = 4 replicas of one engine in one thread on a FIFO in-memory network, closed-loop clients "
                + "(four batches' worth) sending 1 KB requests to every replica; every signature, multi-signature "
                + "and coin share real and checked. Each replica's CPU time is the thread's CPU time inside its own "
                + "calls, so a peer's signing is charged to the peer: requests per CPU-second of one replica as if it "
                + "ran alone. The busiest replica bounds the group (PBFT: the primary). Target: async ≥ "
                + TARGET_RATIO + "× PBFT. From `perf/results/engine-async.csv` as written.\n\n");
        md.append("| batch | ordering | requests / round | busiest: requests / CPU-s | µs / request | replica 1: "
                + "requests / CPU-s | async / PBFT (busiest) | target |\n|---:|---|---:|---:|---:|---:|---:|---|\n");
        for (Csv.Row r : rows) {
            String ratio = r.get("async_to_pbft_busiest");
            String target = ratio.isEmpty() ? "" : Double.parseDouble(ratio) >= TARGET_RATIO
                    ? "met (≥ " + TARGET_RATIO + "×)" : "**missed** (≥ " + TARGET_RATIO + "×)";
            md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.0f | %.0f | %.0f | %s | %s |%n",
                    r.get("batch_size"), r.get("ordering"), r.number("requests_per_round"),
                    r.number("requests_per_cpu_second_busiest"), r.number("cpu_us_per_request_busiest"),
                    r.number("requests_per_cpu_second_replica1"), ratio.isEmpty() ? "—" : ratio + "×", target));
        }
        List<String> batches = new ArrayList<>();
        Map<String, List<Double>> series = Report.series(rows, "ordering", r -> r.get("batch_size"),
                "requests_per_cpu_second_busiest", batches);
        md.append('\n');
        bars(md, plots, "engine-async", "PBFT vs async engine, n = 4: requests per CPU-second of the busiest replica",
                "max batch size", "requests / CPU-s", false, batches, series);
    }

    /** A bar chart {@code name}.png beside the CSVs, linked from RESULTS.md. */
    private void bars(StringBuilder md, List<Path> plots, String name, String title, String xTitle, String yTitle,
            boolean logY, List<String> categories, Map<String, List<Double>> series) throws IOException {
        Path png = results.resolve(name + ".png");
        Plots.bars(png, title, xTitle, yTitle, logY, categories, series,
                logY ? LegendPosition.OutsideE : LegendPosition.InsideNW);
        plots.add(png);
        md.append("![").append(name).append("](results/").append(name).append(".png)\n\n");
    }

    private void counts(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "engine-async-counts.csv",
                "Messages, bytes and coin operations per request (`scripts/bench-engine --ordering pbft,async --counts`)",
                "scripts/bench-engine --ordering pbft,async --counts --schedule fifo,random --sizes 4,7,10");
        if (rows.isEmpty()) {
            return;
        }
        md.append("Counted at the transport boundary of the in-process group: every message a replica hands to the "
                + "network, once per recipient, with its envelope's bytes; client requests and replies apart. Coin "
                + "operations are calls on the group's threshold scheme (CKS on P-256). `fifo`: first sent, first "
                + "delivered; `random`: any message in flight next (seeded). Agreement rounds and candidates are read "
                + "from the binary agreements' DECIDE messages and instance ids. Replica 1's Ed25519 operations "
                + "(envelopes and the signatures inside messages) with the bytes they cover, each hashed by SHA-512 "
                + "(twice to sign, once to check). From "
                + "`perf/results/engine-async-counts.csv` as written.\n\n");
        md.append("| ordering | schedule | n | batch | requests / round | messages / request | KB / request | "
                + "messages / round | coin shares / request | share checks / request | combines / request | "
                + "candidates / round | ABBA rounds (mean, max) | replica 1: signatures made / checked | "
                + "replica 1: KB signed / checked |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n");
        for (Csv.Row r : rows) {
            boolean async = r.get("ordering").equals("async");
            md.append(String.format(Locale.ROOT,
                    "| %s | %s | %s | %s | %.1f | %.2f | %.1f | %.0f | %s | %s | %s | %s | %s | %s / %s | %s / %s |%n",
                    r.get("ordering"), r.get("schedule"), r.get("n"), r.get("batch_size"), r.number("requests_per_round"),
                    r.number("peer_messages_per_request"), r.number("peer_bytes_per_request") / 1024,
                    r.number("peer_messages_per_round"), r.get("coin_shares_per_request"),
                    r.get("coin_share_checks_per_request"), r.get("coin_combines_per_request"),
                    async ? r.get("mvba_candidates_per_round") : "—",
                    async ? r.get("aba_rounds_mean") + ", " + r.get("aba_rounds_max") : "—",
                    r.get("signatures_made_per_request_replica1"), r.get("signatures_checked_per_request_replica1"),
                    r.get("kb_signed_per_request_replica1"), r.get("kb_checked_per_request_replica1")));
        }
        java.util.function.Function<Csv.Row, String> group = r -> "n" + r.get("n") + " " + r.get("schedule") + " b"
                + r.get("batch_size");
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> messages = Report.series(rows, "ordering", group, "peer_messages_per_request",
                categories);
        md.append('\n');
        bars(md, plots, "engine-async-counts", "Messages between replicas per delivered request",
                "n, schedule, batch size", "messages / request (log scale)", true, categories, messages);
        Map<String, List<Double>> bytes = Report.series(rows, "ordering", group, "peer_bytes_per_request",
                new ArrayList<>());
        bytes.replaceAll((k, ys) -> ys.stream().map(b -> b / 1024).toList());
        bars(md, plots, "engine-async-bytes", "KB between replicas per delivered request", "n, schedule, batch size",
                "KB / request (log scale)", true, categories, bytes);
    }

    private void memory(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Report.section(md, results, "engine-async-memory.csv",
                "Asynchronous group's heap over many requests (`scripts/bench-engine --memory`)",
                "scripts/bench-engine --memory");
        if (rows.isEmpty()) {
            return;
        }
        Csv.Row first = rows.get(Math.min(1, rows.size() - 1));
        Csv.Row last = rows.get(rows.size() - 1);
        java.util.DoubleSummaryStatistics heap = rows.stream().skip(1)
                .mapToDouble(r -> r.number("heap_used_mb_after_gc")).summaryStatistics();
        int half = rows.size() / 2;
        double firstHalfMax = rows.subList(1, Math.max(2, half)).stream()
                .mapToDouble(r -> r.number("heap_used_mb_after_gc")).max().orElse(Double.NaN);
        double secondHalfMax = rows.subList(Math.max(1, half), rows.size()).stream()
                .mapToDouble(r -> r.number("heap_used_mb_after_gc")).max().orElse(Double.NaN);
        md.append(String.format(Locale.ROOT, "The n = 4 async group (all four replicas, clients and network in one "
                + "heap) ordering %.0f requests of %s bytes in %.0f rounds (batches of at most %s); used heap after a "
                + "full GC, sampled every %.0f requests: %.1f to %.1f MB; the largest sample of the first half of the "
                + "run %.1f MB, of the second half %.1f MB; at the end %.1f MB with replica 0's stable checkpoint at "
                + "round %s, its live channel instances %s, buffered messages %s, resend log %s envelopes. From "
                + "`perf/results/engine-async-memory.csv`.%n%n",
                last.number("requests"), last.get("operation_bytes"), last.number("round"), last.get("batch_size"),
                first.number("requests"), heap.getMin(), heap.getMax(), firstHalfMax, secondHalfMax,
                last.number("heap_used_mb_after_gc"), last.get("stable_checkpoint"), last.get("router_instances"),
                last.get("router_buffered"), last.get("resend_log_envelopes")));
        double[] x = rows.stream().mapToDouble(r -> r.number("requests")).toArray();
        double[] y = rows.stream().mapToDouble(r -> r.number("heap_used_mb_after_gc")).toArray();
        Map<String, double[][]> series = new LinkedHashMap<>();
        series.put("used heap after GC (MB)", new double[][] {x, y});
        Path png = results.resolve("engine-async-memory.png");
        Plots.lines(png, "Async group (n = 4): used heap after GC", "requests ordered", "MB", series);
        plots.add(png);
        md.append("![engine async memory](results/engine-async-memory.png)\n\n");
    }
}
