package org.bftws.client.embedded;

import static org.junit.Assert.fail;

import java.util.function.BooleanSupplier;

/**
 * Waiting in the end-to-end tests: on a condition, with a generous bound, never a sleep that guesses how long
 * something takes (TESTING.md; the machines are loaded).
 */
final class Conditions {
    private Conditions() {
    }

    /** Polls {@code condition} until it holds; fails the test naming {@code what} after {@code waitMs}. */
    static void await(String what, long waitMs, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + waitMs * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(5); // polling interval of the condition, not a guess at how long something takes
        }
    }
}
