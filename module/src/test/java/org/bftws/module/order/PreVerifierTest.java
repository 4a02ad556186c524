package org.bftws.module.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.testing.Conditions;
import org.junit.Test;

/** The pre-verifying cache answers exactly as the real verifier would, only elsewhere. */
public class PreVerifierTest {
    private final TestKeys keys = TestKeys.seeded(5, 1); // replica 0 and client 4 sign
    private final Signer replica = keys.signer(0);
    private final Signer client = keys.signer(4);
    private final AtomicInteger realChecks = new AtomicInteger();
    private final Verifier real = counting(keys.verifier());

    private Verifier counting(Verifier v) {
        return (node, data, sig) -> {
            realChecks.incrementAndGet();
            return v.verify(node, data, sig);
        };
    }

    private Signed request(String op) {
        return Signed.sign(Kind.REQUEST, 4, new Request(4, "urn:uuid:s", 1, false,
                op.getBytes(StandardCharsets.UTF_8)).encode(), client);
    }

    @Test
    public void aPreVerifiedPrePrepareAndItsRequestsAreNotVerifiedAgain() {
        PreVerifier v = new PreVerifier(real);
        Signed q = request("echo");
        Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(q)).encode(), replica);
        v.preVerify(pp.encode());
        int before = realChecks.get();
        assertTrue(Signed.decode(pp.encode()).verify(v));
        assertTrue(q.verify(v));
        assertEquals("answered from memory", before, realChecks.get());
        assertEquals(2, v.hits());
        // a hit keeps the entry: the request inside the next pre-prepare is answered from memory too
        assertTrue(q.verify(v));
        assertEquals(before, realChecks.get());
        assertEquals(3, v.hits());
    }

    private Signed vote(Kind kind, int sender, long seq, byte[] digest) {
        return Signed.sign(kind, sender, new Vote(0, seq, digest).encode(), keys.signer(sender));
    }

    // With MAC authentication the engine accepts votes by their authenticators and checks prepares only into its
    // prepared certificate (own first, then 2f from backups in all): a backup's certificate needs 2f-1 = 1 prepare
    // of another backup checked, so the first to arrive is checked here, later ones and commits never.
    @Test
    public void withMacsABackupPreVerifiesTheFirstPrepareItsCertificateNeedsAndNoCommit() {
        PreVerifier v = new PreVerifier(real, GroupConfig.defaults(), 1);
        byte[] d = new byte[32];
        Signed first = vote(Kind.PREPARE, 2, 1, d);
        v.preVerify(first.encode());
        assertEquals("the first prepare of (view 0, seq 1, d) from another backup", 1, realChecks.get());
        v.preVerify(vote(Kind.PREPARE, 3, 1, d).encode());
        v.preVerify(vote(Kind.PREPARE, 0, 1, d).encode()); // from the primary: the engine refuses it
        v.preVerify(vote(Kind.COMMIT, 2, 1, d).encode());
        v.preVerify(vote(Kind.COMMIT, 3, 1, d).encode());
        assertEquals("left to their MACs", 1, realChecks.get());
        assertTrue("the ordering thread's check of the certificate's prepare", Signed.decode(first.encode()).verify(v));
        assertEquals("answered from memory", 1, realChecks.get());
        v.preVerify(vote(Kind.PREPARE, 3, 2, d).encode());
        assertEquals("the next sequence number's certificate", 2, realChecks.get());
        v.preVerify(Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 3, List.of(request("echo"))).encode(),
                replica).encode());
        assertEquals("pre-prepares and their requests still", 4, realChecks.get());
    }

    @Test
    public void withMacsThePrimaryPreVerifiesTwoFPreparesItSendsNoneOfItsOwn() {
        PreVerifier v = new PreVerifier(real, GroupConfig.defaults(), 0);
        byte[] d = new byte[32];
        for (int sender = 1; sender <= 3; sender++) {
            v.preVerify(vote(Kind.PREPARE, sender, 1, d).encode());
        }
        assertEquals(2, realChecks.get());
    }

    @Test
    public void withMacsAPrepareWithABadSignatureOrAnotherDigestLeavesTheClaimToTheNext() {
        PreVerifier v = new PreVerifier(real, GroupConfig.defaults(), 1);
        byte[] d = new byte[32];
        byte[] other = new byte[32];
        other[0] = 1;
        v.preVerify(Signed.sign(Kind.PREPARE, 2, new Vote(0, 1, d).encode(), keys.signer(3)).encode()); // forged
        v.preVerify(vote(Kind.PREPARE, 2, 1, other).encode());
        assertEquals(2, realChecks.get());
        Signed good = vote(Kind.PREPARE, 3, 1, d);
        v.preVerify(good.encode());
        assertEquals("the forged one gave its claim back", 3, realChecks.get());
        assertTrue(Signed.decode(good.encode()).verify(v));
        assertEquals(3, realChecks.get());
    }

    @Test
    public void aRequestTheInHandlerVerifiedIsNotVerifiedAgainOnItsWay() {
        PreVerifier v = new PreVerifier(real);
        Signed q = request("echo");
        assertTrue("the In Handler's check is a real one", Signed.decode(q.encode()).verify(v.remembering()));
        assertEquals(1, realChecks.get());
        v.preVerify(q.encode()); // handed to the Total Order Manager
        Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(q)).encode(), replica);
        v.preVerify(pp.encode()); // inside the primary's pre-prepare: only the pre-prepare's own signature is new
        assertEquals(2, realChecks.get());
        assertTrue(q.verify(v));
        assertTrue(Signed.decode(pp.encode()).verify(v));
        assertEquals("the ordering thread answered from memory", 2, realChecks.get());
        Signed bad = Signed.of(Kind.REQUEST, 4, request("other").body(), q.signature());
        assertFalse("a copied signature is still verified for real", bad.verify(v.remembering()));
        assertEquals(3, realChecks.get());
    }

    @Test
    public void aCopiedSignatureOnOtherDataOrAnotherNodeIsVerifiedAfreshAndFails() {
        PreVerifier v = new PreVerifier(real);
        Signed q = request("echo");
        v.preVerify(q.encode());
        Signed forged = Signed.of(Kind.REQUEST, 4, request("other").body(), q.signature());
        assertFalse(forged.verify(v));
        assertEquals(0, v.hits());
        byte[] data = "x".getBytes(StandardCharsets.UTF_8);
        assertFalse(v.verify(0, data, q.signature()));
        assertTrue("the genuine message is still remembered", q.verify(v));
        assertEquals(1, v.hits());
    }

    @Test
    public void invalidOrMalformedInputIsNotRemembered() {
        PreVerifier v = new PreVerifier(real);
        Signed q = request("echo");
        byte[] sig = q.signature().clone();
        sig[0] ^= 1;
        Signed bad = Signed.of(Kind.REQUEST, 4, q.body(), sig);
        v.preVerify(bad.encode());
        v.preVerify(new byte[] {1, 2, 3});
        assertFalse(bad.verify(v));
        assertEquals(0, v.hits());
    }

    @Test
    public void memoryIsBoundedOldestFirst() {
        PreVerifier v = new PreVerifier(real, null, 2, Long.MAX_VALUE);
        Signed a = request("a");
        Signed b = request("b");
        Signed c = request("c");
        v.preVerify(a.encode());
        v.preVerify(b.encode());
        v.preVerify(c.encode());
        int before = realChecks.get();
        assertTrue(a.verify(v));
        assertEquals("a was evicted: verified for real", before + 1, realChecks.get());
        assertTrue(b.verify(v));
        assertTrue(c.verify(v));
        assertEquals(2, v.hits());
    }

    @Test
    public void twoWorkersHoldingTheSameRequestAtOnceVerifyItOnce() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Verifier slow = (node, data, sig) -> {
            if (node == 4) { // the client's request: held until released
                inside.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return real.verify(node, data, sig);
        };
        PreVerifier v = new PreVerifier(slow);
        Signed q = request("echo");
        Signed pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, List.of(q)).encode(), replica);
        AtomicBoolean fromClient = new AtomicBoolean();
        Thread inHandler = new Thread(() -> fromClient.set(Signed.decode(q.encode()).verify(v.remembering())));
        inHandler.start();
        assertTrue("the In Handler's worker is verifying", inside.await(10, TimeUnit.SECONDS));
        Thread controlPort = new Thread(() -> v.preVerify(pp.encode())); // the pre-prepare holding the same request
        controlPort.start();
        Conditions.await("the control port's worker waits for the In Handler's verdict", 10_000,
                () -> controlPort.getState() == Thread.State.BLOCKED);
        release.countDown();
        inHandler.join(10_000);
        controlPort.join(10_000);
        assertTrue(fromClient.get());
        assertEquals("the request once, the pre-prepare once", 2, realChecks.get());
        assertTrue(q.verify(v));
        assertTrue(Signed.decode(pp.encode()).verify(v));
        assertEquals(2, realChecks.get());
    }

    // The hybrid engine with MAC authentication accepts its lane's envelopes (those that carry an authenticator)
    // by their MACs: they are not verified here; the fallback's signed envelopes (none carries one) still are.
    @Test
    public void forTheHybridLaneWithMacsAnAuthenticatedEnvelopeIsLeftToTheEngine() {
        PreVerifier v = PreVerifier.hybridWithMacs(real);
        Signed lane = Signed.sign(Kind.ASYNC, 0, new byte[] {1, 2, 3}, replica);
        v.preVerify(Signed.wire(lane, keys.authenticators(0, 4).authenticator(lane.digest())));
        assertEquals("a lane envelope with its authenticator", 0, realChecks.get());
        Signed fallback = Signed.sign(Kind.ASYNC, 0, new byte[] {4, 5, 6}, replica);
        v.preVerify(fallback.encode());
        assertEquals("a signed envelope without one", 1, realChecks.get());
        assertTrue(fallback.verify(v));
        assertEquals("answered from memory", 1, realChecks.get());
    }
}
