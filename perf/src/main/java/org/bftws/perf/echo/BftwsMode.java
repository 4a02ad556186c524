package org.bftws.perf.echo;

import java.nio.file.Path;

import org.bftws.module.config.BftwsKeys;

/**
 * BFT-WS, configuration I (paper §3.2): n = 3f+1 replicas ({@link ReplicaGroup}: embedded Axis2 servers with
 * bftws engaged globally, {@code bftws.replicated=true} and the echo service, keys from keygen) and one
 * listening client whose ServiceClients, bftws engaged, call the group endpoint and get the reply f+1
 * replicas agree on (docs/module.md, "Application requests through the replica group"). Everything on 127.0.0.1 in
 * this JVM, like the baselines. n = 4 is the echo experiment's {@code bftws}; 7 and 10 are experiment 5's.
 */
public final class BftwsMode implements EchoMode {
    public static final String GROUP = "http://echo.group.example/axis2/services/Echo";

    private final int n;
    private final boolean signed;

    BftwsMode(int n) {
        this(n, false);
    }

    /** @param signed {@code bftws.security=rampart}: X.509 WS-Security on the client↔replica WS-RM messages */
    BftwsMode(int n, boolean signed) {
        this.n = n;
        this.signed = signed;
    }

    /** {@code bftws} for 4 replicas (the echo experiment's name), else {@code bftws-nN}; {@code -signed} with Rampart. */
    @Override
    public String name() {
        return (n == 4 ? "bftws" : "bftws-n" + n) + (signed ? "-signed" : "");
    }

    @Override
    public String description() {
        return "BFT-WS configuration I: " + n + " replicas (f = " + (n - 1) / 3 + ") as embedded Axis2 servers on "
                + "loopback, PBFT over SOAP/HTTP, one listening client, one ServiceClient (own virtual sequence) per "
                + "concurrent client" + (signed ? "; " + BftwsKeys.SECURITY.name() + "=rampart: CreateSequence and application messages"
                + " X.509-signed by the client (WSS4J) and checked by each replica's Rampart" : "");
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        ReplicaGroup group = ReplicaGroup.start(setup, work, n, ReplicaGroup.Keys.DEFAULT, setup.echoAar(), "Echo",
                GROUP, "", signed);
        Deployment d = new Deployment() {
            @Override
            public Caller newCaller() throws Exception {
                return ServiceClientCaller.ofGroup(group.clientContext(), GROUP);
            }

            @Override
            public void close() throws Exception {
                group.close();
            }
        };
        if (signed) {
            try {
                EchoSigning.prime(d);
            } catch (Exception | Error e) {
                group.close();
                throw e;
            }
        }
        return d;
    }
}
