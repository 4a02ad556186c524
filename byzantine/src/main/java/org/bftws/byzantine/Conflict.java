package org.bftws.byzantine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AtomicBroadcast;
import org.bftws.core.async.BinaryAgreement;
import org.bftws.core.async.ConsistentBroadcast;
import org.bftws.core.async.Pid;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.async.AbcBatch;
import org.bftws.core.message.async.AbcProposal;

/**
 * {@code conflict}, for the asynchronous engine ({@code bftws.ordering=async}): a party that equivocates in the
 * broadcasts of each round and withholds its coin shares.
 * <ul>
 *   <li>Its round proposal (atomic broadcast's PROPOSAL, SINTRA §2.5) goes as the engine built it to half of its
 *       peers; the other half, the {@link #victims}, get another batch for the same round, correctly signed (the
 *       payloads reversed, or none for a batch of one). Correct parties may then name either in their vectors;
 *       a party that lacks the one a vector names fetches it by digest, so neither can stall the round.
 *   <li>Its vector for the round's multi-valued agreement (the SEND of its consistent broadcast {@code
 *       abc/r/mvba/cb/i}, SINTRA §2.2) goes to the victims with its own entry swapped for the other proposal: a
 *       valid vector for them (they hold that proposal), a different one from the rest's. Consistency allows a
 *       certificate for at most one of the two (⌈(n+f+1)/2⌉ signers meet in a correct party), and with the victims
 *       half of the peers neither usually gets one: the agreement goes on with the others' n−f proposals.
 *   <li>Its shares of binary agreement's threshold coin (COIN, SINTRA §2.3) and of the CT coins of randomized
 *       requests (COIN-SHARE, integrity paper §5) never leave it. Both coins need f+1 shares, which the n−f
 *       correct parties give.
 * </ul>
 * Everything else, and everything it sends to clients, is the correct engine's; its own engine keeps the state
 * of the batch and vector it built (a rewrite is deterministic, so a resent message lies alike).
 */
final class Conflict extends Behaviour {
    /** Alternatives kept for this many recent rounds (the vector of a round follows its proposal closely). */
    static final int KEPT_ROUNDS = 64;
    /** Atomic broadcast's purpose string for a round proposal's signature ({@code AtomicBroadcast.BATCH}). */
    private static final String BATCH_PURPOSE = "abc-batch";

    private final Set<Integer> victims = new TreeSet<>();
    /** Per round: the entry (party, digest, signature) of the other proposal sent to the victims. */
    private final TreeMap<Long, byte[][]> alternatives = new TreeMap<>();

    Conflict(Node node) {
        super(node);
        for (int k = 1; k <= node.n() / 2; k++) {
            victims.add((node.id() + k) % node.n());
        }
    }

    Set<Integer> victims() {
        return victims;
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        List<Ready.Outbound> out = new ArrayList<>(messages.size() + node.n());
        for (Ready.Outbound o : messages) {
            Signed s = node.toReplicas(o) ? envelope(o.bytes()) : null;
            if (s == null || s.sender() != node.id()) {
                out.add(o);
            } else if (s.kind() == Kind.COIN_SHARE) {
                continue; // withheld: the CT coin of randomized requests
            } else if (s.kind() == Kind.ASYNC) {
                rewrite(o, s, out);
            } else {
                out.add(o);
            }
        }
        return out;
    }

    private void rewrite(Ready.Outbound o, Signed s, List<Ready.Outbound> out) {
        AsyncMessage m;
        try {
            m = AsyncMessage.decode(s.body());
        } catch (DecodeException e) {
            out.add(o);
            return;
        }
        List<String> at = m.pid().segments();
        if (isCoin(at, m.type())) {
            return; // withheld: binary agreement's threshold coin
        }
        byte[] other = null;
        if (isProposal(at, m.type())) {
            other = conflictingProposal(m.pid(), Long.parseLong(at.get(1)), m.payload());
        } else if (isOwnVectorSend(at, m.type())) {
            other = conflictingVector(Long.parseLong(at.get(1)), m.payload());
        }
        if (other == null) {
            out.add(o);
            return;
        }
        byte[] lie = node.sign(Kind.ASYNC, new AsyncMessage(m.pid(), m.type(), other).encode());
        if (o.to() != Ready.ALL_REPLICAS) {
            out.add(victims.contains(o.to()) ? new Ready.Outbound(o.to(), lie) : o);
            return;
        }
        for (int peer : node.peers()) {
            out.add(new Ready.Outbound(peer, victims.contains(peer) ? lie : o.bytes()));
        }
    }

    /** COIN of a binary agreement: {@code abc/r/mvba/vba/k}. */
    private static boolean isCoin(List<String> at, int type) {
        return at.size() >= 2 && at.get(at.size() - 2).equals("vba") && type == BinaryAgreement.Type.COIN.code();
    }

    /** A round proposal: PROPOSAL on {@code abc/r}. */
    private static boolean isProposal(List<String> at, int type) {
        return at.size() == 2 && at.get(0).equals("abc") && isRound(at.get(1))
                && type == AtomicBroadcast.Type.PROPOSAL.code();
    }

    /** This party's vector: SEND on {@code abc/r/mvba/cb/i}, i this replica. */
    private boolean isOwnVectorSend(List<String> at, int type) {
        return at.size() == 5 && at.get(0).equals("abc") && isRound(at.get(1)) && at.get(2).equals("mvba")
                && at.get(3).equals("cb") && at.get(4).equals(Integer.toString(node.id()))
                && type == ConsistentBroadcast.Type.SEND.code();
    }

    private static boolean isRound(String segment) {
        return !segment.isEmpty() && segment.length() < 19 && segment.chars().allMatch(Character::isDigit);
    }

    /** The other batch of round {@code round}, signed as the engine signs its own; remembered for the vector. */
    private byte[] conflictingProposal(Pid roundPid, long round, byte[] payload) {
        AbcProposal p = AbcProposal.decodeProposal(node.id(), payload);
        List<byte[]> payloads = new ArrayList<>(AbcBatch.decode(p.batch(), Integer.MAX_VALUE).payloads());
        if (payloads.size() > 1) {
            Collections.reverse(payloads);
        } else {
            payloads.clear();
        }
        byte[] batch = new AbcBatch(payloads).encode();
        byte[] digest = Digests.sha256(batch);
        byte[] signed = roundPid.parent().bind(BATCH_PURPOSE, new ByteWriter(48).i64(round).raw(digest).toBytes());
        byte[] signature = node.signature(signed);
        alternatives.put(round, new byte[][] {digest, signature});
        while (alternatives.size() > KEPT_ROUNDS) {
            alternatives.pollFirstEntry();
        }
        return new AbcProposal(node.id(), batch, signature).encodeProposal();
    }

    /**
     * The vector (i32 count, then per entry i32 party, bytes digest, bytes signature: {@code
     * AtomicBroadcast.encodeVector}) with this party's entry naming the other proposal; null if the vector does
     * not name this party's proposal or the round's other proposal is unknown (a restart).
     */
    private byte[] conflictingVector(long round, byte[] vector) {
        byte[][] alt = alternatives.get(round);
        if (alt == null) {
            return null;
        }
        ByteReader r = new ByteReader(vector);
        int count = r.count(node.n());
        ByteWriter w = new ByteWriter(vector.length + 64).i32(count);
        boolean swapped = false;
        for (int i = 0; i < count; i++) {
            int party = r.i32();
            byte[] digest = r.bytes();
            byte[] signature = r.bytes();
            if (party == node.id()) {
                digest = alt[0];
                signature = alt[1];
                swapped = true;
            }
            w.i32(party).bytes(digest).bytes(signature);
        }
        r.end();
        return swapped ? w.toBytes() : null;
    }
}
