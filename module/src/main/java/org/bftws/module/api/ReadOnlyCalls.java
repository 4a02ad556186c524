package org.bftws.module.api;

import org.apache.axis2.context.MessageContext;

/**
 * A client's calls of read-only operations (Castro-Liskov §5.1.3): with the {@link #OPTION} set, the BFT-WS
 * Out Handler sends the signed request to every replica's control port, each replica executes it at once
 * against its current state without ordering (if the operation is declared {@code <bftws:ReadOnly/>} in the
 * service's WSDL, else it refuses), and the call returns the result 2f+1 replicas agree on; when they do not
 * agree in time the call is ordered like any other. The flag consumes no message number of the client's WS-RM
 * sequence.
 */
public final class ReadOnlyCalls {
    /** Client {@code Options} property (Boolean): this call is of a read-only operation. Default false. */
    public static final String OPTION = "org.bftws.readOnly";

    private ReadOnlyCalls() {
    }

    /** Whether the caller flagged this call as read-only ({@link #OPTION}). */
    public static boolean flagged(MessageContext request) {
        return Boolean.TRUE.equals(request.getOptions().getProperty(OPTION));
    }
}
