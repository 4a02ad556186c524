package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.engine.Event;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.api.ConfidentialCalls;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Confidential operations over loopback HTTP (SINTRA §2.6, secure causal atomic broadcast): echo's
 * {@code echoConfidential}, declared {@code <bftws:Confidential/>} in wsdl/echo.wsdl, called with the client
 * option {@link ConfidentialCalls#OPTION} ({@link GroupClients#confidential}) through the demo group of {@link LaunchedGroup} under each ordering
 * engine. The replicas order the ciphertext (what every replica's engine committed is checked for it), open
 * it together and answer with the plaintext's echo; cleartext, tampered and re-labelled ciphertexts are
 * refused with a SOAP fault at every replica and nothing of them is ordered.
 */
public class ConfidentialGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 60_000;
    private static final String ACTION = "urn:bftws:samples:echo:echoConfidential";
    private static final String SECRET = "sealed-bid-4217";
    /** The first client key's core node id: client-1.key after the n replicas. */
    private static final int CLIENT = N;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(240);

    private final List<List<Signed>> committed = new ArrayList<>();

    @Test
    public void underPbftTheReplicasOrderTheCiphertextAndAnswerThePlaintext() throws Exception {
        confidentialEchoAndBadInput("pbft");
    }

    @Test
    public void underAsyncOrderingTheReplicasOrderTheCiphertextAndAnswerThePlaintext() throws Exception {
        confidentialEchoAndBadInput("async");
    }

    @Test
    public void underHybridOrderingTheReplicasOrderTheCiphertextAndAnswerThePlaintext() throws Exception {
        confidentialEchoAndBadInput("hybrid");
    }

    private void confidentialEchoAndBadInput(String ordering) throws Exception {
        String mode = GroupLauncher.orderingParameters(ordering);
        group.parameters(mode).clientParameters(mode).start();
        for (int r = 0; r < N; r++) {
            List<Signed> log = new CopyOnWriteArrayList<>();
            committed.add(log);
            group.manager(r).addEventListener((e, t) -> {
                if (e instanceof Event.Committed c) {
                    log.addAll(c.batch());
                }
            });
        }
        DemoClient demo = group.client("client");
        ServiceClient sc = GroupClients.create(demo.context(), GroupLauncher.GROUP_ENDPOINT, ACTION, WAIT_MS);
        GroupClients.confidential(sc, true);
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(SECRET + i, "x"), echoed(sc.sendReceive(request(SECRET + i, "x"))));
        }
        Conditions.await("every replica committed the three confidential requests", WAIT_MS,
                () -> committed.stream().allMatch(log -> sealedIn(log).size() >= 3));
        for (int r = 0; r < N; r++) {
            for (ApplicationRequest q : sealedIn(committed.get(r))) {
                String ordered = new String(q.payload(), StandardCharsets.ISO_8859_1);
                assertFalse("replica " + r + " ordered the plaintext", ordered.contains(SECRET));
                assertEquals(ACTION, q.action());
            }
            assertNull(group.manager(r).failure());
        }
        badInputIsRefusedEverywhere();
        // the group goes on serving confidential and plain calls alike
        assertEquals(List.of("after", "bad", "input"), echoed(sc.sendReceive(request("after", "bad", "input"))));
        assertEquals(List.of("plain"), demo.echo(List.of("plain")).voted());
    }

    /**
     * Cleartext for a confidential operation, a tampered and a re-labelled ciphertext, and a sealed payload for
     * the plain echo: SOAP faults, nothing ordered.
     */
    private void badInputIsRefusedEverywhere() throws Exception {
        Path keys = group.layout().keys();
        GroupKeys groupKeys = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        Signer signer = Ed25519.signer(KeyFiles.readClient(keys.resolve(KeyFiles.clientFileName(1)), groupKeys)
                .signingKey());
        byte[] groupId = GroupLauncher.GROUP_ENDPOINT.getBytes(StandardCharsets.UTF_8);
        String seq = "urn:bftws:sequence:hostile";
        byte[] plain = request("stolen").toString().getBytes(StandardCharsets.UTF_8);
        byte[] sealed = ConfidentialConfig.seal(groupKeys.encryption(), groupId, seq, 1, plain, new SecureRandom());
        byte[] tampered = sealed.clone();
        tampered[tampered.length / 2] ^= 0x01;
        byte[] relabelled = ConfidentialConfig.seal(groupKeys.encryption(), groupId, seq, 7, plain, new SecureRandom());
        // the client's f+1 replies may come before the slowest replicas executed: let every replica catch up first
        Conditions.await("every replica executed what the others did", WAIT_MS,
                () -> executed().stream().distinct().count() == 1);
        List<List<Long>> before = executed();
        for (int r = 0; r < N; r++) {
            refused(r, signer, seq, ACTION, plain, false, "must be sealed");
            refused(r, signer, seq, ACTION, tampered, true, "ciphertext");
            refused(r, signer, seq, ACTION, relabelled, true, "labelled for another request");
            refused(r, signer, seq, GroupLauncher.ECHO_ACTION, sealed, true, "for an operation not declared");
        }
        assertEquals("nothing of it was ordered or executed", before, executed());
    }

    private void refused(int r, Signer signer, String seq, String action, byte[] payload, boolean sealedPayload,
            String why) throws Exception {
        Request q = new Request(CLIENT, seq, 1, false,
                new ApplicationRequest("", action, false, payload, sealedPayload).encode());
        Signed signed = Signed.sign(Kind.REQUEST, CLIENT, q.encode(), signer);
        byte[] envelope = ApplicationMessage.of(signed, URI.create(GroupLauncher.GROUP_ENDPOINT),
                URI.create("http://127.0.0.1:1/control")).envelope();
        HttpResponse<String> rsp = HTTP.send(HttpRequest.newBuilder(URI.create(group.replica(r).serviceUrl("Echo")))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + action + "\"").POST(HttpRequest.BodyPublishers.ofByteArray(envelope))
                .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals("replica " + r + ": " + rsp.body(), 500, rsp.statusCode());
        assertTrue("replica " + r + ": " + rsp.body(), rsp.body().contains("Fault") && rsp.body().contains(why));
    }

    /** Per replica: (last executed sequence number, requests committed). */
    private List<List<Long>> executed() {
        List<List<Long>> out = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            out.add(List.of(group.manager(r).lastExecuted(), (long) committed.get(r).size()));
        }
        return out;
    }

    private static List<ApplicationRequest> sealedIn(List<Signed> batch) {
        List<ApplicationRequest> out = new ArrayList<>();
        for (Signed s : batch) {
            Request q = Request.decode(s.body());
            if (!q.terminates()) {
                ApplicationRequest a = ApplicationRequest.decode(q.operation());
                if (ACTION.equals(a.action())) {
                    assertTrue("a confidential request ordered in clear: " + a, a.sealed());
                    out.add(a);
                }
            }
        }
        return out;
    }

    private static OMElement request(String... items) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(GroupLauncher.ECHO_NS, "e");
        OMElement e = f.createOMElement("echoConfidential", ns);
        for (String item : items) {
            f.createOMElement("item", ns, e).setText(item);
        }
        return e;
    }

    private static List<String> echoed(OMElement reply) {
        List<String> out = new ArrayList<>();
        for (var it = reply.getChildElements(); it.hasNext(); ) {
            out.add(((OMElement) it.next()).getText());
        }
        return out;
    }
}
