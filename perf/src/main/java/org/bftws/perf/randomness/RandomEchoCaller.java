package org.bftws.perf.randomness;

import java.util.HexFormat;
import java.util.Iterator;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.GroupClients;
import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.echo.EchoPayload;

/**
 * A client of {@link RandomEchoService} through the group: {@code echo}, or {@code echoRandom} flagged
 * randomized ({@link GroupClients#randomized}); a randomized reply must carry, in its {@code random} element,
 * the very number the voter accepted with it ({@link GroupClients#lastRandom}), a non-randomized one none.
 */
final class RandomEchoCaller implements EchoMode.Caller {
    /** Long enough for a view change under a call, as for the echo experiment's callers. */
    private static final long TIMEOUT_MS = 30_000;

    private final ServiceClient client;

    RandomEchoCaller(ConfigurationContext context, String group) throws Exception {
        client = GroupClients.create(context, group, RandomEchoArchive.ECHO_ACTION, TIMEOUT_MS);
    }

    @Override
    public int echo(EchoPayload payload) throws Exception {
        boolean random = payload.isRandomized();
        client.getOptions().setAction(random ? RandomEchoArchive.RANDOM_ACTION : RandomEchoArchive.ECHO_ACTION);
        GroupClients.randomized(client, random);
        OMElement reply = client.sendReceive(payload.build());
        int items = 0;
        String hex = null;
        for (Iterator<?> it = reply.getChildElements(); it.hasNext();) {
            OMElement e = (OMElement) it.next();
            if (e.getLocalName().equals("random")) {
                hex = e.getText();
            } else {
                items++;
            }
        }
        if (items != payload.elements()) {
            throw new IllegalStateException("reply has " + items + " items, request had " + payload.elements());
        }
        byte[] voted = GroupClients.lastRandom(client);
        String votedHex = voted == null ? null : HexFormat.of().formatHex(voted);
        if (random ? hex == null || !hex.equals(votedHex) : hex != null || voted != null) {
            throw new IllegalStateException(payload.operation() + ": reply's number " + hex + ", voted " + votedHex);
        }
        return items;
    }

    @Override
    public void close() throws Exception {
        client.cleanup();
    }
}
