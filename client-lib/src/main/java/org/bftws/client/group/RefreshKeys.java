package org.bftws.client.group;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import javax.management.JMException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.bftws.module.order.KeyRefreshMBean;

/**
 * What {@code scripts/refresh-keys} runs: asks every replica of a group started by {@code scripts/start-group
 * --keys dkg} for a proactive refresh of the group's generated keys, through its {@code org.bftws:type=KeyRefresh}
 * MBean reached by the JDK's Attach API (as {@link GroupStatus} reads the status: only the user running the
 * replicas can), then waits until every replica it asked runs the next epoch's keys.
 *
 * <pre>
 *   RefreshKeys --dir DIR [--wait-seconds 300]
 * </pre>
 * Exit status 0 when every replica it reached refreshed and they were at least f+1, 1 otherwise.
 */
public final class RefreshKeys {
    private RefreshKeys() {
    }

    public static void main(String[] args) throws Exception {
        if ((args.length != 2 && args.length != 4) || !args[0].equals("--dir")
                || (args.length == 4 && !args[2].equals("--wait-seconds"))) {
            System.err.println("usage: RefreshKeys --dir DIR [--wait-seconds S]");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        long waitMillis = 1000L * (args.length == 4 ? Long.parseLong(args[3]) : 300);
        int[] ports = GroupLauncher.readGroup(dir.resolve("group"));
        int f = (ports.length - 1) / 3;
        JMXConnector[] connections = new JMXConnector[ports.length];
        KeyRefreshMBean[] refresh = new KeyRefreshMBean[ports.length];
        long[] from = new long[ports.length];
        int asked = 0;
        for (int id = 0; id < ports.length; id++) {
            try {
                connections[id] = connect(dir.resolve("replica-" + id + ".pid"));
                refresh[id] = connections[id] == null ? null : mbean(connections[id].getMBeanServerConnection(), id);
            } catch (IOException | RuntimeException e) {
                refresh[id] = null;
            }
            if (refresh[id] == null) {
                System.out.println("refresh-keys: replica " + id + ": not reached (down, or keys dealt, not generated)");
                continue;
            }
            from[id] = refresh[id].getEpoch();
            asked++;
        }
        // every replica asked for the same next epoch: one refresh, however long the attaches took
        long epoch = java.util.Arrays.stream(from).max().orElse(0);
        long asking = System.nanoTime();
        for (int id = 0; id < ports.length; id++) {
            if (refresh[id] != null) {
                System.out.println("refresh-keys: " + refresh[id].requestRefresh(epoch));
            }
        }
        boolean done = asked >= f + 1 && await(refresh, epoch, waitMillis);
        if (done) {
            System.out.println("refresh-keys: every replica reached runs epoch " + (epoch + 1) + " keys "
                    + (System.nanoTime() - asking) / 1_000_000 + " ms after the votes were asked for");
        }
        for (int id = 0; id < ports.length; id++) {
            if (refresh[id] != null) {
                System.out.println("refresh-keys: replica " + id + ": keys of epoch " + refresh[id].getEpoch());
                connections[id].close();
            }
        }
        if (!done) {
            System.err.println("refresh-keys: " + (asked < f + 1 ? "reached " + asked + " replicas, fewer than the f+1 = "
                    + (f + 1) + " a refresh needs" : "not every replica asked refreshed within " + waitMillis / 1000
                    + " s (scripts/group-status, the replicas' logs)"));
            System.exit(1);
        }
    }

    /** Waits until every replica asked runs keys of a later epoch than {@code epoch}; false on timeout. */
    private static boolean await(KeyRefreshMBean[] refresh, long epoch, long waitMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + waitMillis;
        while (System.currentTimeMillis() < deadline) {
            boolean all = true;
            for (int id = 0; id < refresh.length; id++) {
                all &= refresh[id] == null || refresh[id].getEpoch() > epoch;
            }
            if (all) {
                return true;
            }
            Thread.sleep(200); // polling another process's MBean: nothing to wait on here
        }
        return false;
    }

    private static JMXConnector connect(Path pidFile) throws IOException {
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return null;
        }
        if (!GroupStatus.isReplica(pid)) {
            return null;
        }
        return JMXConnectorFactory.connect(new JMXServiceURL(GroupStatus.localAgent(String.valueOf(pid))));
    }

    private static KeyRefreshMBean mbean(MBeanServerConnection server, int id) throws IOException {
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName("org.bftws:type=KeyRefresh,id=" + id + ",*"), null);
            return names.isEmpty() ? null : JMX.newMBeanProxy(server, names.iterator().next(), KeyRefreshMBean.class);
        } catch (JMException e) {
            return null;
        }
    }
}
