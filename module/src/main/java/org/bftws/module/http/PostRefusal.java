package org.bftws.module.http;

/**
 * Which connections' POSTs to one path are answered at once, their body unread, before any XML parsing or any
 * hand-off to Axis2 or to a {@link DirectPost} (registered in the instance's {@link HttpRoutes},
 * {@link HttpRoutes#refusePosts}). {@link RoutingWorker} answers such a POST 503 with {@code Connection: close}
 * and a plain-text reason, no SOAP fault: to a sender that is the transport failing, so it retransmits later with
 * its backoff (and marks this side down) instead of taking the message as received and refused.
 */
@FunctionalInterface
public interface PostRefusal {
    /**
     * Whether a POST from {@code remoteAddress} is refused. Called on an HTTP worker thread for every POST to the
     * path: must be quick and must not block.
     *
     * @param remoteAddress the connection's peer as a literal IP address (Axis2's {@code REMOTE_ADDR}), or null
     */
    boolean refuses(String remoteAddress);
}
