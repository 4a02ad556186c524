package org.bftws.perf.echo;

import static org.junit.Assert.assertEquals;

import java.nio.file.Path;
import java.util.List;

import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The {@code bftws-ro} echo mode serves its read-only calls ({@code echoReadOnly}, declared
 * {@code <bftws:ReadOnly/>} in echo.wsdl) from four replicas; that they run without ordering is client-lib's
 * ReadOnlyGroupTest.
 */
public class ReadOnlyBftwsModeTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void readOnlyModeServesEchoCalls() throws Exception {
        servesEchoCallsOfEveryShape("bftws-ro", TMP.getRoot().toPath());
    }

    /** Starts the echo mode {@code name} under {@code work} and checks its answers to echo calls of each shape. */
    static void servesEchoCallsOfEveryShape(String name, Path work) throws Exception {
        List<EchoMode> modes = EchoModes.named(name);
        assertEquals(1, modes.size());
        try (EchoMode.Deployment d = modes.get(0).start(EchoSetup.fromSystemProperties(), work);
                EchoMode.Caller caller = d.newCaller()) {
            for (int elements : new int[] {1, 10, 100}) {
                assertEquals(elements, caller.echo(EchoPayload.elements(elements)));
            }
            assertEquals(1, caller.echo(EchoPayload.bytes(1024)));
        }
    }
}
