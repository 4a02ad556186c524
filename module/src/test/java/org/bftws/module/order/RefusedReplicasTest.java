package org.bftws.module.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.bftws.module.order.SenderAddressesTest.endpoints;
import static org.junit.Assert.assertTrue;

import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.transport.ControlMessage;
import org.junit.Test;

/**
 * The HTTP server's refusal of a replica proven faulty (Aardvark, NSDI 2009 §4.2: a flooding replica's interface is
 * no longer read): by its address, while the proof holds, only where addresses tell replicas apart, and only for
 * the address of the replica proven, never for another replica or any other sender.
 */
public class RefusedReplicasTest {
    private static final int N = 4;
    private static final long SECOND = 1_000_000_000L;
    private final TestKeys keys = TestKeys.seeded(N, 5);

    @Test
    public void theProvenReplicasAddressIsRefusedWhileTheProofHoldsAndHeardAfter() {
        SenderAddresses addresses = SenderAddresses.of(endpoints("10.9.0.1", "10.9.0.2", "10.9.0.3", "10.9.0.4"));
        ProvenFaulty faulty = new ProvenFaulty(N, 30 * SECOND);
        RefusedReplicas refusal = new RefusedReplicas(2, N, addresses, faulty);
        long t0 = 1_000 * SECOND;
        assertFalse("not proven yet", refusal.refuses("10.9.0.1", t0));
        faulty.proven(0, t0);
        assertTrue(refusal.refuses("10.9.0.1", t0 + 1));
        assertTrue(refusal.refuses("10.9.0.1", t0 + 30 * SECOND - 1));
        assertFalse("another replica", refusal.refuses("10.9.0.2", t0 + 1));
        assertFalse("a client or any other address", refusal.refuses("10.9.0.5", t0 + 1));
        assertFalse("made in this JVM", refusal.refuses(null, t0 + 1));
        assertEquals(2, refusal.refused());
        assertFalse("the proof expired: heard again", refusal.refuses("10.9.0.1", t0 + 30 * SECOND));
        faulty.proven(0, t0 + 40 * SECOND);
        assertTrue("proven again", refusal.refuses("10.9.0.1", t0 + 41 * SECOND));
        assertEquals(3, refusal.refused());
    }

    @Test
    public void replicasSharingAnAddressAreNeverRefused() {
        SenderAddresses shared = SenderAddresses.of(endpoints("127.0.0.1", "127.0.0.1", "127.0.0.1", "127.0.0.1"));
        ProvenFaulty faulty = new ProvenFaulty(N, 30 * SECOND);
        RefusedReplicas refusal = new RefusedReplicas(2, N, shared, faulty);
        faulty.proven(0, 0);
        assertFalse(refusal.refuses("127.0.0.1", 1));
        assertEquals(0, refusal.refused());
    }

    /**
     * Through the intake: replica 0's request, signed by it and received from its address, proves it faulty, and
     * the intake's refusal then refuses replica 0's address only.
     */
    @Test
    public void theIntakesProofRefusesTheReplicasAddress() {
        ControlIntake<Signed> intake = new ControlIntake<>(2, N, 4096, new PreVerifier(keys.verifier()),
                SenderAddresses.of(endpoints("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4")));
        RefusedReplicas refusal = intake.refusal();
        assertFalse(refusal.refuses("127.0.0.1", 1));
        Request bogus = new Request(0, "urn:flood:0", 1, false, new byte[] {1});
        Signed request = Signed.sign(Kind.REQUEST, 0, bogus.encode(), keys.signer(0));
        intake.admit(new ControlMessage(request.encode(), null).from("127.0.0.1"), 2);
        assertTrue(refusal.refuses("127.0.0.1", 3));
        assertFalse(refusal.refuses("127.0.0.2", 3));
        assertFalse("after the proof", refusal.refuses("127.0.0.1", 2 + ControlIntake.PROVEN_FAULTY_NANOS));
    }
}
