package org.bftws.perf.echo;

import static org.junit.Assert.assertEquals;

import java.util.List;

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
        List<EchoMode> modes = EchoModes.named("bftws-async");
        assertEquals(1, modes.size());
        try (EchoMode.Deployment d = modes.get(0).start(EchoSetup.fromSystemProperties(), TMP.getRoot().toPath());
                EchoMode.Caller caller = d.newCaller()) {
            for (int elements : new int[] {1, 10, 100}) {
                assertEquals(elements, caller.echo(EchoPayload.elements(elements)));
            }
            assertEquals(1, caller.echo(EchoPayload.bytes(1024)));
        }
    }
}
