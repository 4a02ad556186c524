package org.apache.axis2.client.async;

/**
 * Compatibility stand-in for the class of this name that Axis2 1.7 removed (fix 2 of
 * docs/design/dependencies.md). Sandesha2 1.6.2's {@code FaultManager} tests
 * {@code instanceof Callback} and calls {@link #onError} on its fault path, and {@code SandeshaUtil}
 * casts to it on its reallocation path; without the class those paths end in
 * {@code NoClassDefFoundError}. Nothing in Axis2 1.7 creates instances, so the checks simply fail.
 * Written from the method signatures Sandesha2's bytecode references, not from Axis2 1.6's source.
 */
public abstract class Callback {
    /** Called with the response of a non-blocking call. */
    public abstract void onComplete(AsyncResult result);

    /** Called when a non-blocking call fails; Sandesha2 calls this on fault delivery. */
    public abstract void onError(Exception e);
}
