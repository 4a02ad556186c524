package org.bftws.module.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.util.List;

import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.transport.ControlMessage;
import org.junit.Test;

/**
 * The intake's queue for a message claiming a replica goes by the connection's address where the replicas'
 * addresses tell them apart: a replica claiming another's id cannot fill that one's queue (Aardvark's network
 * interface per replica, NSDI 2009 §4.2, as near as shared HTTP links get).
 */
public class SenderAddressesTest {
    private static final int N = 4;
    private final TestKeys keys = TestKeys.seeded(N, 5);

    @Test
    public void distinctAddressesAreCheckedAndOnlyAReplicasOwnAddressMayClaimIt() {
        SenderAddresses a = SenderAddresses.of(endpoints("10.9.0.1", "10.9.0.2", "[fd00::3]", "10.9.0.4"));
        assertTrue(a.checking());
        assertTrue(a.mayClaim(1, "10.9.0.2"));
        assertFalse(a.mayClaim(1, "10.9.0.4"));
        assertTrue("IPv6 in another spelling", a.mayClaim(2, "fd00:0:0:0:0:0:0:3"));
        assertFalse(a.mayClaim(2, "fd00::4"));
        assertTrue("made in this JVM", a.mayClaim(3, null));
        assertFalse("not a literal address: no name lookup, no claim", a.mayClaim(0, "replica0.example"));
        assertFalse("a replica id outside the group", a.mayClaim(N, "10.9.0.1"));
    }

    @Test
    public void replicasSharingAnAddressLeaveTheCheckOff() {
        SenderAddresses a = SenderAddresses.of(endpoints("127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"));
        assertFalse(a.checking());
        assertTrue(a.mayClaim(1, "127.0.0.1"));
        assertTrue(a.mayClaim(1, "10.1.1.1"));
        assertFalse(SenderAddresses.of(endpoints("10.9.0.1", "10.9.0.2", "10.9.0.1", "10.9.0.4")).checking());
    }

    /**
     * Replica 0 floods checkpoints in replica 1's name from its own address: they all go to the shared queue
     * (and its excess is dropped there), while replica 1's own messages still find its queue empty.
     */
    @Test
    public void aSpoofedFloodFillsTheSharedQueueNotTheVictims() {
        PreVerifier pre = new PreVerifier(keys.verifier());
        ControlIntake<Signed> intake = new ControlIntake<>(2, N, 4096, pre,
                SenderAddresses.of(endpoints("10.9.0.1", "10.9.0.2", "10.9.0.3", "10.9.0.4")));
        int share = Math.max(ControlIntake.MIN_SENDER_CAPACITY, 4096 / (N + 1));
        int flood = 3 * share;
        for (int i = 0; i < flood; i++) {
            Signed forged = checkpoint(1, i, 0); // replica 1's id, replica 0's key: fails its check later
            int lane = intake.admit(message(forged).from("10.9.0.1"), i);
            if (lane >= 0) {
                assertEquals(N, lane);
                intake.add(lane, forged);
            }
        }
        assertEquals(flood, intake.misattributed());
        assertEquals(flood - share, intake.dropped(N));
        for (int i = 0; i < share; i++) {
            Signed own = checkpoint(1, flood + i, 1);
            assertEquals("replica 1's own message, from its address", 1, intake.admit(message(own).from("10.9.0.2"), i));
            intake.add(1, own);
        }
        assertEquals(0, intake.dropped(1));
        assertEquals(flood, intake.misattributed());
    }

    @Test
    public void withTheCheckOffTheClaimedSendersQueueIsUsed() {
        ControlIntake<Signed> intake = new ControlIntake<>(2, N, 4096, new PreVerifier(keys.verifier()),
                SenderAddresses.off());
        assertEquals(1, intake.admit(message(checkpoint(1, 1, 0)).from("10.9.0.1"), 0));
        assertEquals(0, intake.misattributed());
    }

    private Signed checkpoint(int claimed, int i, int signer) {
        byte[] digest = new byte[32];
        digest[0] = (byte) i;
        digest[1] = (byte) (i >> 8);
        Checkpoint cp = new Checkpoint(16L * (i + 1), digest, Checkpoint.NO_EXECUTION);
        return Signed.sign(Kind.CHECKPOINT, claimed, cp.encode(), keys.signer(signer));
    }

    private static ControlMessage message(Signed s) {
        return new ControlMessage(s.encode(), null);
    }

    static List<URI> endpoints(String... hosts) {
        return List.of(hosts).stream().map(h -> URI.create("http://" + h + ":8080/axis2/services/BftwsControl"))
                .toList();
    }
}
