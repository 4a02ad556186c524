package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fault campaign's soak figures (scripts/faults --soak): each replica's status samples (status-I.jsonl, written
 * every 100 ms inside the replica) reduced to one row per replica and {@value #BUCKET_SECONDS} s, the last sample
 * of each bucket, into {@code soak.csv}: heap in use, RSS, threads, open descriptors, last executed, stable
 * checkpoint and log size; {@code soak.png} plots heap and RSS, {@code soak-threads.png} threads and descriptors.
 * A replica killed and restarted by the nemesis starts again from its JVM's start-up figures.
 *
 * <pre>
 *   SoakReport --dir run/faults --out perf/results
 * </pre>
 */
public final class SoakReport {
    static final int BUCKET_SECONDS = 10;
    private static final String[] FIELDS = {"heap", "rss", "threads", "fds", "LastExecuted", "StableCheckpoint",
        "LogSize"};
    private static final Pattern NUMBER = Pattern.compile("\"(\\w+)\":(-?\\d+)");

    private SoakReport() {
    }

    /** One reduced sample: seconds since the run's first sample, replica, the fields' values (-1: absent). */
    record Row(long seconds, int replica, long[] values) {
        String csv() {
            StringBuilder b = new StringBuilder().append(seconds).append(',').append(replica);
            for (int i = 0; i < values.length; i++) {
                double v = values[i];
                b.append(',').append(i < 2 && v >= 0 ? String.format(Locale.ROOT, "%.1f", v / (1 << 20))
                        : String.valueOf(values[i]));
            }
            return b.toString();
        }
    }

    static Map<String, Long> numbers(String line) {
        Map<String, Long> m = new LinkedHashMap<>();
        Matcher x = NUMBER.matcher(line);
        while (x.find()) {
            m.put(x.group(1), Long.parseLong(x.group(2)));
        }
        return m;
    }

    /** The reduced rows of every status-I.jsonl in {@code dir}, by time then replica. */
    static List<Row> rows(Path dir) throws IOException {
        TreeMap<Long, TreeMap<Integer, long[]>> buckets = new TreeMap<>();
        long start = Long.MAX_VALUE;
        List<List<Map<String, Long>>> all = new ArrayList<>();
        for (int id = 0; Files.exists(dir.resolve("status-" + id + ".jsonl")); id++) {
            List<Map<String, Long>> samples = new ArrayList<>();
            for (String line : Files.readAllLines(dir.resolve("status-" + id + ".jsonl"))) {
                Map<String, Long> n = numbers(line);
                if (n.containsKey("t") && n.containsKey("LastExecuted")) {
                    samples.add(n);
                    start = Math.min(start, n.get("t"));
                }
            }
            all.add(samples);
        }
        for (int id = 0; id < all.size(); id++) {
            for (Map<String, Long> n : all.get(id)) {
                long bucket = (n.get("t") - start) / 1_000_000 / BUCKET_SECONDS * BUCKET_SECONDS;
                long[] values = new long[FIELDS.length];
                for (int f = 0; f < FIELDS.length; f++) {
                    values[f] = n.getOrDefault(FIELDS[f], -1L);
                }
                buckets.computeIfAbsent(bucket, b -> new TreeMap<>()).put(id, values);
            }
        }
        List<Row> rows = new ArrayList<>();
        buckets.forEach((seconds, byReplica) -> byReplica.forEach((id, v) -> rows.add(new Row(seconds, id, v))));
        return rows;
    }

    static void write(List<Row> rows, Path out) throws IOException {
        Files.createDirectories(out);
        List<String> lines = new ArrayList<>(List.of(
                "seconds,replica,heap_mb,rss_mb,threads,fds,last_executed,stable_checkpoint,log_size"));
        rows.forEach(r -> lines.add(r.csv()));
        Files.write(out.resolve("soak.csv"), lines);
        Plots.lines(out.resolve("soak.png"), "Soak under faults: replica memory", "seconds", "MB",
                series(rows, Map.of("heap", 0, "RSS", 1), 1 << 20));
        Plots.lines(out.resolve("soak-threads.png"), "Soak under faults: replica threads and open descriptors",
                "seconds", "count", series(rows, Map.of("threads", 2, "fds", 3), 1));
    }

    /** One line per replica and chosen field ({@code name -> index into values}), scaled by {@code unit}. */
    private static Map<String, double[][]> series(List<Row> rows, Map<String, Integer> fields, double unit) {
        Map<String, double[][]> out = new TreeMap<>();
        int replicas = rows.stream().mapToInt(Row::replica).max().orElse(-1) + 1;
        for (Map.Entry<String, Integer> f : fields.entrySet()) {
            for (int id = 0; id < replicas; id++) {
                int replica = id;
                List<Row> mine = rows.stream().filter(r -> r.replica() == replica && r.values()[f.getValue()] >= 0)
                        .toList();
                double[] x = mine.stream().mapToDouble(Row::seconds).toArray();
                double[] y = mine.stream().mapToDouble(r -> r.values()[f.getValue()] / unit).toArray();
                if (x.length > 0) {
                    out.put(f.getKey() + " r" + id, new double[][] {x, y});
                }
            }
        }
        return out;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4 || !args[0].equals("--dir") || !args[2].equals("--out")) {
            System.err.println("usage: SoakReport --dir RUN_DIR --out RESULTS_DIR");
            System.exit(2);
        }
        List<Row> rows = rows(Path.of(args[1]));
        write(rows, Path.of(args[3]));
        System.out.println("soak: " + rows.size() + " rows into " + Path.of(args[3]).resolve("soak.csv")
                + ", soak.png, soak-threads.png");
    }
}
