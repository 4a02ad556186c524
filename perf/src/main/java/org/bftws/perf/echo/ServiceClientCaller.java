package org.bftws.perf.echo;

import java.util.Iterator;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;

/**
 * A caller on an ordinary Axis2 {@link ServiceClient}: what every mode's client is, differing only in
 * which modules are engaged and which options are set. Each call builds a fresh request and reads the whole
 * reply (counting its items), so parsing the reply is part of the latency, as in the papers.
 */
public class ServiceClientCaller implements EchoMode.Caller {
    /** Long enough for a BFT view change (4 s by default) to complete under a call. */
    static final long TIMEOUT_MS = 30_000;

    protected final ServiceClient client;
    private final boolean cleanupTransport;

    /**
     * @param cleanupTransport release the HTTP connection after each call (needed for plain synchronous
     *                         calls over Axis2 1.7's HttpClient 4 sender, whose pool otherwise runs dry)
     */
    ServiceClientCaller(ConfigurationContext context, String to, boolean cleanupTransport) throws Exception {
        this.client = new ServiceClient(context, null);
        this.cleanupTransport = cleanupTransport;
        Options options = client.getOptions();
        options.setTo(new EndpointReference(to));
        options.setAction(EchoPayload.ACTION);
        options.setTimeOutInMilliSeconds(TIMEOUT_MS);
    }

    /** A caller of a BFT-WS group at {@code groupEndpoint} from the group client's Axis2 context, bftws engaged. */
    public static ServiceClientCaller ofGroup(ConfigurationContext clientContext, String groupEndpoint)
            throws Exception {
        ServiceClientCaller c = new ServiceClientCaller(clientContext, groupEndpoint, false);
        c.client.engageModule("bftws");
        return c;
    }

    @Override
    public int echo(EchoPayload payload) throws Exception {
        OMElement reply = client.sendReceive(payload.build());
        try {
            if (!"echoResponse".equals(reply.getLocalName())) {
                throw new IllegalStateException("unexpected reply element " + reply.getQName());
            }
            int n = 0;
            Iterator<?> it = reply.getChildElements();
            while (it.hasNext()) {
                it.next();
                n++;
            }
            if (n != payload.elements()) {
                throw new IllegalStateException("reply has " + n + " items, request had " + payload.elements());
            }
            return n;
        } finally {
            if (cleanupTransport) {
                client.cleanupTransport();
            }
        }
    }

    @Override
    public void close() throws Exception {
        client.cleanup();
    }
}
