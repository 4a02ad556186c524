package org.bftws.module.http;

/**
 * A request body whose first bytes can be put back after they were read, so a POST read for a
 * {@link DirectPost} that declined it reaches Axis2 whole.
 */
public interface ReplayableBody {
    /** The next reads return {@code head} first, then what was not read yet. */
    void unread(byte[] head);
}
