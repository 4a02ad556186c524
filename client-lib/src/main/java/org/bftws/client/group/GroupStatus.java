package org.bftws.client.group;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import org.bftws.module.order.ReplicaStatus;

/**
 * What {@code scripts/group-status} prints: one row per replica of a group started by {@code scripts/start-group},
 * read from each replica's {@code org.bftws:type=Replica} MBean (docs/operating.md). The replica JVMs are found
 * by the pids in the group's directory and reached through the JDK's Attach API, which starts their local JMX
 * agent: only the user who runs the replicas can read them, and no JMX port is opened.
 *
 * <pre>
 *   GroupStatus --dir DIR      # DIR holds group ("ID PORT" lines) and replica-I.pid
 * </pre>
 */
public final class GroupStatus {
    /** The columns, in order. */
    static final List<String> HEADER = List.of("id", "endpoint", "state", "view", "primary", "executed", "stable",
            "pending", "evidence", "peers-down");

    /**
     * One replica's row: {@code state} is active, view-change or stopped (ordering failed) when its MBean was
     * read, else why not (down: no such process; unreachable: no MBean answered), and the numbers are then null.
     */
    record Row(int id, String endpoint, String state, Long view, Integer primary, Long executed, Long stable,
            Integer pending, Long evidence, int[] peersDown) {

        static Row unavailable(int id, String endpoint, String why) {
            return new Row(id, endpoint, why, null, null, null, null, null, null, null);
        }

        List<String> cells() {
            return List.of(String.valueOf(id), endpoint, state, text(view),
                    primary != null && primary < 0 ? "none" : text(primary), text(executed),
                    text(stable), text(pending), text(evidence), peersDown == null ? "-" : peersText(peersDown));
        }

        private static String text(Object value) {
            return value == null ? "-" : value.toString();
        }

        private static String peersText(int[] ids) {
            return ids.length == 0 ? "none" : Arrays.toString(ids).replace(" ", "");
        }
    }

    private GroupStatus() {
    }

    /** Replica {@code id}'s row from its MBean in {@code server}, or "unreachable" if it has none. */
    static Row read(MBeanServerConnection server, int id, String endpoint) throws IOException {
        try {
            Set<ObjectName> names = server.queryNames(
                    new ObjectName(ReplicaStatus.DOMAIN + ":type=Replica,id=" + id + ",*"), null);
            if (names.isEmpty()) {
                return Row.unavailable(id, endpoint, "unreachable");
            }
            ObjectName name = names.iterator().next();
            Map<String, Object> a = new HashMap<>();
            for (Attribute at : server.getAttributes(name, new String[] {"View", "Primary",
                "Active", "OrderingFailure", "LastExecuted", "StableCheckpoint", "PendingRequests", "EvidenceTotal",
                "PeersDown"}).asList()) {
                a.put(at.getName(), at.getValue());
            }
            String state = a.get("OrderingFailure") != null ? "stopped"
                    : Boolean.TRUE.equals(a.get("Active")) ? "active" : "view-change";
            return new Row(id, endpoint, state, (Long) a.get("View"), (Integer) a.get("Primary"),
                    (Long) a.get("LastExecuted"), (Long) a.get("StableCheckpoint"), (Integer) a.get("PendingRequests"),
                    (Long) a.get("EvidenceTotal"), (int[]) a.get("PeersDown"));
        } catch (JMException e) {
            return Row.unavailable(id, endpoint, "unreachable");
        }
    }

    /** The rows as a table with aligned columns, a header line first. */
    static String table(List<Row> rows) {
        List<List<String>> lines = new ArrayList<>();
        lines.add(HEADER);
        for (Row r : rows) {
            lines.add(r.cells());
        }
        int[] width = new int[HEADER.size()];
        for (List<String> l : lines) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], l.get(c).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> l : lines) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < width.length; c++) {
                line.append(String.format("%-" + width[c] + "s", l.get(c))).append(c + 1 < width.length ? "  " : "");
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** Replica {@code id} (pid in {@code pidFile}) of a group on this machine: its row, whatever state it is in. */
    static Row readProcess(int id, String endpoint, Path pidFile) {
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return Row.unavailable(id, endpoint, "down");
        }
        if (!isReplica(pid)) {
            return Row.unavailable(id, endpoint, "down");
        }
        try {
            JMXServiceURL url = new JMXServiceURL(localAgent(String.valueOf(pid)));
            try (JMXConnector c = JMXConnectorFactory.connect(url)) {
                return read(c.getMBeanServerConnection(), id, endpoint);
            }
        } catch (IOException | RuntimeException e) {
            return Row.unavailable(id, endpoint, "unreachable");
        }
    }

    /**
     * True if {@code pid} runs, and runs a replica (a pid file may outlive its process, and the pid be reused):
     * as scripts/stop-group checks, by /proc's command line, which {@link ProcessHandle.Info} cuts at 4 KiB, before
     * the class path ends.
     */
    static boolean isReplica(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            String cmdline = new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline")),
                    StandardCharsets.UTF_8);
            return cmdline.contains(GroupLauncher.class.getName());
        } catch (IOException e) {
            return true; // no /proc: the attach and the MBean query tell
        }
    }

    /** The address of {@code pid}'s local JMX agent, started if it is not yet (what jconsole does). */
    static String localAgent(String pid) throws IOException {
        try {
            VirtualMachine vm = VirtualMachine.attach(pid);
            try {
                return vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to " + pid + ": " + e.getMessage(), e);
        }
    }

    /** The rows of the group in {@code dir}: its group file and the replicas' pid files. */
    static List<Row> rows(Path dir) throws IOException {
        int[] ports = GroupLauncher.readGroup(dir.resolve("group"));
        List<Row> rows = new ArrayList<>();
        for (int id = 0; id < ports.length; id++) {
            rows.add(readProcess(id, GroupLauncher.serviceUrl(ports[id], "Echo"), dir.resolve("replica-" + id + ".pid")));
        }
        return rows;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !args[0].equals("--dir")) {
            System.err.println("usage: GroupStatus --dir DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        if (!Files.isRegularFile(dir.resolve("group"))) {
            System.err.println("group-status: no group in " + dir + " (no " + dir.resolve("group") + ")");
            System.exit(1);
        }
        System.out.print(table(rows(dir)));
    }
}
