package org.bftws.module.testing;

import static org.junit.Assert.fail;

import java.util.function.BooleanSupplier;

/** Waiting in tests on a condition, never on a guessed duration (docs/design/testing.md: machines are loaded). */
public final class Conditions {
    private Conditions() {
    }

    /** Polls {@code condition} until it holds; fails the test naming {@code what} after {@code waitMillis}. */
    public static void await(String what, long waitMillis, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(5); // polling interval of the condition, not a guess at how long something takes
        }
    }
}
