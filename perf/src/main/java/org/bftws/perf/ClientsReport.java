package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The short-lived clients benchmark's plots (scripts/bench-clients): from {@code clients.csv}, each replica's heap
 * after a full GC against the clients served ({@code clients-heap.png}), and its threads and open descriptors
 * ({@code clients-threads.png}), one line per run (its start time and ordering mode) and replica. Flat curves
 * once warm mean no per-client state is left behind.
 *
 * <pre>
 *   ClientsReport --csv perf/results/clients.csv
 * </pre>
 */
public final class ClientsReport {
    private ClientsReport() {
    }

    /** One line per run and replica: x = clients served, y = {@code column} / {@code unit}. */
    static Map<String, double[][]> series(List<Csv.Row> rows, String column, String label, double unit) {
        Map<String, List<double[]>> points = new TreeMap<>();
        for (Csv.Row r : rows) {
            String key = label + " " + r.get("ordering") + " r" + r.get("replica") + " (" + r.get("started_utc") + ")";
            points.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(new double[] {r.number("clients_served"), r.number(column) / unit});
        }
        Map<String, double[][]> out = new TreeMap<>();
        points.forEach((key, p) -> {
            p.sort((a, b) -> Double.compare(a[0], b[0]));
            out.put(key, new double[][] {p.stream().mapToDouble(a -> a[0]).toArray(),
                p.stream().mapToDouble(a -> a[1]).toArray()});
        });
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
