package org.bftws.perf.echo;

import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The {@code bftws-async} echo mode: four replicas and the client with {@code bftws.ordering=async} serve echo
 * calls of every shape the echo experiment sends (client-lib's AsyncGroupTest covers the mode itself).
 */
public class AsyncBftwsModeTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void asyncModeServesEchoCalls() throws Exception {
        ReadOnlyBftwsModeTest.servesEchoCallsOfEveryShape("bftws-async", TMP.getRoot().toPath());
    }
}
