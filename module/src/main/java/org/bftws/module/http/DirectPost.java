package org.bftws.module.http;

/**
 * What takes a POST body in the one form it expects, without Axis2's handler chain: registered for a path in the
 * instance's {@link HttpRoutes} ({@link HttpRoutes#registerPost}). {@link RoutingWorker} reads such a POST's body
 * (if it declares no more than {@link #maxBodyBytes}), offers it here, answers 202 if it was taken, and otherwise
 * hands the same bytes to Axis2, whose handlers answer as they always do (a refusal keeps its SOAP fault).
 */
public interface DirectPost {
    /** The largest body offered; a longer one goes to Axis2 unread by the receiver. */
    int maxBodyBytes();

    /**
     * Takes {@code body} if it is in the expected form (the POST is then answered 202, as Axis2 answers a
     * one-way message); false hands it to Axis2. Called on an HTTP worker thread: must not block.
     *
     * @param remoteAddress the connection's peer as a literal IP address (Axis2's {@code REMOTE_ADDR}), or null
     */
    boolean accept(byte[] body, String contentType, String remoteAddress);
}
