package org.bftws.perf;

import java.util.Arrays;
import java.util.List;

/** Summary statistics of latency samples (nanoseconds in, milliseconds out) and medians of repetitions. */
public final class Stats {
    private Stats() {
    }

    /** Mean, p50 and p99 in milliseconds of {@code nanos}; all 0 when there are no samples. */
    public record Latency(int count, double meanMs, double p50Ms, double p99Ms) {
    }

    public static Latency latency(long[] nanos, int count) {
        if (count == 0) {
            return new Latency(0, 0, 0, 0);
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        double sum = 0;
        for (long n : sorted) {
            sum += n;
        }
        return new Latency(count, sum / count / 1e6, percentile(sorted, 0.50) / 1e6, percentile(sorted, 0.99) / 1e6);
    }

    /** Nearest-rank percentile of sorted samples. */
    static long percentile(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The median of the values (mean of the middle two for an even count); NaN for none. */
    public static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }
}
