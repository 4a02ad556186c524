package org.bftws.perf.echo;

import java.nio.file.Path;

/**
 * Baseline: plain Axis2 SOAP/HTTP. The server is conf/axis2-replica.xml without {@code bftws} engaged (so
 * no Sandesha2 handlers run), the client conf/axis2-client.xml with no module engaged.
 */
final class PlainMode implements EchoMode {
    private final boolean signed;

    /** Unsigned. */
    PlainMode() {
        this(false);
    }

    /** @param signed Rampart X.509 signatures on requests and replies ({@link EchoSigning}) */
    PlainMode(boolean signed) {
        this.signed = signed;
    }

    @Override
    public String name() {
        return signed ? "plain-signed" : "plain";
    }

    @Override
    public String description() {
        return signed
                ? "plain SOAP/HTTP with Rampart 1.7.1 X.509 signatures both ways (AsymmetricBinding, Basic256Sha256)"
                : "plain Axis2 1.7.9 SOAP/HTTP: one embedded server without bftws engaged, ServiceClients with no module";
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        Path serverXml = setup.axis2Xml(work.resolve("server-conf"), "axis2-replica.xml", "",
                "<module ref=\"bftws\"/>");
        return SingleServer.start(setup, work, serverXml, signed, true, c -> { });
    }
}
