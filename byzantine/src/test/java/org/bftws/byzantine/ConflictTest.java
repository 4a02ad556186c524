package org.bftws.byzantine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AtomicBroadcast;
import org.bftws.core.async.BinaryAgreement;
import org.bftws.core.async.ConsistentBroadcast;
import org.bftws.core.async.Pid;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.async.AbcBatch;
import org.bftws.core.message.async.AbcProposal;
import org.bftws.core.pbft.Replica;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.config.Ordering;
import org.bftws.module.order.EngineDecorator;
import org.junit.Test;

/** {@code conflict}'s rewriting of what a correct asynchronous replica sends, on real signed messages (n = 4). */
public class ConflictTest {
    private static final int ME = 0;
    private static final int CLIENT = 4;
    private static final long ROUND = 5;
    private final GroupConfig cfg = GroupConfig.defaults();
    private final TestKeys keys = TestKeys.seeded(5, 42);
    private final Conflict conflict = new Conflict(new Node(Replica.builder(cfg, ME, keys.signer(ME), keys.verifier())
            .build(), new EngineDecorator.Context(cfg, ME, keys.signer(ME), Ordering.ASYNC)));

    private Ready.Outbound async(Pid pid, int type, byte[] payload) {
        byte[] body = new AsyncMessage(pid, type, payload).encode();
        return new Ready.Outbound(Ready.ALL_REPLICAS, Signed.sign(Kind.ASYNC, ME, body, keys.signer(ME)).encode());
    }

    private static AsyncMessage message(Ready.Outbound o) {
        return AsyncMessage.decode(Signed.decode(o.bytes()).body());
    }

    private static byte[] batchDigest(Ready.Outbound proposal) {
        return Digests.sha256(AbcProposal.decodeProposal(ME, message(proposal).payload()).batch());
    }

    /** A round proposal of two payloads, as atomic broadcast signs it. */
    private Ready.Outbound proposal() {
        List<byte[]> payloads = List.of("a".getBytes(StandardCharsets.US_ASCII),
                "b".getBytes(StandardCharsets.US_ASCII));
        byte[] batch = new AbcBatch(payloads).encode();
        byte[] signature = keys.signer(ME).sign(Channel.signedName(ROUND, Digests.sha256(batch)));
        return async(Channel.ROOT.child(ROUND), AtomicBroadcast.Type.PROPOSAL.code(),
                new AbcProposal(ME, batch, signature).encodeProposal());
    }

    /** What atomic broadcast's round proposals sign (its {@code signedName}), for the test's own proposals. */
    private static final class Channel {
        static final Pid ROOT = Pid.root("abc");

        static byte[] signedName(long round, byte[] digest) {
            return ROOT.bind("abc-batch", new ByteWriter(48).i64(round).raw(digest).toBytes());
        }
    }

    @Test
    public void victimsAreHalfThePeersAfterThisReplica() {
        assertEquals(Set.of(1, 2), conflict.victims());
    }

    // Reference: SINTRA §2.5 (a party's round proposal is its signed batch; a corrupted party may sign two)
    @Test
    public void victimsGetAnotherCorrectlySignedProposalForTheSameRound() {
        Ready.Outbound sent = proposal();
        List<Ready.Outbound> out = conflict.outgoing(List.of(sent));
        assertEquals(List.of(1, 2, 3), out.stream().map(Ready.Outbound::to).toList());
        for (Ready.Outbound o : out) {
            Signed s = Signed.decode(o.bytes());
            assertTrue(s.verify(keys.verifier()));
            AbcProposal p = AbcProposal.decodeProposal(ME, message(o).payload());
            assertTrue("the batch's signature", keys.verifier().verify(ME,
                    Channel.signedName(ROUND, Digests.sha256(p.batch())), p.signature()));
            List<String> payloads = new ArrayList<>();
            for (byte[] b : AbcBatch.decode(p.batch(), 16).payloads()) {
                payloads.add(new String(b, StandardCharsets.US_ASCII));
            }
            assertEquals("to " + o.to(), o.to() == 3 ? List.of("a", "b") : List.of("b", "a"), payloads);
        }
        assertArrayEquals(sent.bytes(), out.get(2).bytes());
    }

    // Reference: SINTRA §2.2 (consistent broadcast: an equivocating sender's two payloads), §2.4 (the vector a
    // party proposes to multi-valued agreement)
    @Test
    public void victimsGetAVectorNamingTheOtherProposal() {
        List<Ready.Outbound> proposals = conflict.outgoing(List.of(proposal()));
        byte[] otherDigest = batchDigest(proposals.get(0));
        byte[] ownDigest = batchDigest(proposals.get(2));
        ByteWriter w = new ByteWriter(256).i32(3);
        for (int party = 0; party < 3; party++) {
            w.i32(party).bytes(party == ME ? ownDigest : new byte[32]).bytes(new byte[] {(byte) party});
        }
        Pid cb = Channel.ROOT.child(ROUND).child("mvba").child("cb").child(ME);
        List<Ready.Outbound> out = conflict.outgoing(List.of(async(cb, ConsistentBroadcast.Type.SEND.code(),
                w.toBytes())));
        assertEquals(3, out.size());
        for (Ready.Outbound o : out) {
            assertTrue(Signed.decode(o.bytes()).verify(keys.verifier()));
            ByteReader r = new ByteReader(message(o).payload());
            assertEquals(3, r.i32());
            assertEquals(ME, r.i32());
            assertArrayEquals("to " + o.to(), o.to() == 3 ? ownDigest : otherDigest, r.bytes());
        }
    }

    // Reference: SINTRA §2.3 (the round's coin from f+1 shares), integrity paper §5 (CT coin shares)
    @Test
    public void coinSharesNeverLeaveTheReplicaAndEverythingElseDoes() {
        Pid vba = Channel.ROOT.child(ROUND).child("mvba").child("vba").child(0);
        Ready.Outbound coin = async(vba, BinaryAgreement.Type.COIN.code(), new byte[8]);
        Ready.Outbound preVote = async(vba, BinaryAgreement.Type.PRE_VOTE.code(), new byte[8]);
        Ready.Outbound ctShare = new Ready.Outbound(Ready.ALL_REPLICAS,
                Signed.sign(Kind.COIN_SHARE, ME, new byte[8], keys.signer(ME)).encode());
        Ready.Outbound reply = new Ready.Outbound(CLIENT, new byte[] {1, 2});
        assertEquals(List.of(preVote, reply), conflict.outgoing(List.of(coin, preVote, ctShare, reply)));
    }
}
