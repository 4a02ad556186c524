package org.bftws.perf.echo;

import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The {@code bftws-hybrid} echo mode: four replicas and the client with {@code bftws.ordering=hybrid} serve echo
 * calls of every shape the echo experiment sends (client-lib's HybridGroupTest covers the mode itself).
 */
public class HybridBftwsModeTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void hybridModeServesEchoCalls() throws Exception {
        ReadOnlyBftwsModeTest.servesEchoCallsOfEveryShape("bftws-hybrid", TMP.getRoot().toPath());
    }
}
