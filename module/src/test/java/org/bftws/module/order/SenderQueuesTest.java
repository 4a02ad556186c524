package org.bftws.module.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.MulticastSender;
import org.junit.After;
import org.junit.Test;

/**
 * Aardvark's defences against a flooding replica (NSDI 2009 §4.2-§4.3) in front of the ordering thread: a replica
 * flooding the intake fills only its own bounded queue, its excess is dropped before any signature check, and the
 * other senders' messages are admitted and served in turn; a replica whose own signature proves it faulty is not
 * listened to, and a forgery in its name proves nothing.
 */
public class SenderQueuesTest {
    private static final int N = 4;
    private final TestKeys keys = TestKeys.seeded(N + 1, 4);
    private final AtomicInteger checks = new AtomicInteger();
    private MulticastSender sender;
    private TotalOrderManager manager;

    @Test
    public void aFloodingSenderFillsOnlyItsOwnQueue() {
        SenderQueues<String> q = new SenderQueues<>(N, 8);
        int admitted = 0;
        for (int i = 0; i < 1000; i++) {
            if (q.reserve(0)) {
                q.add(0, "flood " + i);
                admitted++;
            }
        }
        assertEquals(8, admitted);
        assertEquals(1000 - 8, q.dropped(0));
        assertTrue(q.reserve(1));
        q.add(1, "prepare from 1");
        int clients = q.lane(N + 17);
        assertTrue(q.reserve(clients));
        q.add(clients, "request of client " + (N + 17));
        assertEquals(0, q.dropped(1));
        assertEquals(0, q.dropped(clients));
        assertEquals(8 + 2, q.size());
    }

    @Test
    public void lanesAreServedInTurnSoAFloodWaitsForTheOthers() {
        SenderQueues<String> q = new SenderQueues<>(N, 100);
        for (int i = 0; i < 50; i++) {
            q.reserve(0);
            q.add(0, "flood");
        }
        q.reserve(2);
        q.add(2, "commit from 2");
        q.reserve(q.lane(9));
        q.add(q.lane(9), "request");
        List<String> firstThree = List.of(q.poll(), q.poll(), q.poll());
        assertEquals(List.of("flood", "commit from 2", "request"), firstThree);
        for (int i = 0; i < 49; i++) {
            assertEquals("flood", q.poll());
        }
        assertNull(q.poll());
        assertEquals(0, q.size());
        assertTrue("a drained lane admits again", q.reserve(0));
    }

    @Test
    public void senderIdsARemotePartyChoosesShareOneBoundedLane() {
        SenderQueues<Integer> q = new SenderQueues<>(N, 16);
        int admitted = 0;
        for (int sender = -5; sender < 100_000; sender++) {
            int lane = q.lane(sender);
            assertTrue(lane >= 0 && lane < q.lanes());
            if (q.reserve(lane)) {
                q.add(lane, sender);
                admitted++;
            }
        }
        assertEquals(N + 1, q.lanes());
        assertEquals("one message of each replica, the others' lane full", N + 16, admitted);
        assertEquals(16, q.held(N));
        assertEquals(100_005 - N - 16, q.dropped(N));
    }

    @Test
    public void aReleasedReservationFreesItsPlace() {
        SenderQueues<String> q = new SenderQueues<>(N, 1);
        assertTrue(q.reserve(3));
        assertFalse(q.reserve(3));
        q.release(3);
        assertTrue(q.reserve(3));
        assertEquals(1, q.dropped(3));
    }

    /**
     * Through the Total Order Manager's intake (its ordering thread not started, so nothing is taken off the
     * queues): a replica's flood of correctly signed checkpoints is verified only up to its queue's share, and
     * a correct replica's message and a client's request that arrive after it are still admitted.
     */
    @Test
    public void theManagersIntakeDropsAFloodBeforeCheckingItsSignatures() throws Exception {
        int capacity = 4096;
        manager();
        int flood = 2 * capacity;
        for (int i = 0; i < flood; i++) {
            manager.deliver(message(checkpoint(0, i)));
        }
        int share = Math.max(ControlIntake.MIN_SENDER_CAPACITY, capacity / (N + 1));
        assertEquals("replica 0's checkpoints verified: its queue's share only", share, checks.get());
        assertEquals(flood - share, manager.inboundDropped(0));

        correctReplicaAndClient();
        assertEquals(0, manager.inboundDropped(1));
        assertEquals(0, manager.inboundDropped(N));
        assertEquals(share + 2, manager.inboundQueued());
        assertEquals(flood - share, manager.inboundDropped());
    }

    /**
     * A request carrying a replica's valid signature proves that replica faulty (only clients sign requests): its
     * further messages are dropped on arrival without a signature check, the other replicas' and clients' are not.
     */
    @Test
    public void aReplicaSigningARequestIsIgnoredWithoutFurtherChecks() throws Exception {
        manager();
        for (int i = 1; i <= 100; i++) {
            manager.deliver(message(bogusRequest(0, i)));
            manager.deliver(message(checkpoint(0, i)));
        }
        assertEquals("the first request checked, nothing after it", 1, checks.get());
        assertEquals("the proof goes on to core, which records it as evidence", 1, manager.inboundQueued());
        assertEquals(199, manager.ignoredFromFaulty());

        correctReplicaAndClient();
        assertEquals("replica 1's checkpoint and the client's request are checked", 3, checks.get());
        assertEquals(3, manager.inboundQueued());
        assertEquals(199, manager.ignoredFromFaulty());
    }

    /** A request claiming a replica's id without its signature proves nothing: that replica is still heard. */
    @Test
    public void aForgedRequestInAReplicasNameDoesNotSilenceIt() throws Exception {
        manager();
        Request forged = new Request(1, "urn:flood:1", 1, false, new byte[] {1});
        Signed byZero = Signed.sign(Kind.REQUEST, 1, forged.encode(), keys.signer(0));
        manager.deliver(message(byZero));
        manager.deliver(message(checkpoint(1, 1)));
        assertEquals(0, manager.ignoredFromFaulty());
        assertEquals(2, manager.inboundQueued());
    }

    /** A checkpoint of replica 1 and a request of client N, both authentic. */
    private void correctReplicaAndClient() {
        manager.deliver(message(checkpoint(1, 1)));
        Request request = new Request(N, "urn:test:client", 1, false, new byte[] {1});
        manager.deliver(message(Signed.sign(Kind.REQUEST, N, request.encode(), keys.signer(N))));
    }

    /** Replica 2's manager, its ordering thread not started, counting the signature checks it makes. */
    private TotalOrderManager manager() {
        sender = new MulticastSender("test-intake", N, 16, Duration.ofSeconds(1));
        Verifier real = keys.verifier();
        Verifier counting = (node, data, sig) -> {
            checks.incrementAndGet();
            return real.verify(node, data, sig);
        };
        EngineOptions engine = new EngineOptions(GroupConfig.defaults(), 2, keys.signer(2), counting,
                RandomnessConfig.none());
        manager = new TotalOrderManager(engine, control(), null, sender, 20, 4096, 1 << 20);
        return manager;
    }

    @After
    public void close() {
        if (manager != null) {
            manager.close();
            sender.close();
        }
    }

    private Signed bogusRequest(int replica, int number) {
        Request bogus = new Request(replica, "urn:flood:" + replica, number, false, new byte[] {(byte) number});
        return Signed.sign(Kind.REQUEST, replica, bogus.encode(), keys.signer(replica));
    }

    private Signed checkpoint(int replica, int i) {
        byte[] digest = new byte[32];
        digest[0] = (byte) i;
        digest[1] = (byte) (i >> 8);
        Checkpoint cp = new Checkpoint(16L * i, digest, Checkpoint.NO_EXECUTION);
        return Signed.sign(Kind.CHECKPOINT, replica, cp.encode(), keys.signer(replica));
    }

    private static List<URI> control() {
        List<URI> control = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            control.add(URI.create("http://127.0.0.1:9/replica-" + r + "/BftwsControl"));
        }
        return control;
    }

    private static ControlMessage message(Signed s) {
        return new ControlMessage(s.encode(), null);
    }
}
