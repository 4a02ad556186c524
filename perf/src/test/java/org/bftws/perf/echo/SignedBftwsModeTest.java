package org.bftws.perf.echo;

import static org.junit.Assert.assertEquals;

import java.util.List;

import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The {@code bftws-signed} echo mode measures what it claims: four replicas and a client with
 * {@code bftws.security=rampart} (generated X.509 keystores, {@link GroupSigning}) serve voted echo calls of
 * several sizes, so the measured calls passed the client's WS-Security signing and every replica's Rampart
 * check (an unsigned or mis-signed message would be refused: client-lib's SignedGroupTest).
 */
public class SignedBftwsModeTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void signedGroupServesVotedEchoCalls() throws Exception {
        List<EchoMode> modes = EchoModes.named("bftws-signed");
        assertEquals(1, modes.size());
        try (EchoMode.Deployment d = modes.get(0).start(EchoSetup.fromSystemProperties(), TMP.getRoot().toPath());
                EchoMode.Caller caller = d.newCaller()) {
            for (int elements : new int[] {1, 10, 100}) {
                assertEquals(elements, caller.echo(EchoPayload.elements(elements)));
            }
        }
    }
}
