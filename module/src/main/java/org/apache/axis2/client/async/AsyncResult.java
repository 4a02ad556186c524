package org.apache.axis2.client.async;

import org.apache.axis2.context.MessageContext;

/**
 * Compatibility stand-in for the class Axis2 1.7 removed; it only gives {@link Callback#onComplete} a
 * parameter type (fix 2 of docs/design/dependencies.md).
 */
public class AsyncResult {
    private final MessageContext result;

    public AsyncResult(MessageContext result) {
        this.result = result;
    }

    /** The message context of the response. */
    public MessageContext getResponseMessageContext() {
        return result;
    }
}
