package org.bftws.module.api;

/**
 * Implemented by a replicated service class whose state must survive checkpoints and state transfer
 * (paper §3.3.1.8: {@code get_state} / {@code set_state}). The Total Order Invoker keeps one instance of the
 * service class per replica for all ordered requests (whatever the service's Axis2 scope), and calls these
 * two methods on that instance in the total order, on the same thread as the requests.
 *
 * <p>Both must be deterministic: every correct replica that executed the same requests must return the same
 * bytes from {@link #getState()}, or checkpoints never become stable. A service that does not implement this
 * interface may instead have operations named {@code get_state} (request {@code <bftws:get_state
 * xmlns:bftws="urn:bftws:state"/>}; its response payload element is the state) and {@code set_state} (its
 * request payload is that element); with neither, it is checkpointed with an empty state and must be
 * stateless.
 */
public interface StatefulService {
    /** The service state after every request executed so far. */
    byte[] getState();

    /** Replaces the service state by a checkpoint's, as returned by {@link #getState()} on another replica. */
    void setState(byte[] state);
}
