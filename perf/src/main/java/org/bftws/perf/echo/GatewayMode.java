package org.bftws.perf.echo;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.client.gateway.GroupGateway;
import org.bftws.client.group.GroupLauncher;

/**
 * {@code bftws-gateway}: the group of {@code bftws} (n = 4, PBFT) behind the voting gateway
 * ({@link GroupGateway}, docs/gateway.md), called by a plain SOAP 1.1 client without BFT-WS: the JDK's HTTP
 * client posting each echo envelope to the gateway and parsing the reply, as a non-Axis2 client would. The
 * gateway's pool holds 64 sequences (more than any client count measured). Its cost against {@code bftws} in
 * the same run is what a client that is not a BFT-WS client pays: one more loopback HTTP hop and envelope.
 */
final class GatewayMode implements EchoMode {
    @Override
    public String name() {
        return "bftws-gateway";
    }

    @Override
    public String description() {
        return "BFT-WS configuration I as bftws, called through the voting gateway (GroupGateway, 64 sequences) by a"
                + " plain SOAP 1.1 client (the JDK's HTTP client, one connection per concurrent client)";
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        ReplicaGroup group = ReplicaGroup.start(setup, work, 4, ReplicaGroup.Keys.DEFAULT, setup.echoAar(), "Echo",
                BftwsMode.GROUP, "", false, GroupLauncher.Configuration.I, null);
        GroupGateway gateway;
        try {
            List<URI> replicas = new ArrayList<>();
            for (int r = 0; r < group.n(); r++) {
                replicas.add(URI.create("http://127.0.0.1:" + group.port(r) + GroupGateway.SERVICES_PATH));
            }
            gateway = GroupGateway.start(group.clientContext(), replicas, (group.n() - 1) / 3, List.of("Echo"),
                    GroupGateway.Settings.defaults(0));
        } catch (Exception | Error e) {
            group.close();
            throw e;
        }
        URI echo = URI.create(gateway.serviceUrl("Echo"));
        return new Deployment() {
            @Override
            public Caller newCaller() {
                return new SoapCaller(echo);
            }

            @Override
            public void close() throws Exception {
                gateway.close();
                group.close();
            }
        };
    }

    /** One plain SOAP 1.1 client: its own HTTP connection, one call at a time. */
    private static final class SoapCaller implements Caller {
        private final URI endpoint;
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        SoapCaller(URI endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public int echo(EchoPayload payload) throws Exception {
            SOAPEnvelope envelope = OMAbstractFactory.getSOAP11Factory().getDefaultEnvelope();
            envelope.getBody().addChild(payload.build());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            envelope.serialize(out);
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(endpoint)
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .header("SOAPAction", "\"" + EchoPayload.ACTION + "\"")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray())).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("gateway answered " + r.statusCode() + ": "
                        + new String(r.body(), java.nio.charset.StandardCharsets.UTF_8));
            }
            OMElement reply = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(r.body()), "UTF-8")
                    .getSOAPEnvelope().getBody().getFirstElement();
            int n = 0;
            for (Iterator<?> it = reply.getChildElements(); it.hasNext(); it.next()) {
                n++;
            }
            if (n != payload.elements()) {
                throw new IllegalStateException("reply has " + n + " items, request had " + payload.elements());
            }
            return n;
        }

        @Override
        public void close() {
            // the JDK's client closes its idle connection when collected
        }
    }
}
