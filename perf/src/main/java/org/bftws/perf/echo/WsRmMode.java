package org.bftws.perf.echo;

import java.nio.file.Path;
import java.util.UUID;

import org.apache.sandesha2.Sandesha2Constants;
import org.apache.sandesha2.client.SandeshaClientConstants;

/**
 * Baseline the performance targets are stated against: Axis2 + Sandesha2 WS-RM 1.1, through bftws.mar with no
 * replica group (bftws.mar is a superset of Sandesha2: docs/installing.md). The server is
 * conf/axis2-replica.xml as shipped (bftws engaged globally, {@code bftws.replicated=false}); each caller
 * is a ServiceClient with bftws engaged and its own WS-RM sequence, synchronous request-reply.
 */
final class WsRmMode implements EchoMode {
    private final boolean signed;

    /** Unsigned. */
    WsRmMode() {
        this(false);
    }

    /**
     * @param signed Rampart X.509 signatures on every message of the sequence, RM control messages included
     *               ({@link EchoSigning}: the policy sits on the client's AxisService, docs/design/dependencies.md)
     */
    WsRmMode(boolean signed) {
        this.signed = signed;
    }

    @Override
    public String name() {
        return signed ? "wsrm-signed" : "wsrm";
    }

    @Override
    public String description() {
        return "Axis2 + Sandesha2 WS-RM 1.1 through bftws.mar without a group: one embedded server, one RM sequence per client"
                + (signed ? "; Rampart 1.7.1 X.509 signatures both ways (AsymmetricBinding, Basic256Sha256)" : "");
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        return SingleServer.start(setup, work, setup.conf().resolve("axis2-replica.xml"), signed, false, c -> {
            c.client.engageModule("bftws");
            c.client.getOptions().setProperty(SandeshaClientConstants.RM_SPEC_VERSION,
                    Sandesha2Constants.SPEC_VERSIONS.v1_1);
            c.client.getOptions().setProperty(SandeshaClientConstants.SEQUENCE_KEY, "perf-" + UUID.randomUUID());
        });
    }
}
