package org.bftws.module.order;

/**
 * The operator's handle on a replica's proactive refresh of its generated keys ({@link KeyRefresh}), registered
 * as {@code org.bftws:type=KeyRefresh,group="ENDPOINT",id=N} in the replica's JVM: reached through the JDK's
 * Attach API by the user running the replica only ({@code scripts/refresh-keys}), no port opened.
 */
public interface KeyRefreshMBean {
    /**
     * The epoch of the keys the engine uses: 0 for the key generation's, e after the e-th refresh; behind the
     * group's after a refresh that ended during the replay of this replica's journal before it started (until its
     * next start) or that left it without a share.
     */
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
