package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.client.GroupClients;
import org.bftws.client.group.DemoClient;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.keys.ClientKeys;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.SequenceEstablishment;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.rm.SequenceIds;
import org.bftws.module.testing.Conditions;
import org.bftws.module.transport.ControlMessage;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The bad-input corpus against four replicas over loopback HTTP: every hostile input of
 * {@link HostileInputs} is posted raw to replica 0's application endpoint and to its control port. For
 * each: the answer the rules promise (a SOAP fault for anything not well-formed, a fault from the
 * application endpoint for everything, 202 and a counted refusal for well-formed control messages that fail
 * their signature or admission), no state change on any replica (executed requests and executed sequence
 * number unchanged), and the group still serves a correct client right after.
 *
 * <p>Synchronisation without sleeps: the control port hands a message to the ordering queue before its
 * HTTP answer, and the correct call that follows is ordered after it, so once every replica executed the
 * correct call, the hostile input has been judged.
 */
public class BadInputCorpusTest {
    private static final Logger LOG = LogManager.getLogger(BadInputCorpusTest.class);
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 30_000;
    /** Tighter than the defaults so the oversized cases stay small on a loaded machine. */
    private static final int MAX_REQUEST = 32 * 1024;
    private static final int CONTROL_MAX = 64 * 1024;
    private static final int HTTP_MAX = 128 * 1024;
    private static final int XML_DEPTH = 64;
    private static final int XML_ELEMENTS = 1_000;
    private static final int XML_ATTRIBUTES = 32;
    private static final int OVERSIZED_SENDERS = 50;

    private static final TemporaryFolder TMP = new TemporaryFolder();
    /** Four replicas with the limits above. */
    private static final LaunchedGroup GROUP_OF_FOUR = new LaunchedGroup(TMP).randomness("none").parameters(
            GroupLauncher.param("bftws.maxRequestBytes", String.valueOf(MAX_REQUEST))
            + GroupLauncher.param("bftws.control.maxMessageBytes", String.valueOf(CONTROL_MAX))
            + GroupLauncher.param("bftws.http.maxRequestBytes", String.valueOf(HTTP_MAX))
            + GroupLauncher.param("bftws.xml.maxDepth", String.valueOf(XML_DEPTH))
            + GroupLauncher.param("bftws.xml.maxElements", String.valueOf(XML_ELEMENTS))
            + GroupLauncher.param("bftws.xml.maxAttributes", String.valueOf(XML_ATTRIBUTES)));

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP_OF_FOUR);

    @Rule
    public final Timeout timeout = Timeout.seconds(180);

    /** The group's replicas. */
    private static Axis2Server[] replicas;
    private static final ReplicaProbe[] probes = new ReplicaProbe[N];
    private static DemoClient client;
    private static Signer clientSigner;
    private static int call;
    private static final Pattern FAULT_STRING = Pattern.compile("<faultstring>([^<]*)</faultstring>");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeClass
    public static void startGroup() throws Exception {
        Path keys = GROUP_OF_FOUR.layout().keys();
        replicas = GROUP_OF_FOUR.start().replicas();
        for (int r = 0; r < N; r++) {
            probes[r] = new ReplicaProbe().installOn(replicas[r].context().getAxisConfiguration()
                    .getService("Echo").getOperation(ReplicaProbe.echo()));
        }
        client = GROUP_OF_FOUR.client("client");
        GroupKeys group = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        ClientKeys mine = KeyFiles.readClient(keys.resolve(KeyFiles.clientFileName(1)), group);
        clientSigner = Ed25519.signer(mine.signingKey());
        correctCall("warm-up"); // establishes the client's sequence and warms every path
    }

    /**
     * Fifty senders declare a 50 MiB body each, send its first bytes and then nothing: each is refused at once
     * ({@code bftws.http.maxRequestBytes}) and its connection closed without waiting for the rest, and a correct
     * client's call is voted while every one of them still holds its socket open (a server that waited for the
     * declared bodies would answer none of them before its 20 s socket timeout, and would hold 50 workers).
     */
    @Test
    public void oversizedSendersAreRefusedAtOnceWhileACorrectCallIsServed() throws Exception {
        String prefix = HostileInputs.envelope(HostileInputs.echo("A".repeat(1024))).substring(0, 600);
        try (OversizedSenders senders = OversizedSenders.start(replicas[0].serviceUrl("Echo"),
                HostileInputs.ECHO_ACTION, OVERSIZED_SENDERS, 50L << 20, prefix)) {
            long start = System.nanoTime();
            correctCall(OVERSIZED_SENDERS + " oversized senders");
            long millis = (System.nanoTime() - start) / 1_000_000;
            List<String> answers = senders.answersOnceClosed();
            assertTrue("every oversized sender still holds its socket open", senders.allStillOpen());
            long faults = answers.stream().filter(a -> a.contains(HostileInputs.TOO_LARGE)).count();
            LOG.info("a correct call took {} ms while {} oversized requests were refused ({} answered with the"
                    + " fault, the rest closed)", millis, OVERSIZED_SENDERS, faults);
            for (String a : answers) {
                assertTrue(abbreviated(a), a.isEmpty() || a.startsWith("HTTP/1.1 500") || a.startsWith("HTTP/1.1 400"));
            }
            // Refused before its body was read: the fault went out before the server closed (a server that read
            // on would have closed on its socket timeout without answering).
            assertTrue("the oversized senders got the fault", faults > 0);
        }
    }

    /** What is not a control message in form gets a SOAP fault from both endpoints, and changes nothing. */
    @Test
    public void malformedInputIsAnsweredWithASoapFaultAndChangesNothing() throws Exception {
        for (HostileInputs.Hostile h : HostileInputs.malformed(HTTP_MAX + 1, CONTROL_MAX)) {
            GroupState before = GroupState.of(replicas, probes);
            assertRefused(h.name() + " at the application endpoint", replicas[0].serviceUrl("Echo"),
                    HostileInputs.ECHO_ACTION, h, h.applicationFault());
            assertRefused(h.name() + " at the control port", controlUrl(0), ControlMessage.ACTION, h, h.controlFault());
            correctCall(h.name());
            before.assertOnlyOneMoreExecuted(h.name(), replicas, probes);
        }
    }

    /**
     * A group client's request arrives as a WS-RM application message at the service endpoint: one with a
     * forged signature, one claiming replica 1 as its client, and one on a sequence no replica created each
     * get a SOAP fault there (BFT-WS's signature check, Sandesha2's refusal of the sequence) and change
     * nothing. At the control port, well-formed messages that fail later are answered 202 (the port does not
     * tell an unauthenticated sender whether a signature was right) and counted: bytes that are no Signed
     * envelope as evidence, a client request, forged or validly signed, as a refusal (clients' requests must
     * come through Sandesha2).
     */
    @Test
    public void forgedMisattributedAndUnknownRequestsAreRefusedAndChangeNothing() throws Exception {
        String sequence = establishSequence();
        byte[] valid = HostileInputs.signedEcho(clientSigner, N, sequence, 1, "never executed");
        refusedWithFault("an application message with a forged signature", HostileInputs.forged(valid),
                "signature does not cover this message");
        refusedWithFault("an application message claiming replica 1 as its client",
                HostileInputs.signedEcho(clientSigner, 1, sequence, 1, "as a replica"),
                "signature does not cover this message");
        refusedWithFault("an application message on an unknown WS-RM sequence", HostileInputs.signedEcho(clientSigner,
                N, SequenceIds.derive(UUID.randomUUID(), N, URI.create(GroupLauncher.GROUP_ENDPOINT), null), 1, "unknown"),
                "(WS-RM UnknownSequence)");
        BftwsReplica r0 = BftwsRuntime.replica(replicas[0].context());
        refusedAtControlPort("a client request with a forged signature", HostileInputs.forged(valid),
                r0::refusedRequests);
        refusedAtControlPort("base64 that is no Signed envelope",
                "not a signed envelope".getBytes(StandardCharsets.UTF_8), () -> r0.manager().evidence());
        refusedAtControlPort("a validly signed client request", valid, r0::refusedRequests);
    }

    /**
     * A plain WS-RM application message (no BFT-WS header) on a sequence no replica created gets WS-RM's
     * UnknownSequence fault, in SOAP 1.1 (code wsrm:UnknownSequence) and SOAP 1.2 (Sender, subcode
     * wsrm:UnknownSequence), for WS-RM 1.0 and 1.1 alike, not Sandesha2's internal error, and changes nothing.
     */
    @Test
    public void aPlainMessageOnAnUnknownSequenceGetsTheUnknownSequenceFault() throws Exception {
        for (String rm : List.of(HostileInputs.WSRM_10, HostileInputs.WSRM_11)) {
            String sequence = "urn:uuid:" + UUID.randomUUID();
            GroupState before = GroupState.of(replicas, probes);
            String url = replicas[0].serviceUrl("Echo");
            HttpResponse<String> soap11 = post(url, "text/xml; charset=UTF-8", HostileInputs.ECHO_ACTION,
                    HostileInputs.plainRmMessage(HostileInputs.SOAP11, rm, sequence, url));
            assertFault("SOAP 1.1, " + rm, soap11, "unknown sequence " + sequence);
            assertTrue(soap11.body(), soap11.body().matches("(?s).*<faultcode[^>]*>\\w+:UnknownSequence</faultcode>.*"));
            HttpResponse<String> soap12 = post(url, "application/soap+xml; charset=UTF-8", HostileInputs.ECHO_ACTION,
                    HostileInputs.plainRmMessage(HostileInputs.SOAP12, rm, sequence, url));
            assertTrue(soap12.body(), soap12.body().matches("(?s).*Sender</\\w+:Value>\\s*<\\w+:Subcode>\\s*<\\w+:Value[^>]*>"
                    + "\\w+:UnknownSequence<.*"));
            assertTrue(soap12.body(), soap12.body().contains(sequence));
            assertFalse(soap12.body(), soap12.body().contains("Exception"));
            correctCall("a plain message on an unknown sequence");
            before.assertOnlyOneMoreExecuted("a plain message on an unknown sequence", replicas, probes);
        }
    }

    /**
     * A client request accepted and executed once is not executed again when its exact application message
     * comes back (Sandesha2 sees a duplicate number; core's client table answers from its reply cache).
     */
    @Test
    public void aReplayedRequestIsNotExecutedAgain() throws Exception {
        String request = HostileInputs.application(HostileInputs.signedEcho(clientSigner, N, establishSequence(), 1,
                "executed once"), GroupLauncher.GROUP_ENDPOINT, NOWHERE);
        GroupState accepted = GroupState.of(replicas, probes);
        for (int r = 0; r < N; r++) {
            assertEquals(200, post(replicas[r].serviceUrl("Echo"), HostileInputs.ECHO_ACTION, request).statusCode());
        }
        accepted.awaitExecuted(replicas, probes, 1);
        GroupState before = GroupState.of(replicas, probes);
        for (int r = 0; r < N; r++) {
            assertEquals("replayed to replica " + r, 2,
                    post(replicas[r].serviceUrl("Echo"), HostileInputs.ECHO_ACTION, request).statusCode() / 100);
        }
        correctCall("after the replay");
        before.assertOnlyOneMoreExecuted("a replayed request", replicas, probes);
    }

    /**
     * Payloads beyond bftws.xml.* inside validly signed requests of a real ServiceClient: every replica
     * refuses them alike, the caller gets the voted fault naming the key, and the service executes nothing.
     */
    @Test
    public void payloadsBeyondTheXmlLimitsGetAVotedFaultAndExecuteNothing() throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(HostileInputs.ECHO_NS, "e");
        ServiceClient sc = GroupClients.create(client.context(), GroupLauncher.GROUP_ENDPOINT,
                HostileInputs.ECHO_ACTION, WAIT_MS);
        try {
            assertVotedFault(sc, nested(f, ns, XML_DEPTH + 1), "bftws.xml.maxDepth");
            assertVotedFault(sc, withChildren(f, ns, XML_ELEMENTS), "bftws.xml.maxElements");
            assertVotedFault(sc, withAttributes(f, ns, XML_ATTRIBUTES + 1), "bftws.xml.maxAttributes");
            GroupState before = GroupState.of(replicas, probes);
            OMElement reply = sc.sendReceive(nested(f, ns, XML_DEPTH)); // at the limit: accepted
            assertEquals("echoResponse", reply.getLocalName());
            before.awaitExecuted(replicas, probes, 1);
        } finally {
            sc.cleanup();
        }
        correctCall("after the limits");
    }

    private static void assertVotedFault(ServiceClient sc, OMElement payload, String key) throws Exception {
        GroupState before = GroupState.of(replicas, probes);
        try {
            sc.sendReceive(payload);
            fail("a payload beyond " + key + " was executed");
        } catch (AxisFault e) {
            assertTrue(e.getMessage(), e.getMessage().contains(key));
        }
        correctCall(key);
        // The refused request still took its place in the order (a batch), but executed nothing.
        before.assertExecutedRequests(key, replicas, probes, 1);
    }

    /** Posts {@code signed} as an application message to every replica: a fault naming {@code reason} each. */
    private static void refusedWithFault(String name, byte[] signed, String reason) throws Exception {
        GroupState before = GroupState.of(replicas, probes);
        String message = HostileInputs.application(signed, GroupLauncher.GROUP_ENDPOINT, NOWHERE);
        for (int r = 0; r < N; r++) {
            assertFault(name + " at replica " + r, post(replicas[r].serviceUrl("Echo"), HostileInputs.ECHO_ACTION,
                    message), reason);
        }
        correctCall(name);
        before.assertOnlyOneMoreExecuted(name, replicas, probes);
    }

    /** Posts {@code signed} to replica 0's control port: 202, then the refusal counted. */
    private static void refusedAtControlPort(String name, byte[] signed, LongSupplier refusals) throws Exception {
        GroupState before = GroupState.of(replicas, probes);
        long counted = refusals.getAsLong();
        HttpResponse<String> rsp = post(controlUrl(0), ControlMessage.ACTION, HostileInputs.control(signed));
        assertEquals(name + " at the control port: " + rsp.body(), 202, rsp.statusCode());
        Conditions.await(name + " counted as refused", WAIT_MS, () -> refusals.getAsLong() > counted);
        correctCall(name);
        before.assertOnlyOneMoreExecuted(name, replicas, probes);
    }

    /**
     * {@link #assertFault} for what {@code h} posts to {@code url}. A body over the HTTP limit gets its fault too:
     * the replica answers before reading the body, then closes with a lingering close (BoundedDrainConnection),
     * so no reset overtakes the fault.
     */
    private static void assertRefused(String what, String url, String action, HostileInputs.Hostile h, String reason)
            throws Exception {
        assertFault(what, post(url, action, h.body(), h.chunked()), reason);
    }

    /** A SOAP 1.1 fault over HTTP 500 whose reason contains {@code reason}; returns the reason. */
    private static String assertFault(String what, HttpResponse<String> rsp, String reason) {
        assertEquals(what + ": " + abbreviated(rsp.body()), 500, rsp.statusCode());
        Matcher m = FAULT_STRING.matcher(rsp.body());
        assertTrue(what + ": no SOAP fault in " + abbreviated(rsp.body()), m.find());
        assertFalse(what + " leaked a file", rsp.body().contains("root:"));
        LOG.info("{}: fault \"{}\"", what, abbreviated(m.group(1)));
        assertTrue(what + ": fault \"" + m.group(1) + "\"", m.group(1).contains(reason));
        return m.group(1);
    }

    /** One voted echo call of a correct client: the group still serves. */
    private static void correctCall(String after) throws Exception {
        DemoClient.Call c = client.echo(List.of("call" + (++call) + " after " + after));
        assertTrue("the voted reply after " + after + ": " + c.voted(), c.correct());
    }

    private static String establishSequence() throws AxisFault, InterruptedException {
        BftwsConfig config = (BftwsConfig) client.context().getProperty(BftwsRuntime.CONFIG_PROPERTY);
        String id = SequenceEstablishment.establish(client.context(), config, N, UUID.randomUUID(), WAIT_MS);
        RmSequences.awaitCreated(replicas, id, WAIT_MS);
        return id;
    }

    /** A reply address nobody listens on: these tests look at faults and executions, not replies. */
    private static final URI NOWHERE = URI.create("http://127.0.0.1:9/axis2/services/BftwsControl");

    private static String controlUrl(int replica) {
        return replicas[replica].serviceUrl("BftwsControl");
    }

    private static HttpResponse<String> post(String url, String action, String body) throws Exception {
        return post(url, action, body, false);
    }

    /** A raw POST of {@code body} as {@code contentType}. */
    private static HttpResponse<String> post(String url, String contentType, String action, String body)
            throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType + "; action=\"" + action + "\"")
                .header("SOAPAction", "\"" + action + "\"")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** A raw SOAP 1.1 POST; {@code chunked}: the body streamed, so the request carries no Content-Length. */
    private static HttpResponse<String> post(String url, String action, String body, boolean chunked)
            throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest.BodyPublisher publisher = chunked
                ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))
                : HttpRequest.BodyPublishers.ofByteArray(bytes);
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"" + action + "\"")
                .POST(publisher).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String abbreviated(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }

    private static OMElement nested(OMFactory f, OMNamespace ns, int depth) {
        OMElement root = f.createOMElement("echo", ns);
        OMElement e = f.createOMElement("item", ns, root);
        for (int d = 2; d < depth; d++) {
            e = f.createOMElement("item", ns, e);
        }
        e.setText("depth " + depth);
        return root;
    }

    private static OMElement withChildren(OMFactory f, OMNamespace ns, int children) {
        OMElement root = f.createOMElement("echo", ns);
        for (int i = 0; i < children; i++) {
            f.createOMElement("item", ns, root).setText("i");
        }
        return root;
    }

    private static OMElement withAttributes(OMFactory f, OMNamespace ns, int count) {
        OMElement root = f.createOMElement("echo", ns);
        OMElement item = f.createOMElement("item", ns, root);
        for (int i = 0; i < count; i++) {
            item.addAttribute("a" + i, "v", null);
        }
        return root;
    }
}
