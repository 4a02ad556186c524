package org.bftws.client.embedded;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.apache.axiom.soap.SOAP12Constants;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.keys.ClientKeys;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.client.SequenceEstablishment;
import org.bftws.module.config.BftwsConfig;
import org.apache.sandesha2.storage.beans.RMDBean;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.rm.TerminateMessage;
import org.apache.sandesha2.client.SandeshaClientConstants;
import org.bftws.client.GroupClients;
import org.bftws.module.rm.SequenceIds;
import org.bftws.module.testing.Conditions;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.MulticastSender;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.api.ApplicationResult;
import org.bftws.module.order.BftwsReplica;
import org.bftws.module.order.TotalOrderManager;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.FixMethodOrder;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runners.MethodSorters;

/**
 * The product path end to end (paper §3.3.1): four replicas, each an embedded Axis2 server with bftws
 * engaged globally, {@code bftws.replicated=true} and the echo service; keys from {@code keygen} files; a
 * plain Axis2 {@link ServiceClient} with bftws engaged, aimed at the group endpoint, calls echo and gets the
 * voted reply. Real HTTP on 127.0.0.1.
 *
 * <p>One group serves the whole class, in this order (method names sort so): normal operation, a Byzantine
 * replica out-voted, latency, a direct request to one replica refused, and last a backup stopped.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class BftEchoGroupTest {
    private static final Logger LOG = LogManager.getLogger(BftEchoGroupTest.class);
    private static final String NS = GroupLauncher.ECHO_NS;
    private static final String ACTION = GroupLauncher.ECHO_ACTION;
    private static final String GROUP = GroupLauncher.GROUP_ENDPOINT;
    private static final int N = LaunchedGroup.N;
    /**
     * Core id of the second client key, which signs the tests' raw messages: apart from the ServiceClients'
     * key, so that replies counted for it are never the replies of their calls or retransmissions.
     */
    private static final int RAW = N + 1;
    private static final long WAIT_MS = 15_000;

    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP_OF_FOUR = new LaunchedGroup(TMP).clientKeys(2).randomness("none");

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP_OF_FOUR);

    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    /** The group's replicas (null where stopped). */
    private static Axis2Server[] servers;
    private static final ReplicaProbe[] probes = new ReplicaProbe[N];
    /** The group client's Axis2 context: bftws configured with client-1's key, its control port listening. */
    private static ConfigurationContext clientContext;
    private static ServiceClient client;
    private static int call;
    private static Path keys;
    private static int[] replicaPorts;
    /** Echo requests voted so far, from all clients: each was executed once by every correct replica. */
    private static final java.util.concurrent.atomic.AtomicInteger voted = new java.util.concurrent.atomic.AtomicInteger();

    @BeforeClass
    public static void startGroupAndClient() throws Exception {
        keys = GROUP_OF_FOUR.layout().keys();
        replicaPorts = GROUP_OF_FOUR.ports();
        servers = GROUP_OF_FOUR.start().replicas();
        for (int r = 0; r < N; r++) {
            probes[r] = new ReplicaProbe().installOn(servers[r].context().getAxisConfiguration()
                    .getService("Echo").getOperation(ReplicaProbe.echo()));
        }
        clientContext = GROUP_OF_FOUR.client("client").context();
        client = GroupClients.create(clientContext, GROUP, ACTION, WAIT_MS);
    }

    @AfterClass
    public static void stop() throws Exception {
        if (client != null) {
            client.cleanup();
        }
    }

    /** (a) Ten echo calls: every reply correct; all four replicas executed the same requests in one order. */
    @Test
    public void a_tenEchoCallsThroughTheGroupAreVotedAndIdenticallyOrdered() throws Exception {
        for (int i = 0; i < 10; i++) {
            echo(3);
        }
        awaitExecutedEverywhere(voted.get(), N);
        int ref = reference();
        List<String> order = probes[ref].executed();
        assertEquals(voted.get(), order.size());
        assertEquals("distinct request ids", voted.get(), order.stream().distinct().count());
        for (int r = 0; r < N; r++) {
            if (ranEverything(r)) {
                assertEquals("replica " + r + " executed the order of replica " + ref, order, probes[r].executed());
            }
        }
        for (int r = 0; r < N; r++) {
            BftwsReplica replica = BftwsRuntime.replica(servers[r].context());
            assertNotNull("replica " + r + " runs the ordering machinery", replica);
            assertTrue("replica " + r + " executed ordered batches", replica.manager().lastExecuted() >= 1);
            assertEquals(null, replica.manager().failure());
            // the HTTP workers verified the signatures the ordering thread then needed (PreVerifier)
            assertTrue("replica " + r + " was spared signature checks", replica.manager().preVerifiedHits() > 0);
        }
    }

    /**
     * Paper §3.3.1.1: the ServiceClient's sequence was created on every replica by CreateSequence, under one
     * id, the one derived from the client UUID and the group endpoint; its requests carry that id.
     */
    @Test
    public void ab_everyReplicaCreatedTheClientsSequenceUnderOneDerivedId() throws Exception {
        String clientSequence = GroupClientRuntime.sequenceId(client.getServiceContext());
        assertNotNull("the ServiceClient established its sequence", clientSequence);
        assertTrue(probes[0].executed().get(0), probes[0].executed().get(0)
                .startsWith("urn:bftws:request:" + clientSequence + "#"));
        UUID uuid = UUID.randomUUID();
        long start = System.nanoTime();
        String id = establishSequence(uuid);
        LOG.info("CreateSequence to {} loopback replicas, f+1 matching ids: {} us", N,
                (System.nanoTime() - start) / 1_000);
        assertEquals(SequenceIds.derive(uuid, RAW, URI.create(GROUP), null), id);
        assertEquals("a retried CreateSequence (same UUID) names the same sequence", id, establishSequence(uuid));
        // establishSequence waited until every replica created id; the ServiceClient's sequence too:
        RmSequences.awaitCreated(servers, clientSequence, WAIT_MS);
        for (int r = 0; r < N; r++) {
            // its requests were WS-RM application messages 1..call that this replica's Sandesha2 recorded (a
            // backup may execute a call from the primary's pre-prepare before the client's own copy arrives)
            for (long m = 1; m <= call; m++) {
                long number = m;
                int replica = r;
                await("replica " + r + " recorded message " + m, () -> RmSequences.bean(servers[replica].context(),
                        clientSequence).getServerCompletedMessages().isMessageNumberInRanges(number));
            }
            assertEquals(call, RmSequences.bean(servers[r].context(), clientSequence).getHighestInMessageNumber());
        }
    }

    /**
     * A CreateSequence without the client UUID, or whose UUID names no client id or a replica's, gets a SOAP
     * fault from a replica and creates nothing.
     */
    @Test
    public void ac_aCreateSequenceWithoutClientUuidOrClientIdIsRefused() throws Exception {
        int before = RmSequences.count(servers[0].context());
        String url = servers[0].serviceUrl("Echo");
        Map<String, HttpResponse<String>> refused = new java.util.LinkedHashMap<>();
        refused.put("CreateSequence refused (no {urn:bftws}ClientUUID", RawSoap.createSequence(url, null, ""));
        refused.put("CreateSequence refused (ClientUUID names no client id",
                RawSoap.createSequence(url, UUID.randomUUID(), ""));
        refused.put("CreateSequence refused (client id 1 is a replica's",
                RawSoap.createSequence(url, UUID.randomUUID(), "client=\"1\""));
        for (Map.Entry<String, HttpResponse<String>> e : refused.entrySet()) {
            assertEquals(e.getValue().body(), 500, e.getValue().statusCode());
            assertTrue(e.getValue().body(), e.getValue().body().contains(e.getKey()));
        }
        assertEquals("no sequence created", before, RmSequences.count(servers[0].context()));
    }

    /**
     * A client whose CreateSequence the replicas refuse learns why: the replicas' fault text (non-ASCII "§"
     * included) reaches SequenceEstablishment's error intact.
     */
    @Test
    public void ad_aRefusedCreateSequenceFailsWithTheReplicasFaultText() throws Exception {
        BftwsConfig config = (BftwsConfig) clientContext.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        try {
            SequenceEstablishment.establish(clientContext, config, 1, UUID.randomUUID(), WAIT_MS);
            fail("a CreateSequence claiming a replica's id was accepted");
        } catch (AxisFault e) {
            assertTrue(e.getMessage(), e.getMessage().contains("CreateSequence refused (client id 1 is a replica's"
                    + "): a replica group's sequence id is derived from the client UUID (BFT-WS paper \u00a73.3.1.1)"));
        }
    }

    /** (b) Replica 3 answers wrongly; the Voter's f+1 matching replies out-vote it. */
    @Test
    public void b_aReplicaAnsweringWronglyIsOutVoted() throws Exception {
        probes[3].tamper(true);
        try {
            for (int i = 0; i < 10; i++) {
                echo(2);
            }
            // the probe records an execution just before it tampers with that reply
            await("the Byzantine replica tampered with its 10 replies", () -> probes[3].tampered() >= 10);
        } finally {
            probes[3].tamper(false);
        }
    }

    /** The median latency of one voted echo call over 100 warm calls (logged; bounded loosely). */
    @Test
    public void c_latencyOfAVotedEchoCall() throws Exception {
        for (int i = 0; i < 20; i++) {
            echo(3);
        }
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            long start = System.nanoTime();
            echo(3);
            micros.add((System.nanoTime() - start) / 1_000);
        }
        micros.sort(null);
        long median = micros.get(micros.size() / 2);
        LOG.info("voted echo call over {} loopback replicas, 100 warm calls: median {} us, p90 {} us, max {} us", N,
                median, micros.get(90), micros.get(99));
        assertTrue("median " + median + " us", median < 1_000_000);
    }

    /**
     * A second ServiceClient (its own sequence) calls an action the service does not have: every correct
     * replica executes the request to the same fault, and the voted fault reaches the caller as an AxisFault.
     */
    @Test
    public void cc_aVotedFaultReachesTheCallerAsAnAxisFault() throws Exception {
        ServiceClient other = new ServiceClient(clientContext, null);
        try {
            other.engageModule("bftws");
            other.getOptions().setTo(new EndpointReference(GROUP));
            other.getOptions().setAction("urn:bftws:samples:echo:noSuchOperation");
            other.getOptions().setTimeOutInMilliSeconds(WAIT_MS);
            OMFactory f = OMAbstractFactory.getOMFactory();
            try {
                other.sendReceive(f.createOMElement("echo", f.createOMNamespace(NS, "e")));
                fail("a call of an unknown action returned normally");
            } catch (AxisFault e) {
                assertTrue(e.getMessage(), e.getMessage().contains("has no operation for action"));
            }
        } finally {
            other.cleanup();
        }
        echo(1); // the first client's sequence is unaffected
    }

    /**
     * A ServiceClient speaking SOAP 1.2 is served like a SOAP 1.1 one: its application messages are SOAP 1.2
     * envelopes (the content type carries the action), every replica rebuilds the same signed request from
     * them, and the voted reply comes back to the caller as a SOAP 1.2 response.
     */
    @Test
    public void cca_aSoap12ClientIsServedToo() throws Exception {
        ServiceClient soap12 = new ServiceClient(clientContext, null);
        try {
            soap12.engageModule("bftws");
            soap12.getOptions().setTo(new EndpointReference(GROUP));
            soap12.getOptions().setAction(ACTION);
            soap12.getOptions().setSoapVersionURI(SOAP12Constants.SOAP_ENVELOPE_NAMESPACE_URI);
            soap12.getOptions().setTimeOutInMilliSeconds(WAIT_MS);
            for (int c = 0; c < 3; c++) {
                echoWith(soap12, List.of("soap12-call" + c, "\u00e9l\u00e9ment <&> " + c));
                MessageContext in = soap12.getLastOperationContext().getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
                assertFalse("the voted response is a SOAP 1.2 envelope", in.isSOAP11());
            }
        } finally {
            soap12.cleanup();
        }
    }

    /**
     * Four ServiceClients (four sequences) call at once: the primary may batch their requests; every reply
     * is still correct and every replica executed the same order.
     */
    @Test
    public void cd_concurrentClientsEachGetTheirOwnVotedReplies() throws Exception {
        int clients = 4;
        int calls = 5;
        int before = voted.get();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
        try {
            List<java.util.concurrent.Future<Void>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                String tag = "client" + c;
                done.add(pool.submit(() -> {
                    ServiceClient sc = new ServiceClient(clientContext, null);
                    try {
                        sc.engageModule("bftws");
                        sc.getOptions().setTo(new EndpointReference(GROUP));
                        sc.getOptions().setAction(ACTION);
                        sc.getOptions().setTimeOutInMilliSeconds(WAIT_MS);
                        for (int i = 0; i < calls; i++) {
                            echoWith(sc, List.of(tag + "-call" + i + "-a", tag + "-call" + i + "-b"));
                        }
                    } finally {
                        sc.cleanup();
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<Void> f : done) {
                f.get(WAIT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        awaitExecutedEverywhere(before + clients * calls, N);
        int ref = reference();
        for (int r = 0; r < N; r++) {
            if (ranEverything(r)) {
                assertEquals("replica " + r + " executed the order of replica " + ref, probes[ref].executed(),
                        probes[r].executed());
            }
        }
    }

    /**
     * Paper §3.3.1.2–3.3.1.4: a client's request reaches each replica as a WS-RM application message that the
     * replica's own Sandesha2 processes (the number recorded, a SequenceAcknowledgement on the HTTP back
     * channel, as AcksTo is anonymous) before BFT-WS orders it; the service runs once per replica, in the
     * total order. A retransmission of the same message (Sandesha2 sees a duplicate number) still reaches
     * core, which resends its cached reply; nothing executes twice.
     */
    @Test
    public void ce_aRequestIsAnAcknowledgedApplicationMessageAndADuplicateStillGetsAReply() throws Exception {
        int before = voted.get();
        awaitExecutedEverywhere(before, N);
        String sequence = establishSequence(UUID.randomUUID());
        try (EmbeddedAxis2Server own = EmbeddedAxis2Server.start(
                TestRepositories.listeningClient(TMP.newFolder("reply-listener").toPath()));
                GroupTestClient listener = rawClient(own, sequence)) {
            String envelope = applicationMessage(sequence, "acknowledged", listener.replyTo());
            for (int r = 0; r < N; r++) {
                assertAcknowledged(r, RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, envelope));
            }
            awaitExecutedEverywhere(before + 1, N);
            await("every replica replied", () -> listener.authenticReplies() >= N);
            long replies = listener.authenticReplies();
            for (int r = 0; r < N; r++) {
                RMDBean bean = RmSequences.bean(servers[r].context(), sequence);
                assertTrue("replica " + r + "'s Sandesha2 recorded message 1",
                        bean.getServerCompletedMessages().isMessageNumberInRanges(1));
                HttpResponse<String> dup = RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, envelope);
                assertEquals("replica " + r + " took the duplicate: " + dup.body(), 2, dup.statusCode() / 100);
            }
            await("the duplicate got replies", () -> listener.authenticReplies() >= replies + f() + 1);
        }
        voted.incrementAndGet();
        echo(1);
        awaitExecutedEverywhere(before + 2, N);
        for (int r = 0; r < N; r++) {
            if (ranEverything(r)) {
                assertEquals("replica " + r + " executed the request once", "acknowledged",
                        probes[r].firstItems().get(before));
                assertEquals(before + 2, probes[r].executed().size());
            }
        }
    }

    /**
     * An application message whose payload is not the one the client signed (here the text changed on the
     * way), one on a sequence no replica created, and one signed by another group client than the one the
     * sequence id names: each replica answers a SOAP fault (BFT-WS's signature check before Sandesha2; the In
     * Handler's refusal of a sequence Sandesha2 does not know; the sequence's owner) and nothing executes. A
     * client request posted to the control port, bypassing Sandesha2, is refused and counted.
     */
    @Test
    public void cf_aTamperedOrUnknownSequenceMessageIsRefusedWithAFault() throws Exception {
        int before = voted.get();
        awaitExecutedEverywhere(before, N);
        String sequence = establishSequence(UUID.randomUUID());
        URI nowhere = URI.create("http://127.0.0.1:9/axis2/services/BftwsControl");
        String tampered = applicationMessage(sequence, "signed", nowhere).replace(">signed<", ">forged<");
        String unknownId = SequenceIds.derive(UUID.randomUUID(), RAW, URI.create(GROUP), null);
        String unknown = applicationMessage(unknownId, "unknown", nowhere);
        Request raw = Request.decode(signedEcho(sequence, "not-its-sequence").body());
        Signed byTheServiceClientsKey = Signed.sign(Kind.REQUEST, N, new Request(N, sequence, 1, false,
                raw.operation()).encode(), Ed25519.signer(KeyFiles.readClient(keys.resolve(KeyFiles.clientFileName(1)),
                KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE))).signingKey()));
        String foreignClient = new String(ApplicationMessage.of(byTheServiceClientsKey, URI.create(GROUP), nowhere)
                .envelope(), StandardCharsets.UTF_8);
        long[] refused = new long[N];
        for (int r = 0; r < N; r++) {
            HttpResponse<String> t = RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, tampered);
            assertEquals(t.body(), 500, t.statusCode());
            assertTrue(t.body(), t.body().contains("signature does not cover this message"));
            HttpResponse<String> u = RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, unknown);
            assertEquals(u.body(), 500, u.statusCode());
            assertTrue(u.body(), u.body().contains("unknown sequence " + unknownId + " (WS-RM UnknownSequence)"));
            HttpResponse<String> fc = RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, foreignClient);
            assertEquals(fc.body(), 500, fc.statusCode());
            assertTrue(fc.body(), fc.body().contains("is another client's than " + N));
            refused[r] = BftwsRuntime.replica(servers[r].context()).refusedRequests();
            assertTrue("replica " + r + " recorded nothing of the tampered message",
                    !RmSequences.bean(servers[r].context(), sequence).getServerCompletedMessages()
                            .isMessageNumberInRanges(1));
        }
        try (MulticastSender sender = new MulticastSender("test-control-port-request", N, 16, Duration.ofSeconds(2))) {
            sender.send(controlPorts(), new ControlMessage(signedEcho(sequence, "bypass").encode(), null));
            for (int r = 0; r < N; r++) {
                int replica = r;
                await("replica " + r + " refused the control-port request", () -> BftwsRuntime.replica(
                        servers[replica].context()).refusedRequests() > refused[replica]);
            }
        }
        echo(1);
        awaitExecutedEverywhere(before + 1, N);
        for (int r = 0; r < N; r++) {
            if (ranEverything(r)) {
                assertEquals("replica " + r + " executed only the voted call", before + 1, probes[r].executed().size());
                assertTrue(probes[r].firstItems().get(before), probes[r].firstItems().get(before).startsWith("call"));
            }
        }
    }

    /**
     * An equivocating client signs two different requests with the same (sequence, message number) and sends
     * one to replicas 0 and 1, the other to replicas 2 and 3. Each replica executes what the agreed
     * pre-prepare carries, never the copy it happened to receive: all four execute the same one, once.
     */
    @Test
    public void cg_anEquivocatingClientCannotSplitTheReplicas() throws Exception {
        int before = voted.get();
        awaitExecutedEverywhere(before, N);
        String sequence = establishSequence(UUID.randomUUID());
        List<URI> endpoints = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            endpoints.add(URI.create(servers[r].serviceUrl("Echo")));
        }
        URI nowhere = URI.create("http://127.0.0.1:9/axis2/services/BftwsControl");
        try (MulticastSender sender = new MulticastSender("test-equivocator", N, 16, Duration.ofSeconds(2))) {
            for (int half = 0; half < 2; half++) {
                String item = half == 0 ? "version-A" : "version-B";
                sender.send(endpoints.subList(2 * half, 2 * half + 2),
                        ApplicationMessage.of(signedEcho(sequence, item), URI.create(GROUP), nowhere));
            }
            awaitExecutedEverywhere(before + 1, N);
        }
        String agreed = probes[reference()].firstItems().get(before);
        assertTrue(agreed, agreed.equals("version-A") || agreed.equals("version-B"));
        for (int r = 0; r < N; r++) {
            if (ranEverything(r)) {
                assertEquals("replica " + r + " executed the agreed version", agreed, probes[r].firstItems().get(before));
                assertEquals("replica " + r + " executed it once", before + 1, probes[r].executed().size());
            }
        }
        voted.incrementAndGet(); // executed everywhere, like a voted call
        echo(1);
    }

    /**
     * Paper §3.3.1.1: a ServiceClient ends its sequence after its last message. Every replica's Sandesha2
     * terminates its side of it (the signed TerminateSequence reached each), f+1 replicas confirmed the ordered
     * terminate, and the ServiceClient's next call starts a new sequence. Sandesha2's own way to mark a last
     * message ({@code LAST_MESSAGE}) does the same.
     */
    @Test
    public void ch_aServiceClientTerminatesItsSequenceAtEveryReplica() throws Exception {
        int before = voted.get();
        awaitExecutedEverywhere(before, N);
        ServiceClient own = new ServiceClient(clientContext, null);
        try {
            own.engageModule("bftws");
            own.getOptions().setTo(new EndpointReference(GROUP));
            own.getOptions().setAction(ACTION);
            own.getOptions().setTimeOutInMilliSeconds(WAIT_MS);
            echoWith(own, List.of("last-of-the-first-sequence"));
            String first = GroupClientRuntime.sequenceId(own.getServiceContext());
            RmSequences.awaitCreated(servers, first, WAIT_MS); // else a slow replica finds the terminate unknown
            GroupClients.terminate(own);
            assertEquals("the ServiceClient left its sequence", null, GroupClientRuntime.sequenceId(own.getServiceContext()));
            awaitTerminatedEverywhere(first);
            own.getOptions().setProperty(SandeshaClientConstants.LAST_MESSAGE, "true");
            echoWith(own, List.of("only-message-of-the-second"));
            awaitExecutedEverywhere(before + 2, N);
            String second = probes[reference()].executed().get(before + 1);
            assertFalse("a new sequence", second.startsWith("urn:bftws:request:" + first + "#"));
            String secondId = second.substring("urn:bftws:request:".length(), second.lastIndexOf('#'));
            awaitTerminatedEverywhere(secondId);
        } finally {
            own.cleanup();
        }
        awaitExecutedEverywhere(before + 2, N);
    }

    /**
     * After the terminate, nothing of the sequence runs again: a replayed application message and a new number on
     * it are refused with a SOAP fault by every replica that terminated it (core's tombstone would drop them too,
     * {@code TerminateTest}), and nothing executes or is answered. A TerminateSequence without the client's signature, or with the
     * signature of another sequence's terminate, is refused with a SOAP fault and terminates nothing.
     */
    @Test
    public void ci_aTerminatedSequenceRunsNothingAgainAndOnlyItsClientCanEndIt() throws Exception {
        int before = voted.get();
        awaitExecutedEverywhere(before, N);
        String sequence = establishSequence(UUID.randomUUID());
        String other = establishSequence(UUID.randomUUID());
        try (EmbeddedAxis2Server own = EmbeddedAxis2Server.start(
                TestRepositories.listeningClient(TMP.newFolder("terminate-listener").toPath()));
                GroupTestClient listener = rawClient(own, sequence)) {
            String first = applicationMessage(sequence, "before-the-terminate", listener.replyTo());
            for (int r = 0; r < N; r++) {
                assertAcknowledged(r, RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, first));
            }
            awaitExecutedEverywhere(before + 1, N);
            String unsigned = terminateMessage(sequence).replaceAll("<bftws:Request[^>]*>[^<]*</bftws:Request>", "");
            String foreign = terminateMessage(other).replace(other, sequence); // other's signature on this one
            for (int r = 0; r < N; r++) {
                HttpResponse<String> u = RawSoap.post(servers[r].serviceUrl("Echo"), TerminateMessage.ACTION, unsigned);
                assertEquals(u.body(), 500, u.statusCode());
                assertTrue(u.body(), u.body().contains("TerminateSequence refused"));
                HttpResponse<String> fo = RawSoap.post(servers[r].serviceUrl("Echo"), TerminateMessage.ACTION, foreign);
                assertEquals(fo.body(), 500, fo.statusCode());
                assertTrue(fo.body(), fo.body().contains("signature does not cover this TerminateSequence"));
                assertFalse("replica " + r + " terminated nothing", RmSequences.bean(servers[r].context(), sequence)
                        .isTerminated());
            }
            String terminate = terminateMessage(sequence);
            for (int r = 0; r < N; r++) {
                HttpResponse<String> t = RawSoap.post(servers[r].serviceUrl("Echo"), TerminateMessage.ACTION, terminate);
                assertEquals("replica " + r + ": " + t.body(), 200, t.statusCode());
                assertTrue(t.body(), t.body().contains("TerminateSequenceResponse"));
            }
            awaitTerminatedEverywhere(sequence);
            await("every replica answered message 1", () -> listener.replies(1).size() == N);
            await("every replica confirmed the terminate", () -> listener.replies(Request.TERMINATE).size() == N);
            echo(1); // ordered after everything above at every replica: its replies to the raw client are counted
            awaitExecutedEverywhere(before + 2, N);
            long[] replies = repliesToTheRawClient();
            String second = new String(ApplicationMessage.of(signedEcho(sequence, 2, "after-the-terminate"),
                    URI.create(GROUP), listener.replyTo()).envelope(), StandardCharsets.UTF_8);
            for (int r = 0; r < N; r++) {
                for (String replay : List.of(first, second)) {
                    HttpResponse<String> rsp = RawSoap.post(servers[r].serviceUrl("Echo"), ACTION, replay);
                    assertEquals(rsp.body(), 500, rsp.statusCode());
                    assertTrue(rsp.body(), rsp.body().contains("is terminated (WS-RM SequenceTerminated)"));
                }
            }
            echo(1); // ordered after anything the replays could have caused
            awaitExecutedEverywhere(before + 3, N);
            for (int r = 0; r < N; r++) {
                if (ranEverything(r)) {
                    assertEquals("replica " + r + " executed only the voted calls", before + 3,
                            probes[r].executed().size());
                    assertTrue(probes[r].firstItems().get(before + 2),
                            probes[r].firstItems().get(before + 2).startsWith("call"));
                }
            }
            assertArrayEquals("no replica answered a replay", replies, repliesToTheRawClient());
        }
        voted.incrementAndGet(); // the raw request executed everywhere, like a voted call
    }

    /** A request sent straight to one replica's service, bypassing ordering, is refused with a SOAP fault. */
    @Test
    public void d_aRequestToOneReplicaAloneIsRefused() throws Exception {
        int before = probes[0].executed().size();
        String body = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
                + "<e:echo xmlns:e=\"" + NS + "\"><e:item>direct</e:item></e:echo></soapenv:Body></soapenv:Envelope>";
        HttpResponse<String> rsp = RawSoap.post(servers[0].serviceUrl("Echo"), ACTION, body);
        assertEquals(rsp.body(), 500, rsp.statusCode());
        assertTrue(rsp.body(), rsp.body().contains("is replicated"));
        assertEquals("nothing executed", before, probes[0].executed().size());
        echo(1); // and the group still serves
    }

    /** (c) A backup stops: the other three go on, and the voted replies stay correct. */
    @Test
    public void e_oneBackupDownTheServiceContinues() throws Exception {
        int stopped = N - 1; // the primary of view 0 is replica 0
        int before = voted.get();
        awaitExecutedEverywhere(before, N);
        boolean stoppedRanEverything = ranEverything(stopped);
        GROUP_OF_FOUR.stop(stopped);
        for (int i = 0; i < 10; i++) {
            echo(2);
        }
        awaitExecutedEverywhere(voted.get(), N - 1);
        int ref = reference();
        for (int r = 0; r < N - 1; r++) {
            if (ranEverything(r)) {
                assertEquals(probes[ref].executed(), probes[r].executed());
            }
        }
        if (stoppedRanEverything) {
            assertEquals(before, probes[stopped].executed().size());
            assertEquals(probes[ref].executed().subList(0, before), probes[stopped].executed());
        }
    }

    /** One echo call of {@code items} elements through the group; checks the voted reply element by element. */
    private static void echo(int items) throws AxisFault {
        int c = ++call;
        List<String> texts = new ArrayList<>();
        for (int k = 0; k < items; k++) {
            texts.add("call" + c + "-item" + k);
        }
        echoWith(client, texts);
    }

    private static void echoWith(ServiceClient sc, List<String> texts) throws AxisFault {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NS, "e");
        OMElement request = f.createOMElement("echo", ns);
        for (String text : texts) {
            OMElement item = f.createOMElement("item", ns);
            item.setText(text);
            request.addChild(item);
        }
        OMElement reply = sc.sendReceive(request);
        assertEquals("echoResponse", reply.getLocalName());
        assertEquals(NS, reply.getNamespace().getNamespaceURI());
        List<String> got = new ArrayList<>();
        Iterator<OMElement> it = reply.getChildElements();
        while (it.hasNext()) {
            got.add(it.next().getText());
        }
        assertEquals("voted reply", texts, got);
        voted.incrementAndGet();
    }

    /**
     * Replicas that are not needed for the f+1 replies may still be executing: wait for them. A replica that
     * caught up by state transfer (Castro-Liskov §4.3: it trailed when a checkpoint became stable) never runs
     * the requests the installed state covers: it has caught up when it reached the furthest replica's
     * sequence number.
     */
    private static void awaitExecutedEverywhere(int count, int replicas) throws InterruptedException {
        for (int r = 0; r < replicas; r++) {
            int id = r;
            try {
                await("replica " + r + " executed " + count, () -> probes[id].executed().size() >= count
                        || !ranEverything(id) && GroupState.reachedTheFurthest(servers, id));
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; the replicas: " + ordering(), e);
            }
        }
    }

    /** Replica r never installed a state transfer: its service ran every request the group executed. */
    private static boolean ranEverything(int r) {
        return manager(r).statesTransferred() == 0;
    }

    /** The first replica that ran every request: the order the others are compared with. */
    private static int reference() {
        for (int r = 0; r < N; r++) {
            if (servers[r] != null && ranEverything(r)) {
                return r;
            }
        }
        throw new AssertionError("every replica caught up by state transfer at least once: " + ordering());
    }

    private static TotalOrderManager manager(int r) {
        return GroupState.manager(servers[r]);
    }

    /** Each running replica's ordering state, to tell a lagging replica from a stopped or view-changing one. */
    private static String ordering() {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < N; r++) {
            if (servers[r] != null) {
                TotalOrderManager m = manager(r);
                b.append(String.format("[%d: executed %d, lastExecuted %d, view %d, active %b, stable %d, states"
                        + " transferred %d, evidence %d, inbound dropped %d, failure %s] ", r, probes[r].executed().size(),
                        m.lastExecuted(), m.view(), m.isActive(), m.stableCheckpoint(), m.statesTransferred(),
                        m.evidence(), m.inboundDropped(), m.failure()));
            }
        }
        return b.toString();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }

    /** Establishes a sequence with the group as a group client does, with the test client's configuration. */
    private static String establishSequence(UUID uuid) throws AxisFault, InterruptedException {
        BftwsConfig config = (BftwsConfig) clientContext.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        String id = SequenceEstablishment.establish(clientContext, config, RAW, uuid, WAIT_MS);
        RmSequences.awaitCreated(servers, id, WAIT_MS);
        return id;
    }

    private static List<URI> controlPorts() {
        List<URI> control = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            control.add(URI.create(GroupLauncher.serviceUrl(replicaPorts[r], "BftwsControl")));
        }
        return control;
    }

    /** Message 1 of {@code sequence}: an echo of {@code item}, signed with the raw client's key (core node RAW). */
    private static Signed signedEcho(String sequence, String item) throws Exception {
        return signedEcho(sequence, 1, item);
    }

    private static Signed signedEcho(String sequence, long number, String item) throws Exception {
        String xml = "<e:echo xmlns:e=\"" + NS + "\"><e:item>" + item + "</e:item></e:echo>";
        return signedByTheClient(new Request(RAW, sequence, number, false,
                new ApplicationRequest(ACTION, false, xml.getBytes(StandardCharsets.UTF_8)).encode()));
    }

    private static Signed signedByTheClient(Request q) throws Exception {
        return Signed.sign(Kind.REQUEST, RAW, q.encode(), Ed25519.signer(rawClientKeys().signingKey()));
    }

    private static ClientKeys rawClientKeys() throws Exception {
        GroupKeys group = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        return KeyFiles.readClient(keys.resolve(KeyFiles.clientFileName(RAW - N + 1)), group);
    }

    /** Replies each replica has routed to the raw client so far ({@link TotalOrderManager#repliesSent}). */
    private static long[] repliesToTheRawClient() {
        long[] sent = new long[N];
        for (int r = 0; r < N; r++) {
            sent[r] = manager(r).repliesSent(RAW);
        }
        return sent;
    }

    /** The TerminateSequence a group client sends to end {@code sequence}, signed with the client key. */
    private static String terminateMessage(String sequence) throws Exception {
        return new String(TerminateMessage.of(signedByTheClient(Request.terminate(RAW, sequence)), URI.create(GROUP), null)
                .envelope(), StandardCharsets.UTF_8);
    }

    private static void awaitTerminatedEverywhere(String sequence) throws InterruptedException {
        for (int r = 0; r < N; r++) {
            int replica = r;
            await("replica " + r + "'s Sandesha2 terminated " + sequence, () -> {
                RMDBean bean = RmSequences.bean(servers[replica].context(), sequence);
                return bean != null && bean.isTerminated(); // Sandesha2 removes it only 600 s later
            });
        }
    }

    /** The WS-RM application message a group client sends for {@link #signedEcho}, replies to {@code replyTo}. */
    private static String applicationMessage(String sequence, String item, URI replyTo) throws Exception {
        return new String(ApplicationMessage.of(signedEcho(sequence, item), URI.create(GROUP), replyTo).envelope(),
                StandardCharsets.UTF_8);
    }

    /** A core-built client on {@code sequence} whose control port counts the replicas' authentic replies. */
    private static GroupTestClient rawClient(EmbeddedAxis2Server own, String sequence) throws Exception {
        GroupKeys group = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        ClientKeys mine = rawClientKeys();
        Map<Integer, Ed25519PublicKeyParameters> publicKeys = new HashMap<>();
        List<URI> endpoints = new ArrayList<>();
        for (int r = 0; r < N; r++) {
            publicKeys.put(r, group.replicaKey(r + 1));
            endpoints.add(URI.create(servers[r].serviceUrl("Echo")));
        }
        return new GroupTestClient(own, GroupConfig.defaults(), RAW, sequence, Ed25519.signer(mine.signingKey()),
                Ed25519.verifier(publicKeys), endpoints, URI.create(GROUP), 20);
    }

    /** Sandesha2 answered on the HTTP back channel with a SequenceAcknowledgement. */
    private static void assertAcknowledged(int replica, HttpResponse<String> rsp) {
        assertEquals("replica " + replica + ": " + rsp.body(), 200, rsp.statusCode());
        assertTrue("replica " + replica + ": " + rsp.body(), rsp.body().contains("SequenceAcknowledgement"));
    }

    private static int f() {
        return (N - 1) / 3;
    }
}
