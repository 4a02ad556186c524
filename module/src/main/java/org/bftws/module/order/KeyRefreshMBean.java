package org.bftws.module.order;

/**
 * The operator's handle on a replica's proactive refresh of its generated keys ({@link KeyRefresh}), registered
 * as {@code org.bftws:type=KeyRefresh,group="ENDPOINT",id=N} in the replica's JVM: reached through the JDK's
 * Attach API by the user running the replica only ({@code scripts/refresh-keys}), no port opened.
 */
public interface KeyRefreshMBean {
    /** The epoch of the keys in use: 0 for the key generation's, e after the e-th refresh. */
    long getEpoch();

    /** Whether a refresh runs (f+1 votes ordered, not yet finished here). */
    boolean isRunning();

    /**
     * This replica's vote for epoch {@code fromEpoch} + 1, submitted for ordering if its keys are of epoch {@code
     * fromEpoch} (a command that comes late, once that refresh is over, asks for no second one); what was done,
     * as a line of text.
     */
    String requestRefresh(long fromEpoch);
}
