package org.bftws.client.faults;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.bftws.module.order.ReplicaStatus;

/**
 * Samples this replica JVM into a JSON-lines file, one line every period: the replica's status MBean (view,
 * primary, active, last executed, stable checkpoint, pending, log size, messages sent, given up and inbound
 * messages dropped), the sample services' state
 * ({@code org.bftws.samples:type=ServiceState}), and the process's heap, RSS, threads and open descriptors. It runs
 * inside the replica because the replica lives in a network namespace of its own, where the JDK's local JMX
 * connector (RMI on the namespace's loopback) cannot be reached from outside; the file can.
 */
final class StatusSampler implements AutoCloseable {
    private final int id;
    private final BufferedWriter out;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "status-sampler");
        t.setDaemon(true);
        return t;
    });
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    StatusSampler(int id, Path file) throws IOException {
        this.id = id;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    void start(long periodMillis) {
        timer.scheduleAtFixedRate(this::sampleQuietly, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void sampleQuietly() {
        try {
            out.write(sample());
            out.newLine();
            out.flush();
        } catch (IOException | RuntimeException e) {
            System.err.println("status sampler: " + e);
        }
    }

    /** One line: {"t":MICROS,"id":I,"pid":P,...}; replica fields absent until its MBean is registered. */
    String sample() {
        StringBuilder json = new StringBuilder("{\"t\":").append(System.currentTimeMillis() * 1000)
                .append(",\"id\":").append(id).append(",\"pid\":").append(ProcessHandle.current().pid());
        try {
            Set<ObjectName> names = server.queryNames(
                    new ObjectName(ReplicaStatus.DOMAIN + ":type=Replica,id=" + id + ",*"), null);
            if (!names.isEmpty()) {
                ObjectName n = names.iterator().next();
                for (String a : new String[] {"View", "Primary", "Active", "LastExecuted", "StableCheckpoint",
                    "PendingRequests", "LogSize", "MessagesSent", "MessagesGivenUp", "InboundDropped",
                    "InboundMisattributed", "InboundRefused", "RecoveredFromJournal", "StatesTransferred"}) {
                    json.append(",\"").append(a).append("\":").append(server.getAttribute(n, a));
                }
            }
            for (String service : new String[] {"Counter", "Register"}) {
                ObjectName n = new ObjectName("org.bftws.samples:type=ServiceState,name=" + service);
                if (server.isRegistered(n)) {
                    json.append(",\"").append(service).append("\":\"").append(server.getAttribute(n, "State"))
                            .append('"');
                }
            }
        } catch (JMException e) {
            json.append(",\"error\":\"").append(e.getClass().getSimpleName()).append('"');
        }
        return json.append(",\"heap\":").append(memory.getHeapMemoryUsage().getUsed())
                .append(",\"rss\":").append(rssBytes())
                .append(",\"threads\":").append(ManagementFactory.getThreadMXBean().getThreadCount())
                .append(",\"fds\":").append(openDescriptors()).append('}').toString();
    }

    /** VmRSS of /proc/self/status in bytes, -1 where there is no /proc. */
    private static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    private static long openDescriptors() {
        String[] fds = Path.of("/proc/self/fd").toFile().list();
        return fds == null ? -1 : fds.length;
    }

    @Override
    public void close() throws IOException {
        timer.shutdownNow();
        out.close();
    }
}
