package org.bftws.perf.echo;

import static org.bftws.perf.echo.EchoSetup.param;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;

import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;

/**
 * BFT-WS, configuration I (paper §3.2): 3f+1 = 4 replicas, each an embedded Axis2 server with bftws engaged
 * globally, {@code bftws.replicated=true} and the echo service; keys from keygen; one listening client
 * (its control port receives the replies) whose ServiceClients, bftws engaged, call the group endpoint and
 * get the reply f+1 replicas agree on (README, "Application requests through the replica group").
 * Everything on 127.0.0.1 in this JVM, like the baselines.
 */
final class BftwsMode implements EchoMode {
    static final String GROUP = "http://echo.group.example/axis2/services/Echo";
    static final int N = 4;

    @Override
    public String name() {
        return "bftws";
    }

    @Override
    public String description() {
        return "BFT-WS configuration I: 4 replicas (f = 1) as embedded Axis2 servers on loopback, PBFT over SOAP/HTTP, "
                + "one listening client, one ServiceClient (own virtual sequence) per concurrent client";
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        Closer closer = new Closer();
        try {
            Path keys = work.resolve("keys");
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int status = KeyGen.run(new String[] {"--out", keys.toString(), "--replicas", String.valueOf(N),
                "--clients", "1"}, new SecureRandom(), new PrintStream(log), new PrintStream(log));
            if (status != 0) {
                throw new IllegalStateException("keygen failed: " + log);
            }
            // bftws.replicas names every endpoint before any replica starts: take free ports first
            int[] ports = freePorts(N);
            StringBuilder replicas = new StringBuilder();
            for (int r = 0; r < N; r++) {
                replicas.append(r).append("=http://127.0.0.1:").append(ports[r]).append("/axis2/services/Echo ");
            }
            String group = param("bftws.replicated", "true") + param("bftws.group.endpoint", GROUP)
                    + param("bftws.replicas", replicas.toString().trim())
                    + param("bftws.keys.public", keys.resolve(KeyFiles.GROUP_FILE).toString());
            for (int r = 0; r < N; r++) {
                Path dir = work.resolve("replica" + r);
                Path xml = setup.axis2Xml(dir.resolve("conf"), "axis2-replica.xml", group
                        + param("bftws.replica.id", String.valueOf(r))
                        + param("bftws.keys.private", keys.resolve(KeyFiles.replicaFileName(r + 1)).toString()));
                closer.register(EmbeddedAxis2Server.start(setup.server(dir.resolve("repository"), xml), ports[r]));
            }
            Path clientXml = setup.axis2Xml(work.resolve("client/conf"), "axis2-client.xml", group
                    + param("bftws.role", "client")
                    + param("bftws.keys.private", keys.resolve(KeyFiles.clientFileName(1)).toString())
                    + "<transportReceiver name=\"http\" class=\"org.apache.axis2.transport.http.SimpleHTTPServer\"/>\n    ");
            EmbeddedAxis2Server client = closer.register(
                    EmbeddedAxis2Server.start(setup.client(work.resolve("client/repository"), clientXml)));
            return new Deployment() {
                @Override
                public Caller newCaller() throws Exception {
                    ServiceClientCaller c = new ServiceClientCaller(client.context(), GROUP, false);
                    c.client.engageModule("bftws");
                    return c;
                }

                @Override
                public void close() throws Exception {
                    closer.close();
                }
            };
        } catch (Exception | Error e) {
            closer.close();
            throw e;
        }
    }

    private static int[] freePorts(int count) throws Exception {
        ServerSocket[] sockets = new ServerSocket[count];
        int[] ports = new int[count];
        try {
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    s.close();
                }
            }
        }
        return ports;
    }
}
