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
 * The RESULTS.md sections on collective randomness: the engine's cost with CT and BA
 * ({@code engine-random.csv} from {@code scripts/bench-engine --random}) against its targets, and the
 * integrity paper's Table 1 (§7.1) next to our rows of the same operations ({@code table1_*} in
 * {@code crypto.csv}). Each with a bar chart on a log axis.
 */
final class RandomReport {
    /** Table 1 of the paper: row label → (signing/generation, verification/combination) in µs. */
    static final Map<String, double[]> PAPER = paperTable1();

    private final Path results;

    RandomReport(Path results) {
        this.results = results;
    }

    private static Map<String, double[]> paperTable1() {
        Map<String, double[]> m = new LinkedHashMap<>();
        m.put("MAC", new double[] {24.1, 237.3});
        m.put("Authenticator", new double[] {80.2, 892.0});
        double[] sign = {2.2e3, 7.1e3, 31.7e3, 179.1e3, 1191.7e3};
        double[][] verify = {{4.6e3, 12.8e3, 58.5e3, 338.2e3, 1381.4e3}, {5.6e3, 18.5e3, 80.0e3, 449.7e3, 2292.1e3}};
        int[] labels = {64, 128, 256, 512, 1024};
        for (int k = 2; k <= 3; k++) {
            for (int i = 0; i < labels.length; i++) {
                m.put("CT" + k + "-" + labels[i], new double[] {sign[i], verify[k - 2][i]});
            }
        }
        return m;
    }

    // ------------------------------------------------------------------------------------ engine-random

    void engine(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Csv.read(results.resolve("engine-random.csv"));
        md.append("## Engine with collective randomness (`scripts/bench-engine --random`)\n\n");
        if (rows.isEmpty()) {
            md.append("No `engine-random.csv` yet: run `scripts/bench-engine --random ct,ct-bls,ct-per-batch,ba,ba-hardened`.\n\n");
            return;
        }
        md.append("One backup's engine as in the section above, every request randomized, the peers' coin shares "
                + "or pp-updates made outside the timing; CPU µs per request, and the overhead against `none` at "
                + "the same batch size. The target (at ≥ 128-bit security, one request per batch): CT ≤ 10 %, "
                + "BA ≤ 15 %. From `perf/results/engine-random.csv` as written.\n\n");
        md.append("| random | batch | CPU µs / request | requests / CPU-s | overhead vs none | target |\n|---|---:|---:|---:|---:|---|\n");
        for (Csv.Row r : rows) {
            String random = r.get("random");
            String target = target(random, r.get("batch_size"), r.number("overhead_vs_none_percent"));
            md.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %s | %s |%n", random, r.get("batch_size"),
                    r.number("cpu_us_per_request"), r.number("requests_per_cpu_second"),
                    random.equals("none") ? "—" : String.format(Locale.ROOT, "%+.0f %%", r.number("overhead_vs_none_percent")),
                    target));
        }
        // per-batch CT has no batch-1 row (it is the per-request coin): that series is left out of the plot
        List<String> batches = new ArrayList<>();
        Map<String, List<Double>> series = Report.series(rows, "random", r -> r.get("batch_size"), "cpu_us_per_request",
                batches);
        Path png = results.resolve("engine-random.png");
        Plots.bars(png, "Engine CPU per request with randomness (all requests randomized)", "max batch size",
                "CPU µs per request (log scale)", true, batches, series, LegendPosition.OutsideE);
        plots.add(png);
        md.append("\n![engine with randomness](results/engine-random.png)\n\n");
    }

    private static String target(String random, String batch, double overhead) {
        if (!batch.equals("1") || random.equals("none")) {
            return "";
        }
        double limit = random.startsWith("ct") ? 10 : 15;
        return overhead <= limit ? "met (≤ " + (int) limit + " %)" : "**missed** (≤ " + (int) limit + " %)";
    }

    // ------------------------------------------------------------------------------------------ Table 1

    void table1(StringBuilder md, List<Path> plots) throws IOException {
        List<Csv.Row> rows = Csv.read(results.resolve("crypto.csv")).stream()
                .filter(r -> r.get("op").startsWith("table1_")).toList();
        md.append("## The integrity paper's Table 1 next to ours (§7.1)\n\n");
        if (rows.isEmpty()) {
            md.append("No `table1_*` rows in `crypto.csv` yet: run `scripts/bench-crypto`.\n\n");
            return;
        }
        md.append("The paper: Java, Pentium D 2.8 GHz (2008), Shoup RSA from Steve Weis' library; its key labels are "
                + "read here as modulus bits (its 1.2 s per 1024-bit share suggests another reading or an unoptimised "
                + "library: compare orders of magnitude, not ratios). Ours: this machine, p50 of the thread's CPU "
                + "time (robust to the shared machine's load); MAC = HMAC-SHA256 over the paper's 1 KB "
                + "message, authenticator = n−1 = 3 MACs over its digest (a receiver checks one), CT<k> signing = one "
                + "share, verification/combination = k shares checked and combined. Our Shoup RSA refuses moduli below "
                + "512 bits, so CT-64/128/256 have no counterpart; our 128-bit default (CKS on P-256) and BLS12-381 "
                + "are added below the paper's rows.\n\n");
        md.append("| row | paper sign/gen | paper verify/combine | ours sign/gen | ours verify/combine |\n|---|---:|---:|---:|---:|\n");
        Map<String, double[]> ours = ours(rows);
        List<String> labels = new ArrayList<>(PAPER.keySet());
        for (String extra : ours.keySet()) {
            if (!labels.contains(extra)) {
                labels.add(extra);
            }
        }
        for (String label : labels) {
            double[] p = PAPER.get(label);
            double[] o = ours.get(label);
            md.append("| ").append(label).append(" | ").append(p == null ? "—" : us(p[0])).append(" | ")
                    .append(p == null ? "—" : us(p[1])).append(" | ").append(o == null ? "not measured" : us(o[0]))
                    .append(" | ").append(o == null ? "not measured" : us(o[1])).append(" |\n");
        }
        chart(md, plots, ours);
    }

    /** Our rows by the paper's labels (CT<k>-<bits> for RSA; CT<k>-cks/-bls for the others). */
    private static Map<String, double[]> ours(List<Csv.Row> rows) {
        Map<String, double[]> m = new LinkedHashMap<>();
        for (Csv.Row r : rows) {
            String scheme = r.get("scheme");
            String op = r.get("op");
            String label;
            if (scheme.startsWith("hmac")) {
                label = "MAC";
            } else if (scheme.startsWith("authenticator")) {
                label = "Authenticator";
            } else {
                label = "CT" + r.get("k") + "-" + (scheme.equals("rsa-shoup") ? r.get("key_bits") : scheme);
            }
            boolean first = op.endsWith("generate_1KiB") || op.equals("table1_sign");
            m.computeIfAbsent(label, k -> new double[] {Double.NaN, Double.NaN})[first ? 0 : 1] = r.number("p50_us");
        }
        return m;
    }

    private void chart(StringBuilder md, List<Path> plots, Map<String, double[]> ours) throws IOException {
        List<String> both = new ArrayList<>();
        for (String label : PAPER.keySet()) {
            if (ours.containsKey(label)) {
                both.add(label);
            }
        }
        if (both.isEmpty()) {
            return;
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("paper sign/gen", both.stream().map(l -> PAPER.get(l)[0]).toList());
        series.put("ours sign/gen", both.stream().map(l -> ours.get(l)[0]).toList());
        series.put("paper verify/combine", both.stream().map(l -> PAPER.get(l)[1]).toList());
        series.put("ours verify/combine", both.stream().map(l -> ours.get(l)[1]).toList());
        Path png = results.resolve("table1.png");
        Plots.bars(png, "Integrity paper Table 1 vs ours (n = 4)", "operation", "µs (log scale)", true, both, series,
                LegendPosition.OutsideE);
        plots.add(png);
        md.append("\n![table 1](results/table1.png)\n\n");
    }

    private static String us(double v) {
        if (Double.isNaN(v)) {
            return "—";
        }
        return v >= 1000 ? String.format(Locale.ROOT, "%.1f ms", v / 1000) : String.format(Locale.ROOT, "%.1f µs", v);
    }
}
