package org.bftws.perf.breakdown;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CPU time of this JVM (the process, from the operating system's accounting through {@code
 * com.sun.management.OperatingSystemMXBean}) and of its threads by role (ThreadMXBean), between two
 * snapshots. Roles come from thread names: a replica's own threads ({@code bftws-order-rN},
 * {@code bftws-exec-rN}, {@code bftws-tick-rN}, {@code bftws-send-rN-*}) are {@code replica N}; Axis2's HTTP
 * workers ({@code HttpConnection-*}) serve every Axis2 instance of the JVM alike and are one role; what no
 * thread accounts for (threads that ended, GC and JIT) is {@code other}.
 */
public final class CpuMeter {
    /** The role of Axis2's HTTP workers, which serve every Axis2 instance of the JVM. */
    public static final String HTTP_WORKERS = "HTTP workers (all Axis2 instances)";
    private static final Pattern REPLICA = Pattern.compile("bftws-(?:order|exec|tick|send)-r(\\d+).*");

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long processStart;
    private final Map<Long, Long> threadStart = new HashMap<>();

    CpuMeter() {
        threads.setThreadCpuTimeEnabled(true);
        processStart = processCpuNanos();
        for (long id : threads.getAllThreadIds()) {
            threadStart.put(id, threads.getThreadCpuTime(id));
        }
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Nanoseconds of CPU since construction by role, with {@code process} (all) and {@code other}. */
    Map<String, Long> since() {
        long process = processCpuNanos() - processStart;
        Map<String, Long> byRole = new TreeMap<>();
        long accounted = 0;
        for (long id : threads.getAllThreadIds()) {
            java.lang.management.ThreadInfo info = threads.getThreadInfo(id);
            long now = threads.getThreadCpuTime(id);
            if (info == null || now < 0) {
                continue;
            }
            long used = now - threadStart.getOrDefault(id, 0L);
            byRole.merge(role(info.getThreadName()), used, Long::sum);
            accounted += used;
        }
        byRole.put("other (GC, JIT, ended threads)", Math.max(0, process - accounted));
        byRole.put("process", process);
        return byRole;
    }

    static String role(String name) {
        Matcher m = REPLICA.matcher(name);
        if (m.matches()) {
            return "replica " + m.group(1);
        } else if (name.startsWith("HttpConnection")) {
            return HTTP_WORKERS;
        } else if (name.startsWith("bftws-client")) {
            return "client sender and ticks";
        } else if (name.startsWith("perf-")) {
            return "client callers";
        }
        return "other threads";
    }
}
