package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The short-lived clients benchmark's plots (scripts/bench-clients): from {@code clients.csv}, each replica's heap
 * after a full GC against the clients served ({@code clients-heap.png}), and its threads and open descriptors
 * ({@code clients-threads.png}), one line per run (its ordering mode and start time), the mean over the replicas
 * (the CSV keeps each replica's figures), and one for the client driver's own JVM. Flat curves
 * once warm mean no per-client state is left behind.
 *
 * <pre>
 *   ClientsReport --csv perf/results/clients.csv
 * </pre>
 */
public final class ClientsReport {
    private ClientsReport() {
    }

    /**
     * One line per run: x = clients served, y = the replicas' mean of {@code column} / {@code unit}; the client
     * driver's own figures (replica "driver") a line of their own.
     */
    static Map<String, double[][]> series(List<Csv.Row> rows, String column, String label, double unit) {
        Map<String, TreeMap<Double, double[]>> sums = new TreeMap<>();
        for (Csv.Row r : rows) {
            String who = r.get("replica").equals("driver") ? " driver " : " ";
            String key = label + who + r.get("ordering") + " (" + r.get("started_utc") + ")";
            double[] sum = sums.computeIfAbsent(key, k -> new TreeMap<>())
                    .computeIfAbsent(r.number("clients_served"), x -> new double[2]);
            sum[0] += r.number(column) / unit;
            sum[1]++;
        }
        Map<String, double[][]> out = new TreeMap<>();
        sums.forEach((key, byX) -> out.put(key, new double[][] {
            byX.keySet().stream().mapToDouble(Double::doubleValue).toArray(),
            byX.values().stream().mapToDouble(v -> v[0] / v[1]).toArray()}));
        return out;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !args[0].equals("--csv")) {
            System.err.println("usage: ClientsReport --csv perf/results/clients.csv");
            System.exit(2);
        }
        Path csv = Path.of(args[1]);
        List<Csv.Row> rows = Csv.read(csv);
        Path dir = csv.toAbsolutePath().getParent();
        Plots.lines(dir.resolve("clients-heap.png"), "Short-lived clients: replica heap after a full GC",
                "clients served", "MB", series(rows, "heap_after_gc_kb", "heap", 1024));
        Map<String, double[][]> counts = new TreeMap<>(series(rows, "threads", "threads", 1));
        counts.putAll(series(rows, "fds", "fds", 1));
        Plots.lines(dir.resolve("clients-threads.png"), "Short-lived clients: replica threads and open descriptors",
                "clients served", "count", counts);
        System.out.println("clients: " + rows.size() + " rows from " + csv + " into clients-heap.png, clients-threads.png");
    }
}
