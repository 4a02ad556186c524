package org.bftws.module.order;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.module.transport.ControlMessage;
import org.junit.Test;

/**
 * The control port refuses client requests (they must come through Sandesha2); which node ids are clients'
 * follows the client base, bftws.maxReplicas (n when not given), not n.
 */
public class ControlPortClientFilterTest {
    private final List<Integer> passed = new ArrayList<>();

    @Test
    public void requestsFromTheClientBaseOnAreRefusedOthersPass() {
        ControlPortClientFilter filter = new ControlPortClientFilter(m -> passed.add(sender(m)), 7);
        for (int node : new int[] {0, 3, 4, 6, 7, 8, 100}) {
            filter.deliver(message(Kind.REQUEST, node));
        }
        filter.deliver(message(Kind.PREPARE, 8));
        assertEquals("below the base core judges the sender; from it on clients are refused here",
                List.of(0, 3, 4, 6, 8), passed);
        assertEquals(3, filter.refused());
    }

    @Test
    public void withoutMaxReplicasClientsStartAtN() {
        ControlPortClientFilter filter = new ControlPortClientFilter(m -> passed.add(sender(m)), 4);
        for (int node : new int[] {3, 4, 5}) {
            filter.deliver(message(Kind.REQUEST, node));
        }
        assertEquals(List.of(3), passed);
        assertEquals(2, filter.refused());
    }

    @Test
    public void theReplicasOwnKeyGenerationRequestsPass() {
        ControlPortClientFilter filter = new ControlPortClientFilter(m -> passed.add(sender(m)), 7, node -> node == 9);
        filter.deliver(message(Kind.REQUEST, 9));
        filter.deliver(message(Kind.REQUEST, 10));
        assertEquals(List.of(9), passed);
    }

    private static ControlMessage message(Kind kind, int sender) {
        return new ControlMessage(Signed.of(kind, sender, new byte[] {1, 2, 3}, new byte[64]).encode(), null);
    }

    private static int sender(ControlMessage m) {
        return Signed.decode(m.signedBytes()).sender();
    }
}
