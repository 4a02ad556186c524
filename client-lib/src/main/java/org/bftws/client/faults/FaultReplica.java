package org.bftws.client.faults;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.group.GroupLauncher;
import org.bftws.module.config.BftwsKeys;

/**
 * One replica of the fault campaign's group (scripts/faults), started as scripts/start-group starts one
 * (an embedded Axis2 server with bftws, conf/axis2-replica.xml and the keys of scripts/keygen) but addressed by
 * its host in the {@link Testbed} group file, serving echo (the main service), the counter and the register,
 * and sampling itself into a status file ({@link StatusSampler}).
 *
 * <pre>
 *   FaultReplica --id I --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR --status FILE [--sample-ms 100]
 *                [--data-dir DIR [--durability os|fsync]] [--faulty-register true] [--ordering pbft|async|hybrid]
 * </pre>
 * With {@code --faulty-register true} (the campaign's negative control) it deploys {@code register-faulty.aar},
 * built from sample-services' test sources, in place of the register: each write stores one more than asked.
 * Runs until the JVM is terminated. With {@code --data-dir} (scripts/faults gives {@code DIR/data}) the replica
 * keeps its journal there: restarted after {@code kill -9} it comes back with the state of its last stable
 * checkpoint (docs/journal.md); restarted on a wiped directory, or without {@code --data-dir}, it comes back
 * empty and catches up by state transfer. {@code --ordering} is the group's {@code bftws.ordering} (the workload
 * is given the same).
 */
public final class FaultReplica {
    private FaultReplica() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = GroupLauncher.options(args, 0);
        int id = Integer.parseInt(GroupLauncher.required(o, "id"));
        Testbed testbed = Testbed.read(Path.of(GroupLauncher.required(o, "group")));
        GroupLauncher.Layout layout = GroupLauncher.layout(o);
        String parameters = testbed.groupParameters(layout.keys()) + GroupLauncher.replicaParameters(id, layout.keys())
                + GroupLauncher.param(BftwsKeys.RANDOMNESS.name(), "none")
                + GroupLauncher.orderingParameters(o.getOrDefault("ordering", "pbft"))
                + (o.containsKey("data-dir") ? GroupLauncher.journalParameters(Path.of(o.get("data-dir")),
                        o.getOrDefault("durability", "os")) : "");
        StatusSampler sampler = new StatusSampler(id, Path.of(GroupLauncher.required(o, "status")));
        EmbeddedAxis2Server server = GroupLauncher.startReplica(layout, Path.of(GroupLauncher.required(o, "dir")),
                testbed.ports().get(id), parameters, "echo.aar", "counter.aar",
                Boolean.parseBoolean(o.getOrDefault("faulty-register", "false")) ? "register-faulty.aar" : "register.aar");
        sampler.start(Long.parseLong(o.getOrDefault("sample-ms", "100")));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                sampler.close(); // first: its last line shows the replica as it stopped
                server.close();
            } catch (Exception e) {
                System.err.println("replica " + id + ": " + e);
            }
            stopped.countDown();
        }, "replica-shutdown"));
        System.out.println("replica " + id + " serving " + testbed.serviceUrl(id, "Echo") + ", Counter, Register");
        stopped.await();
    }
}
