package org.bftws.byzantine;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.bftws.core.engine.Ready;

/**
 * {@code selective}: silent toward f replicas (the f after this one), correct toward the others and the clients.
 * As primary it leaves those backups to learn each batch from their peers' status answers and state transfer;
 * as a backup it withholds its votes from them, so they need every other correct replica's.
 */
final class Selective extends Behaviour {
    private final Set<Integer> ignored = new TreeSet<>();

    Selective(Node node) {
        super(node);
        for (int k = 1; k <= node.f(); k++) {
            ignored.add((node.id() + k) % node.n());
        }
    }

    Set<Integer> ignored() {
        return ignored;
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        List<Ready.Outbound> out = new ArrayList<>(messages.size() * node.n());
        for (Ready.Outbound o : messages) {
            if (o.to() == Ready.ALL_REPLICAS) {
                for (int peer : node.peers()) {
                    if (!ignored.contains(peer)) {
                        out.add(new Ready.Outbound(peer, o.bytes()));
                    }
                }
            } else if (!ignored.contains(o.to())) {
                out.add(o);
            }
        }
        return out;
    }
}
