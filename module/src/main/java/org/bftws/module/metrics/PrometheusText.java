package org.bftws.module.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes Prometheus's text exposition format (version 0.0.4): per metric family one {@code # HELP} and one
 * {@code # TYPE} line, then its samples, each with the writer's constant labels (such as {@code replica="2"})
 * and its own. Label values are escaped as the format says (backslash, double quote, newline); names are the
 * caller's constants. Not thread-safe: one writer per scrape.
 */
public final class PrometheusText {
    /** The Content-Type of this format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder(4096);
    private final String constant;

    /** {@code constantLabels}: name to value, added to every sample, in this order. */
    public PrometheusText(Map<String, String> constantLabels) {
        this.constant = labels(constantLabels);
    }

    /** A counter (a {@code _total} name) with one unlabelled sample. */
    public PrometheusText counter(String name, String help, double value) {
        return family(name, help, "counter").sample(name, Map.of(), value);
    }

    /** A gauge with one unlabelled sample. */
    public PrometheusText gauge(String name, String help, double value) {
        return family(name, help, "gauge").sample(name, Map.of(), value);
    }

    /** A counter or gauge family ({@code type}) with one sample per entry of {@code byLabel}, labelled {@code label}. */
    public PrometheusText labelled(String name, String help, String type, String label, Map<String, ? extends Number> byLabel) {
        family(name, help, type);
        for (Map.Entry<String, ? extends Number> e : byLabel.entrySet()) {
            sample(name, Map.of(label, e.getKey()), e.getValue().doubleValue());
        }
        return this;
    }

    /** A histogram family with one histogram per entry of {@code byLabel}, labelled {@code label}. */
    public PrometheusText histograms(String name, String help, String label, Map<String, Histogram> byLabel) {
        family(name, help, "histogram");
        for (Map.Entry<String, Histogram> e : byLabel.entrySet()) {
            Histogram.Snapshot s = e.getValue().snapshot();
            for (int i = 0; i < Histogram.BOUNDS.length; i++) {
                sample(name + "_bucket", bucket(label, e.getKey(), number(Histogram.BOUNDS[i])), s.cumulative()[i]);
            }
            sample(name + "_bucket", bucket(label, e.getKey(), "+Inf"), s.count());
            sample(name + "_sum", Map.of(label, e.getKey()), s.sumSeconds());
            sample(name + "_count", Map.of(label, e.getKey()), s.count());
        }
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    /** A family's HELP and TYPE lines; its samples follow with {@link #sample}. */
    public PrometheusText family(String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n"))
                .append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** One sample of the family declared last, with {@code labels} after the constant ones. */
    public PrometheusText sample(String name, Map<String, String> labels, double value) {
        out.append(name);
        String own = labels(labels);
        if (!constant.isEmpty() || !own.isEmpty()) {
            out.append('{').append(constant);
            if (!constant.isEmpty() && !own.isEmpty()) {
                out.append(',');
            }
            out.append(own).append('}');
        }
        out.append(' ').append(number(value)).append('\n');
        return this;
    }

    private static Map<String, String> bucket(String label, String value, String le) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(label, value);
        m.put("le", le);
        return m;
    }

    private static String labels(Map<String, String> labels) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : labels.entrySet()) {
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(e.getKey()).append("=\"").append(escape(e.getValue())).append('"');
        }
        return b.toString();
    }

    static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Integers without a fraction, others in plain decimal notation, NaN and infinities by name. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        } else if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        } else if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
