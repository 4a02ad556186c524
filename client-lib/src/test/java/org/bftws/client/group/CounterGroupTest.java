package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.HandlerDescription;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.client.GroupClients;
import org.bftws.module.testing.Conditions;
import org.bftws.client.embedded.Axis2Server;
import org.bftws.module.journal.JournalStore;
import org.bftws.module.order.JournalRecovery;
import org.bftws.module.order.TotalOrderManager;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The real {@code counter.aar} in the demo group of {@link GroupLauncher} (echo the main service; dealer, id
 * generator and counter beside it), four replicas over loopback HTTP: voted increments; bad amounts and the
 * reserved state operations refused with a voted fault that changes nothing; checkpoints that capture the
 * counter although it is not the group's main service (BFT-WS §3.3.1.8); a backup restarted empty gets the
 * value through state transfer — it never executes the increments it missed, yet afterwards computes the same
 * values as the group; a backup restarted on its data directory recovers from its journal instead.
 */
public class CounterGroupTest {
    private static final long WAIT_MS = 30_000;
    /** Checkpoint every 4 batches, window 8: a replica down for a dozen calls falls below the low watermark. */
    private static final String FAST = GroupLauncher.param("bftws.checkpointInterval", "4")
            + GroupLauncher.param("bftws.logWindow", "8") + GroupLauncher.param("bftws.retransmitTicks", "5")
            + GroupLauncher.param("bftws.clientRetransmitTicks", "10");

    /**
     * Checkpoint every 8 batches (one increment is one batch here), window 16: a backup stopped at checkpoint 8
     * after 10 increments, that misses 2 and is back for 2 more, stays below the next checkpoint, so the normal
     * protocol's retransmission, not state transfer, must bring what it missed.
     */
    private static final String JOURNALED = GroupLauncher.param("bftws.checkpointInterval", "8")
            + GroupLauncher.param("bftws.logWindow", "16") + GroupLauncher.param("bftws.retransmitTicks", "5")
            + GroupLauncher.param("bftws.clientRetransmitTicks", "10");

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(150);

    private DemoClient client;
    private long expected;

    @Test
    public void votedIncrementsCheckpointsAndStateTransferToABackupRestartedEmpty() throws Exception {
        group.parameters(FAST).start();
        client = group.client("client");
        assertEquals("a fresh counter", 0, client.readCounter().value());
        for (int amount = 1; amount <= 10; amount++) {
            increment(amount);
        }
        refusedWithoutEffect("amount 0", () -> client.increment(0), "amount must be between 1 and 1000000");
        refusedWithoutEffect("amount 1000001", () -> client.increment(1_000_001), "amount must be between");
        refusedWithoutEffect("set_state by a client", this::forgedSetState, "reserved");
        for (int r = 0; r < LaunchedGroup.N; r++) {
            TotalOrderManager m = group.manager(r);
            // stable only if 2f+1 replicas captured the same state, the counter's included
            await("replica " + r + " has a stable checkpoint at 12", () -> m.stableCheckpoint() >= 12);
        }

        int backup = LaunchedGroup.N - 1; // replica 0 is the primary of view 0
        group.stop(backup);
        for (int amount = 11; amount <= 24; amount++) {
            increment(amount);
        }
        // Same endpoint, empty state: what it missed is below the others' low watermark now.
        ValueProbe probe = ValueProbe.on(group.start(backup, "replica3-restarted"));
        List<Long> sinceRestart = new ArrayList<>();
        for (int amount = 25; amount <= 28; amount++) {
            sinceRestart.add(increment(amount));
        }
        TotalOrderManager restarted = group.manager(backup);
        await("the restarted replica installs a checkpoint and catches up",
                () -> restarted.lastExecuted() == group.manager(0).lastExecuted());
        List<Long> voted = new ArrayList<>();
        for (int amount = 29; amount <= 31; amount++) {
            voted.add(increment(amount));
        }
        // f+1 others voted the last one: the restarted replica may still be executing it (a size check raced here)
        long last = voted.get(voted.size() - 1);
        await("the restarted replica executed the last increment", () -> probe.values().contains(last));
        List<Long> computed = probe.values();
        sinceRestart.addAll(voted);
        // Each value it computed itself is the voted one, in order, ending with the last; the others (a newer
        // checkpoint may reach it by state transfer while it executes) it got with the state.
        assertTrue("the restarted replica's own values (it executed none of the first 24 increments): " + computed
                + " among the voted " + sinceRestart, sinceRestart.containsAll(computed)
                && computed.equals(computed.stream().sorted().distinct().toList()));
        assertEquals(last, (long) computed.get(computed.size() - 1));
        assertTrue("it got the state by transfer: executed " + computed.size() + " of 31 increments",
                computed.size() < 31 - 24 + 1);
        assertTrue(restarted.stableCheckpoint() > 0);
        assertNull(restarted.failure());
        assertEquals(expected, client.readCounter().value());
    }

    /**
     * Restart with state (docs/journal.md): with a journal in each replica's data directory, a backup stopped
     * after the counter was checkpointed and started again on its data directory recovers from its journal at
     * the stable checkpoint it had, installs none by state transfer, catches up, and computes the voted values.
     */
    @Test
    public void aBackupRestartedOnItsDataDirectoryRecoversFromItsJournalAndCatchesUp() throws Exception {
        group.parameters(JOURNALED).journaled("os").start();
        client = group.client("client");
        for (int amount = 1; amount <= 10; amount++) {
            increment(amount);
        }
        int backup = LaunchedGroup.N - 1; // replica 0 is the primary of view 0
        TotalOrderManager before = group.manager(backup);
        await("every replica executed the last increment and has a stable checkpoint", () -> {
            for (int r = 0; r < LaunchedGroup.N; r++) {
                TotalOrderManager m = group.manager(r);
                if (m.lastExecuted() != group.manager(0).lastExecuted() || m.stableCheckpoint() < 8) {
                    return false;
                }
            }
            return true;
        });
        assertNull("a replica started on an empty data directory recovers nothing", before.recoveredFromJournal());
        long checkpoint = before.stableCheckpoint();
        group.stop(backup);
        assertTrue(Files.size(group.dataDir(backup).resolve(JournalStore.FILE)) > 0);

        for (int amount = 11; amount <= 12; amount++) {
            increment(amount); // ordered by the other three while the backup is down
        }
        ValueProbe probe = ValueProbe.on(group.start(backup, "replica3-restarted"));
        TotalOrderManager restarted = group.manager(backup);
        JournalRecovery recovery = restarted.recoveredFromJournal();
        assertNotNull("the restarted replica recovered from its journal", recovery);
        assertEquals("at the stable checkpoint it had when it stopped", checkpoint, recovery.stableCheckpoint());
        assertTrue("with records above the checkpoint too: " + recovery, recovery.records() > 1);

        List<Long> voted = new ArrayList<>();
        for (int amount = 13; amount <= 14; amount++) {
            voted.add(increment(amount));
        }
        await("the restarted replica catches up",
                () -> restarted.lastExecuted() == group.manager(0).lastExecuted());
        long last = voted.get(voted.size() - 1);
        await("the restarted replica executed the last increment", () -> probe.values().contains(last));
        List<Long> computed = probe.values();
        assertEquals("the restarted replica's own values for the increments after its restart", voted,
                computed.subList(computed.size() - voted.size(), computed.size()));
        assertTrue("it did not execute every increment again: computed " + computed, computed.size() < 14);
        assertEquals("it needed no state transfer", 0, restarted.statesTransferred());
        assertNull(restarted.failure());
        assertEquals(expected, client.readCounter().value());
    }

    /** Adds {@code amount} through the group; the voted value must be the running total. */
    private long increment(long amount) throws AxisFault {
        expected += amount;
        long value = client.increment(amount).value();
        assertEquals("voted value after adding " + amount, expected, value);
        return value;
    }

    private interface Call {
        void run() throws AxisFault;
    }

    private void refusedWithoutEffect(String what, Call call, String reason) throws AxisFault {
        try {
            call.run();
            fail(what + " was accepted");
        } catch (AxisFault e) {
            assertTrue(what + ": " + e.getMessage(), e.getMessage().contains(reason));
        }
        assertEquals(what + " changed the value", expected, client.readCounter().value());
    }

    private void forgedSetState() throws AxisFault {
        ServiceClient c = GroupClients.create(client.context(), GroupLauncher.COUNTER_ENDPOINT,
                "urn:bftws:samples:counter:set_state", WAIT_MS);
        try {
            OMFactory f = OMAbstractFactory.getOMFactory();
            OMElement state = f.createOMElement("state", f.createOMNamespace(GroupLauncher.COUNTER_NS, "c"));
            f.createOMElement("value", state.getNamespace(), state).setText("1000000000");
            c.sendReceive(state);
        } finally {
            c.cleanup();
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }

    /** Records the values one replica's counter computes, from its increment responses (before voting). */
    static final class ValueProbe extends AbstractHandler {
        private final List<Long> values = new CopyOnWriteArrayList<>();

        static ValueProbe on(Axis2Server replica) throws AxisFault {
            ValueProbe probe = new ValueProbe();
            HandlerDescription d = new HandlerDescription("CounterValueProbe");
            d.setHandler(probe);
            probe.init(d);
            AxisOperation op = replica.context().getAxisConfiguration().getService("Counter")
                    .getOperation(new QName("increment"));
            for (Object o : op.getPhasesOutFlow()) {
                Phase p = (Phase) o;
                if (p.getPhaseName().equals("OperationOutPhase")) {
                    p.addHandler(probe);
                    return probe;
                }
            }
            throw new IllegalStateException("no OperationOutPhase on Counter's increment");
        }

        List<Long> values() {
            return List.copyOf(values);
        }

        @Override
        public InvocationResponse invoke(MessageContext msgContext) {
            OMElement payload = msgContext.getEnvelope() == null ? null
                    : msgContext.getEnvelope().getBody().getFirstElement();
            if (payload != null && "incrementResponse".equals(payload.getLocalName())) {
                values.add(Long.parseLong(payload.getFirstElement().getText()));
            }
            return InvocationResponse.CONTINUE;
        }
    }
}
