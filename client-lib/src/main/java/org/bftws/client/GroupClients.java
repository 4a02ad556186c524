package org.bftws.client;

import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.api.ConfidentialCalls;
import org.bftws.module.api.ReadOnlyCalls;
import org.bftws.module.client.GroupClientRuntime;

/**
 * A client of a BFT-WS replica group in a few lines: a plain {@link ServiceClient} with bftws engaged, aimed
 * at a service of the group ({@code bftws.group.endpoint} or a sibling {@code .../services/NAME} of it), and,
 * for randomized operations (integrity paper §4–§5), the flag to set before the call and the collective
 * random number the replicas agreed on, read after {@code sendReceive}.
 *
 * <pre>
 *   ServiceClient dealer = GroupClients.create(context, "http://g.example/axis2/services/Dealer",
 *           "urn:bftws:samples:dealer:deal", 20_000);
 *   GroupClients.randomized(dealer, true);
 *   OMElement deck = dealer.sendReceive(request);      // the reply f+1 replicas agreed on
 *   byte[] random = GroupClients.lastRandom(dealer);   // the number they dealt it with (32 bytes)
 *   GroupClients.terminate(dealer);                    // done with it: the replicas end its sequence
 * </pre>
 */
public final class GroupClients {
    private GroupClients() {
    }

    /** A ServiceClient on {@code context} (whose axis2.xml configures the group) for one group service. */
    public static ServiceClient create(ConfigurationContext context, String endpoint, String action,
            long timeoutMillis) throws AxisFault {
        ServiceClient client = new ServiceClient(context, null);
        try {
            client.engageModule("bftws");
            Options options = client.getOptions();
            options.setTo(new EndpointReference(endpoint));
            options.setAction(action);
            options.setTimeOutInMilliSeconds(timeoutMillis);
            return client;
        } catch (AxisFault | RuntimeException e) {
            client.cleanup();
            throw e;
        }
    }

    /**
     * Flags the client's calls as of a randomized operation (or not). The flag is signed into each request;
     * the replicas check it against the operation's {@code <bftws:Randomized/>} declaration.
     */
    public static void randomized(ServiceClient client, boolean on) {
        client.getOptions().setProperty(CollectiveRandom.RANDOMIZED_OPTION, on);
    }

    /**
     * Flags the client's calls as of a read-only operation (or not): each is executed by every replica at once,
     * without ordering, and accepted with 2f+1 matching replies, or ordered when those do not come in time
     * (Castro-Liskov §5.1.3). The replicas refuse the unordered path for an operation their WSDL does not
     * declare {@code <bftws:ReadOnly/>}, so such a call ends up ordered.
     */
    public static void readOnly(ServiceClient client, boolean on) {
        client.getOptions().setProperty(ReadOnlyCalls.OPTION, on);
    }

    /**
     * Flags the client's calls as of a confidential operation (or not; SINTRA §2.6): the BFT-WS Out Handler
     * seals each payload under the group's TDH2 key for the request's sequence and message number. The replicas
     * refuse a sealed payload for an operation their WSDL does not declare {@code <bftws:Confidential/>}, and a
     * cleartext one for an operation it does.
     */
    public static void confidential(ServiceClient client, boolean on) {
        client.getOptions().setProperty(ConfidentialCalls.OPTION, on);
    }

    /**
     * Ends the client's sequence with the group (BFT-WS paper §3.3.1.1) and waits until f+1 replicas confirmed:
     * each replica's Sandesha2 terminates its side, and core keeps only a tombstone of it. Call it when done
     * with the client (or set Sandesha2's {@code SandeshaClientConstants.LAST_MESSAGE} on the last call); a
     * later call starts a new sequence.
     */
    public static void terminate(ServiceClient client) throws AxisFault {
        GroupClientRuntime runtime = BftwsRuntime.runningClient(client.getServiceContext().getConfigurationContext());
        if (runtime != null) {
            runtime.terminate(client.getServiceContext(), client.getOptions().getTimeOutInMilliSeconds());
        }
    }

    /** The collective random number of the client's last voted reply, or null if it carried none. */
    public static byte[] lastRandom(ServiceClient client) {
        return CollectiveRandom.ofLastReply(client);
    }
}
