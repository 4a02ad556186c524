package org.bftws.byzantine;

import java.util.ArrayList;
import java.util.List;

import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;

/**
 * {@code equivocate}: as primary, a different pre-prepare for the same view and sequence number to one backup
 * (Castro-Liskov §4.2: the prepare phase exists so that no two batches prepare at one (v, n)). The others get
 * the batch the engine built; the victim, the next replica after this one, gets the batch in reverse order (or
 * the null request, for a batch of one), correctly signed. Its prepares match no one's: the other backups and
 * this replica still make a quorum of 2f+1, and the victim catches up by its peers' status and state transfer.
 */
final class Equivocate extends Behaviour {
    private final int victim;

    Equivocate(Node node) {
        super(node);
        this.victim = (node.id() + 1) % node.n();
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        List<Ready.Outbound> out = new ArrayList<>(messages.size() + node.n());
        for (Ready.Outbound o : messages) {
            Signed s = o.to() == Ready.ALL_REPLICAS ? envelope(o.bytes()) : null;
            if (s == null || s.kind() != Kind.PRE_PREPARE || s.sender() != node.id()) {
                out.add(o);
                continue;
            }
            for (int peer : node.peers()) {
                out.add(new Ready.Outbound(peer, peer == victim ? conflicting(s) : o.bytes()));
            }
        }
        return out;
    }

    private byte[] conflicting(Signed s) {
        PrePrepare pp = PrePrepare.decode(s.body());
        List<Signed> other = new ArrayList<>(pp.requests());
        if (other.size() > 1) {
            java.util.Collections.reverse(other);
        } else {
            other.clear();
        }
        PrePrepare forged = PrePrepare.of(pp.view(), pp.seq(), other);
        if (pp.randomness() != null) {
            forged = forged.withRandomness(pp.randomness());
        }
        return node.sign(Kind.PRE_PREPARE, forged.encode());
    }
}
