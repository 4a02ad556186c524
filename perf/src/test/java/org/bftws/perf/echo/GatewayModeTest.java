package org.bftws.perf.echo;

import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The {@code bftws-gateway} echo mode: a plain SOAP client through the voting gateway in front of four replicas
 * serves echo calls of every shape the echo experiment sends (client-lib's GroupGatewayTest covers the gateway).
 */
public class GatewayModeTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Test
    public void gatewayModeServesEchoCalls() throws Exception {
        ReadOnlyBftwsModeTest.servesEchoCallsOfEveryShape("bftws-gateway", TMP.getRoot().toPath());
    }
}
