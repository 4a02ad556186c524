package org.bftws.module.order;

import org.bftws.core.message.Request;
import org.bftws.module.api.RandomProof;

/**
 * What the Total Order Manager needs of the replicated application (paper §3.3.1.7–3.3.1.8): execute an
 * ordered request, and the {@code get_state}/{@code set_state} pair for checkpoints and state transfer.
 * The Total Order Invoker will implement it by invoking the service through the Axis2 message receiver.
 *
 * <p>Called on one thread, in the total order. Must be deterministic: the same requests in the same order
 * from the same state give the same results and states on every correct replica.
 */
public interface ReplicatedService {
    /**
     * Executes one ordered request.
     *
     * @param random the collective random number of a randomized operation, empty otherwise
     * @return the reply body the replicas sign and the client votes on
     */
    byte[] execute(Request request, byte[] random);

    /**
     * As {@link #execute(Request, byte[])}, with what a third party needs to check the random number (null
     * when there is none); services that show it to no one ignore it.
     */
    default byte[] execute(Request request, byte[] random, RandomProof proof) {
        return execute(request, random);
    }

    /** The application state after everything executed so far ({@code get_state}). */
    byte[] getState();

    /** Replaces the application state by a checkpoint's ({@code set_state}). */
    void setState(byte[] state);
}
