package org.bftws.perf.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import org.bftws.perf.Machine;

/**
 * Aggregates JFR execution samples ({@code jdk.ExecutionSample}: the stack of a thread running Java code)
 * taken inside measurement windows, five ways: {@code component} — the package of the innermost BFT-WS frame
 * on the stack (the project code that is running or waiting on the library below it; "outside BFT-WS" when
 * none), {@code bftws method} — that frame's class and method,
 * {@code package} and {@code method} of the top frame (where the CPU is), and {@code thread} — the thread's
 * role (ordering, execution, sender, ticker, HTTP worker, client...).
 */
final class ProfileSummary {
    static final List<String> HEADER = Machine.withContext("clients", "calls_per_s", "kind", "name", "samples",
            "share");
    /** The aggregations, in the order of the CSV and RESULTS.md. */
    static final List<String> KINDS = List.of("component", "bftws method", "thread", "package", "method");
    /** Rows kept per (clients, kind): the tail is noise. */
    static final int TOP = 15;

    /** A measurement window of the run with {@code clients} concurrent clients. */
    record Window(int clients, Instant from, Instant to, double callsPerSecond) {
    }

    /** One aggregate: its CSV values after the context columns. */
    record Row(int clients, double callsPerSecond, String kind, String name, long samples, double share) {
        List<String> values() {
            return List.of(String.valueOf(clients), Machine.fmt(callsPerSecond), kind, name, String.valueOf(samples),
                    String.format(Locale.ROOT, "%.4f", share));
        }
    }

    private ProfileSummary() {
    }

    static List<Row> summarise(Path jfr, List<Window> windows) throws IOException {
        Map<Window, Map<String, Map<String, Long>>> counts = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
                continue;
            }
            Window w = windowOf(windows, e.getStartTime());
            if (w == null) {
                continue;
            }
            Map<String, Map<String, Long>> byKind = counts.computeIfAbsent(w, k -> new HashMap<>());
            RecordedStackTrace st = e.getStackTrace();
            RecordedThread t = e.getThread("sampledThread");
            count(byKind, "component", component(st));
            count(byKind, "bftws method", innermostBftwsMethod(st));
            count(byKind, "thread", threadRole(t == null ? null : t.getJavaName()));
            if (!st.getFrames().isEmpty()) {
                RecordedFrame top = st.getFrames().get(0);
                String type = top.getMethod().getType().getName();
                count(byKind, "package", packageOf(type));
                count(byKind, "method", type + "." + top.getMethod().getName());
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Window w : windows) {
            Map<String, Map<String, Long>> byKind = counts.getOrDefault(w, Map.of());
            for (String kind : KINDS) {
                Map<String, Long> c = byKind.getOrDefault(kind, Map.of());
                long total = c.values().stream().mapToLong(Long::longValue).sum();
                c.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                        .limit(TOP).forEach(en -> rows.add(new Row(w.clients(), w.callsPerSecond(), kind, en.getKey(),
                                en.getValue(), (double) en.getValue() / total)));
            }
        }
        return rows;
    }

    private static Window windowOf(List<Window> windows, Instant t) {
        for (Window w : windows) {
            if (!t.isBefore(w.from()) && t.isBefore(w.to())) {
                return w;
            }
        }
        return null;
    }

    private static void count(Map<String, Map<String, Long>> byKind, String kind, String name) {
        byKind.computeIfAbsent(kind, k -> new HashMap<>()).merge(name, 1L, Long::sum);
    }

    /** The package of the innermost org.bftws frame, e.g. {@code org.bftws.core.crypto}. */
    static String component(RecordedStackTrace st) {
        for (RecordedFrame f : st.getFrames()) {
            String type = f.getMethod().getType().getName();
            if (type.startsWith("org.bftws.") && !type.startsWith("org.bftws.perf.")) {
                return packageOf(type);
            }
        }
        for (RecordedFrame f : st.getFrames()) {
            if (f.getMethod().getType().getName().startsWith("org.bftws.perf.")) {
                return "perf driver (client side, below: " + packageOf(st.getFrames().get(0).getMethod().getType()
                        .getName()) + ")";
            }
        }
        return "outside BFT-WS (" + library(st) + ")";
    }

    /** The innermost org.bftws method on the stack (e.g. which of signing or verifying), or "none". */
    static String innermostBftwsMethod(RecordedStackTrace st) {
        for (RecordedFrame f : st.getFrames()) {
            String type = f.getMethod().getType().getName();
            if (type.startsWith("org.bftws.") && !type.startsWith("org.bftws.perf.")) {
                // a lambda's synthetic name says which method created it: lambda$verifier$1 -> verifier (lambda)
                return type.substring(type.lastIndexOf('.') + 1) + "."
                        + f.getMethod().getName().replaceAll("^lambda\\$(.+)\\$[0-9]+$", "$1 (lambda)");
            }
        }
        return "none (outside BFT-WS)";
    }

    /** The first two or three package levels of the top frame, e.g. {@code org.apache.axis2}. */
    private static String library(RecordedStackTrace st) {
        if (st.getFrames().isEmpty()) {
            return "?";
        }
        String[] p = packageOf(st.getFrames().get(0).getMethod().getType().getName()).split("\\.");
        return String.join(".", java.util.Arrays.copyOf(p, Math.min(p.length, p[0].equals("java") ? 2 : 3)));
    }

    static String packageOf(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? "" : type.substring(0, dot);
    }

    /** The thread's role from its name (numbers and replica ids stripped). */
    static String threadRole(String name) {
        if (name == null) {
            return "?";
        }
        if (name.startsWith("bftws-order")) {
            return "ordering (Total Order Manager)";
        } else if (name.startsWith("bftws-exec")) {
            return "execution (Total Order Invoker)";
        } else if (name.startsWith("bftws-send")) {
            return "sender (Multicast Sender)";
        } else if (name.startsWith("bftws-tick")) {
            return "ticker";
        } else if (name.startsWith("perf-")) {
            return "client callers (perf driver)";
        } else if (name.startsWith("HttpConnection-")) {
            return "HTTP workers (SimpleHTTPServer)";
        } else if (name.startsWith("bftws-client-send")) {
            return "client sender";
        }
        return name.replaceAll("[0-9]+", "N");
    }
}
