package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAP12Constants;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.GroupSecurity;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.client.security.GeneratedKeystores;
import org.bftws.client.security.SigningPolicy;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.keys.ClientKeys;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFiles;
import org.bftws.client.GroupClients;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.client.SequenceEstablishment;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.rm.RecordedMessages;
import org.bftws.module.rm.SequenceIds;
import org.bftws.module.security.ApplicationMessageSigner;
import org.bftws.module.security.RampartSigning;
import org.bftws.module.testing.Conditions;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * {@code bftws.security=rampart} (paper §3.3.1: client↔replica messages under WS-Security): four replicas and
 * a client, each with its own X.509 keystore generated at run time and the WS-SecurityPolicy of
 * {@link SigningPolicy}. The client's CreateSequence is signed and the replicas' answers too; the group
 * serves voted echo calls. An unsigned CreateSequence (with a valid client UUID) and one altered in transit
 * after signing are refused with a SOAP fault and create no sequence. The client's WS-RM application messages
 * are WS-Security signed too ({@link ApplicationMessageSigner}) and checked by each replica's Rampart against
 * the service's policy: an unsigned one, one altered after signing (payload or a signed header), an expired
 * one, and one signed by another trusted party than the sequence's creator are refused by every replica and
 * nothing is recorded or executed. The replicas' replies are WS-Security signed as well and checked on the
 * client's control port before the Voter: one replica's badly signed replies are refused and out-voted.
 * Real HTTP on 127.0.0.1.
 */
public class SignedGroupTest {
    private static final String NS = GroupLauncher.ECHO_NS;
    private static final String GROUP = GroupLauncher.GROUP_ENDPOINT;
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 30_000;

    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP_OF_FOUR = new LaunchedGroup(TMP).randomness("none")
            .security(GroupSecurity.RAMPART);

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP_OF_FOUR);

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    /** The group's replicas. */
    private static Axis2Server[] servers;
    private static final ReplicaProbe[] probes = new ReplicaProbe[N];
    /** The group client's node id: replicas are 0..N-1. */
    private static final int CLIENT = N;
    private static final String INTRUDER = "intruder";
    private static final String WSSE = "oasis-200401-wss-wssecurity-secext-1.0.xsd";
    private static final URI NOWHERE = URI.create("http://127.0.0.1:9/axis2/services/BftwsControl");
    /** The client's Ed25519 request key, for application messages the test builds itself. */
    private static Signer clientRequests;
    /** WS-Security with the client's X.509 key, and with another party's the replicas trust as well. */
    private static Path clientPolicy;
    private static Path intruderPolicy;
    private static final Path[] replicaPolicies = new Path[N];
    private static ServiceClient caller;
    private static int calls;
    private static final AtomicBoolean TAMPER = new AtomicBoolean();
    /** The group client's Axis2 context: bftws configured with client-1's key and its signing policy. */
    private static ConfigurationContext clientContext;
    /** Signs the client's CreateSequence, so the replicas' sequence ids cover it. */
    private static java.security.cert.X509Certificate clientCertificate;

    @BeforeClass
    public static void startSignedGroup() throws Exception {
        Path keys = GROUP_OF_FOUR.layout().keys();
        // The group's keystores where the group looks for them, and an intruder's that every party trusts too.
        List<String> parties = new ArrayList<>(List.of(GroupSecurity.CLIENT, INTRUDER));
        for (int r = 0; r < N; r++) {
            parties.add(GroupSecurity.replicaAlias(r));
        }
        GeneratedKeystores keystores = GeneratedKeystores.generate(keys, parties);
        clientCertificate = keystores.certificate(GroupSecurity.CLIENT);
        servers = GROUP_OF_FOUR.start().replicas();
        for (int r = 0; r < N; r++) {
            // the policy replica r signs with (GroupSecurity's), again for the test's own reply signers
            replicaPolicies[r] = SigningPolicy.write(TMP.newFolder("policy-of-replica" + r).toPath(), keystores,
                    GroupSecurity.replicaAlias(r), SigningPolicy.REQUEST_SIGNER);
            probes[r] = new ReplicaProbe().installOn(servers[r].context().getAxisConfiguration().getService("Echo")
                    .getOperation(ReplicaProbe.echo()));
        }
        // In transit to replica 0: before its Security phase, after the client's.
        transportPhase(servers[0].context()).addHandler(new ClientUuidTamperer());
        clientPolicy = SigningPolicy.write(TMP.newFolder("policy-of-client").toPath(), keystores,
                GroupSecurity.CLIENT, GroupSecurity.replicaAlias(0));
        intruderPolicy = SigningPolicy.write(TMP.newFolder(INTRUDER).toPath(), keystores, INTRUDER,
                GroupSecurity.replicaAlias(0));
        GroupKeys groupKeys = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        ClientKeys mine = KeyFiles.readClient(keys.resolve(KeyFiles.clientFileName(1)), groupKeys);
        clientRequests = Ed25519.signer(mine.signingKey());
        clientContext = GROUP_OF_FOUR.client("client").context();
        transportPhase(clientContext).addHandler(new ReplyTamperer());
    }

    @AfterClass
    public static void stop() throws Exception {
        if (caller != null) {
            caller.cleanup();
        }
    }

    /**
     * The client's signed CreateSequence creates its sequence on all four; voted echo calls follow; its signed
     * TerminateSequence ends it on all four.
     */
    @Test
    public void signedGroupServesVotedEchoCalls() throws Exception {
        ServiceClient client = new ServiceClient(clientContext, null);
        try {
            client.engageModule("bftws");
            Options options = client.getOptions();
            options.setTo(new EndpointReference(GROUP));
            options.setAction("urn:bftws:samples:echo:echo");
            options.setTimeOutInMilliSeconds(WAIT_MS);
            for (int call = 0; call < 5; call++) {
                String text = "signed-" + call;
                OMElement reply = client.sendReceive(echoRequest(text));
                Iterator<OMElement> items = reply.getChildElements();
                assertEquals(text, items.next().getText());
            }
            String sequence = GroupClientRuntime.sequenceId(client.getServiceContext());
            assertNotNull(sequence);
            RmSequences.awaitCreated(servers, sequence, WAIT_MS);
            // Its WS-Security signed TerminateSequence passes every replica's Rampart and ends it everywhere.
            GroupClients.terminate(client);
            for (int r = 0; r < N; r++) {
                int replica = r;
                Conditions.await("replica " + r + " terminated " + sequence, WAIT_MS,
                        () -> RmSequences.bean(servers[replica].context(), sequence).isTerminated());
            }
        } finally {
            client.cleanup();
        }
    }

    /**
     * A SOAP 1.2 ServiceClient: its CreateSequence and application messages are signed in SOAP 1.2 (the Body
     * reference in the SOAP 1.2 namespace), every replica's Rampart accepts them and each call is executed once.
     */
    @Test
    public void soap12ApplicationMessagesAreSignedAndServed() throws Exception {
        correctCall("warm-up");
        GroupState before = GroupState.of(servers, probes);
        ServiceClient soap12 = new ServiceClient(clientContext, null);
        try {
            soap12.engageModule("bftws");
            Options options = soap12.getOptions();
            options.setTo(new EndpointReference(GROUP));
            options.setAction(HostileInputs.ECHO_ACTION);
            options.setSoapVersionURI(SOAP12Constants.SOAP_ENVELOPE_NAMESPACE_URI);
            options.setTimeOutInMilliSeconds(WAIT_MS);
            for (int call = 0; call < 3; call++) {
                String text = "soap12-" + call;
                assertEquals(text, soap12.sendReceive(echoRequest(text)).getFirstElement().getText());
            }
        } finally {
            soap12.cleanup();
        }
        before.assertExecutedRequests("three signed SOAP 1.2 calls", servers, probes, 3);
    }

    /** A CreateSequence with a valid client UUID but no signature: a SOAP fault, no sequence. */
    @Test
    public void unsignedCreateSequenceIsRefused() throws Exception {
        int before = RmSequences.count(servers[1].context());
        UUID uuid = UUID.randomUUID();
        HttpResponse<String> rsp = RawSoap.createSequence(servers[1].serviceUrl("Echo"), uuid, "client=\"" + N + "\"");
        assertEquals(rsp.body(), 500, rsp.statusCode());
        assertTrue(rsp.body(), rsp.body().contains("Fault") && rsp.body().contains("Security header"));
        assertEquals("no sequence created", before, RmSequences.count(servers[1].context()));
        assertNull(RmSequences.bean(servers[1].context(), SequenceIds.derive(uuid, N, URI.create(GROUP), null)));
    }

    /**
     * A signed CreateSequence whose client UUID is changed on its way to replica 0 fails replica 0's signature
     * check (SOAP fault, nothing created there); the other three, f+1 and more, still agree on the id.
     */
    @Test
    public void createSequenceTamperedInTransitIsRefusedByThatReplica() throws Exception {
        UUID uuid = UUID.randomUUID();
        String expected = SequenceIds.derive(uuid, N, URI.create(GROUP), clientCertificate);
        int before = RmSequences.count(servers[0].context());
        BftwsConfig config = (BftwsConfig) clientContext.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        TAMPER.set(true);
        try {
            assertEquals(expected, SequenceEstablishment.establish(clientContext, config, N, uuid, WAIT_MS));
            for (int r = 1; r < N; r++) {
                int replica = r;
                Conditions.await("replica " + r + " created " + expected, WAIT_MS,
                        () -> RmSequences.bean(servers[replica].context(), expected) != null);
            }
            Conditions.await("replica 0 saw the tampered CreateSequence", WAIT_MS,
                    () -> ClientUuidTamperer.tampered.get() > 0);
        } finally {
            TAMPER.set(false);
        }
        assertEquals("replica 0 created nothing", before, RmSequences.count(servers[0].context()));
        assertNull(RmSequences.bean(servers[0].context(), expected));
    }

    /**
     * Application messages on the client's own sequence that its signed CreateSequence created: without a
     * WS-Security header, altered after signing (the payload, wsa:ReplyTo which the Ed25519 signature does not
     * cover, the message number), expired, or signed by another party the replicas trust: a SOAP fault from
     * every replica, nothing recorded by Sandesha2, nothing executed; the group keeps serving. The same
     * request correctly signed is then accepted and executed once.
     */
    @Test
    public void applicationMessagesNotSignedByTheSequenceCreatorAreRefused() throws Exception {
        correctCall("warm-up");
        String sequence = establishSequence();
        byte[] request = HostileInputs.signedEcho(clientRequests, CLIENT, sequence, 1, "signed-by-creator");
        String plain = HostileInputs.application(request, GROUP, NOWHERE);
        ApplicationMessageSigner client = signer(clientPolicy, Clock.systemUTC());
        String signed = wsSecured(client, plain);
        assertTrue("a WS-Security header: " + signed, signed.contains("Security") && signed.contains("BinarySecurityToken"));

        refused("no WS-Security header", sequence, plain, "Security header");
        refused("payload altered after signing", sequence, signed.replace("signed-by-creator", "signed-by-creatoR"),
                "signature or decryption was invalid");
        refused("wsa:ReplyTo altered after signing", sequence, signed.replace(NOWHERE.toString(),
                "http://127.0.0.1:10/axis2/services/BftwsControl"), "signature or decryption was invalid");
        refused("message number altered after signing", sequence, signed.replace(
                "<wsrm:MessageNumber>1<", "<wsrm:MessageNumber>2<"), "signature or decryption was invalid");
        refused("an expired timestamp", sequence, wsSecured(signer(clientPolicy,
                Clock.offset(Clock.systemUTC(), Duration.ofHours(-1))), plain), "expired");
        refused("signed by another trusted party", sequence, wsSecured(signer(intruderPolicy, Clock.systemUTC()),
                plain), "created by another party's certificate");

        GroupState before = GroupState.of(servers, probes);
        for (int r = 0; r < N; r++) {
            HttpResponse<String> rsp = RawSoap.post(servers[r].serviceUrl("Echo"), HostileInputs.ECHO_ACTION, signed);
            assertEquals("the creator's signed message at replica " + r + ": " + rsp.body(), 200, rsp.statusCode());
            // the acknowledgement, which nobody verifies, is left unsigned (RampartSigning)
            assertTrue(rsp.body(), rsp.body().contains("SequenceAcknowledgement") && !rsp.body().contains(WSSE));
        }
        before.assertExecutedRequests("the creator's signed message", servers, probes, 1);
        correctCall("the creator's signed message");
    }

    /** Posts {@code message} to every replica: a SOAP fault naming {@code reason}, nothing recorded or executed. */
    private static void refused(String what, String sequence, String message, String reason) throws Exception {
        GroupState before = GroupState.of(servers, probes);
        for (int r = 0; r < N; r++) {
            HttpResponse<String> rsp = RawSoap.post(servers[r].serviceUrl("Echo"), HostileInputs.ECHO_ACTION, message);
            assertEquals(what + " at replica " + r + ": " + rsp.body(), 500, rsp.statusCode());
            assertTrue(what + " at replica " + r + ": " + rsp.body(), rsp.body().contains("Fault")
                    && rsp.body().contains(reason));
            assertTrue(what + ": replica " + r + " knows the sequence",
                    RmSequences.bean(servers[r].context(), sequence) != null);
            assertTrue(what + ": nothing recorded by replica " + r,
                    !RecordedMessages.recorded(servers[r].context(), sequence, 1));
        }
        correctCall(what);
        before.assertOnlyOneMoreExecuted(what, servers, probes);
    }

    private static ApplicationMessageSigner signer(Path policy, Clock clock) throws Exception {
        return ApplicationMessageSigner.of(RampartSigning.load(policy), clock);
    }

    private static String wsSecured(ApplicationMessageSigner signer, String envelope) {
        return new String(signer.apply(envelope.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }

    /** A voted echo call through the group on the test's ServiceClient (its own signed sequence). */
    private static void correctCall(String after) throws Exception {
        if (caller == null) {
            caller = new ServiceClient(clientContext, null);
            caller.engageModule("bftws");
            Options options = caller.getOptions();
            options.setTo(new EndpointReference(GROUP));
            options.setAction(HostileInputs.ECHO_ACTION);
            options.setTimeOutInMilliSeconds(WAIT_MS);
        }
        String text = "call " + (++calls) + " after " + after;
        assertEquals(text, caller.sendReceive(echoRequest(text)).getFirstElement().getText());
    }

    private static String establishSequence() throws Exception {
        BftwsConfig config = (BftwsConfig) clientContext.getProperty(BftwsRuntime.CONFIG_PROPERTY);
        String id = SequenceEstablishment.establish(clientContext, config, N, UUID.randomUUID(), WAIT_MS);
        RmSequences.awaitCreated(servers, id, WAIT_MS);
        return id;
    }

    /**
     * Replies are WS-Security signed by their replica and checked on the client's control port before the
     * Voter: replica 3's replies unsigned, signed with replica 0's certificate, with another trusted party's,
     * expired, or altered in transit are refused (counted against replica 3 only), and each call is still voted
     * from the other three; with its own key again, its replies are accepted.
     */
    @Test
    public void repliesNotSignedByTheirReplicaAreOutvoted() throws Exception {
        correctCall("signed replies");
        GroupClientRuntime runtime = BftwsRuntime.runningClient(clientContext);
        Clock now = Clock.systemUTC();
        long[] before = refusedReplies(runtime);
        try {
            outvoted(runtime, "unsigned replies", null);
            outvoted(runtime, "replies signed by replica 0's certificate", replySigner(replicaPolicies[0], now));
            outvoted(runtime, "replies signed by intruder", replySigner(intruderPolicy, now));
            outvoted(runtime, "expired replies", replySigner(replicaPolicies[3], Clock.offset(now, Duration.ofHours(-1))));
            ReplyTamperer.victim = 3;
            outvoted(runtime, "replies altered in transit", replySigner(replicaPolicies[3], now));
            // the refusal outvoted waited for may be a late reply of the step before (a call can draw more than
            // one message from a replica): wait for replica 3's reply of this step to pass the tamperer
            Conditions.await("a reply of replica 3 altered in transit", WAIT_MS, () -> ReplyTamperer.tampered.get() > 0);
            assertTrue(ReplyTamperer.tampered.get() > 0);
        } finally {
            ReplyTamperer.victim = -1;
            BftwsRuntime.replica(servers[3].context()).manager().signRepliesWith(replySigner(replicaPolicies[3], now));
        }
        // a reply replica 3 signed the old way may still be on its way (a call can draw more than one message
        // from a replica): let one call go by before counting
        correctCall("replica 3 signing its replies again");
        long refused = runtime.refusedReplies(3);
        correctCall("replica 3 signing its replies again, counted");
        assertEquals("replica 3's signed reply accepted", refused, runtime.refusedReplies(3));
        long[] after = refusedReplies(runtime);
        for (int r = 0; r < 3; r++) {
            assertEquals("replica " + r + "'s replies refused", before[r], after[r]);
        }
    }

    /** Replica 3 signs its replies with {@code signer} (none if null); the call is voted without it. */
    private static void outvoted(GroupClientRuntime runtime, String what, ApplicationMessageSigner signer)
            throws Exception {
        long before = runtime.refusedReplies(3);
        BftwsRuntime.replica(servers[3].context()).manager().signRepliesWith(signer);
        correctCall(what);
        Conditions.await("replica 3's " + what + " refused", WAIT_MS, () -> runtime.refusedReplies(3) > before);
    }

    private static long[] refusedReplies(GroupClientRuntime runtime) {
        long[] refused = new long[N];
        for (int r = 0; r < N; r++) {
            refused[r] = runtime.refusedReplies(r);
        }
        return refused;
    }

    private static ApplicationMessageSigner replySigner(Path policy, Clock clock) throws Exception {
        return ApplicationMessageSigner.forReplies(RampartSigning.load(policy), clock);
    }

    /** A signing policy whose ramp:user has no key in its keystore is refused when the signer is made. */
    @Test
    public void signingPolicyWithoutItsKeyIsRefusedUpFront() throws Exception {
        Path wrong = TMP.newFolder("wrong-user").toPath().resolve("policy.xml");
        java.nio.file.Files.writeString(wrong, java.nio.file.Files.readString(clientPolicy)
                .replace("<ramp:user>client</ramp:user>", "<ramp:user>nobody</ramp:user>"));
        try {
            signer(wrong, Clock.systemUTC());
            fail("a signer without a private key was made");
        } catch (BftwsConfigException e) {
            assertEquals("bftws.security.policy", e.key());
            assertTrue(e.getMessage(), e.getMessage().contains("nobody"));
        }
    }

    /** Signing asked for but rampart.mar missing: start-up stops naming the key, nothing serves unsigned. */
    @Test
    public void replicaWithoutRampartModuleDoesNotStart() throws Exception {
        Axis2Repository repo = TestRepositories.replica(TMP.newFolder("no-rampart").toPath(),
                GROUP_OF_FOUR.axis2Xml(0));
        try {
            repo.createConfigurationContext().terminate();
            fail("a replica with bftws.security=rampart started without rampart.mar");
        } catch (Exception e) {
            Throwable c = e;
            while (c != null && !(c instanceof BftwsConfigException)) {
                c = c.getCause();
            }
            assertTrue("stopped by a BftwsConfigException: " + e, c != null);
            assertEquals("bftws.security", ((BftwsConfigException) c).key());
            assertTrue(c.getMessage(), c.getMessage().contains("rampart.mar"));
        }
    }

    private static OMElement echoRequest(String text) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NS, "e");
        OMElement request = f.createOMElement("echo", ns);
        OMElement item = f.createOMElement("item", ns);
        item.setText(text);
        request.addChild(item);
        return request;
    }

    private static Phase transportPhase(ConfigurationContext context) {
        for (Object p : context.getAxisConfiguration().getInFlowPhases()) {
            if (((Phase) p).getPhaseName().equals("Transport")) {
                return (Phase) p;
            }
        }
        throw new AssertionError("no Transport phase");
    }

    /** Replaces the client UUID of a CreateSequence with another one, after the client signed the body. */
    static final class ClientUuidTamperer extends AbstractHandler {
        static final java.util.concurrent.atomic.AtomicInteger tampered = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public InvocationResponse invoke(MessageContext mc) {
            OMElement cs = mc.getEnvelope().getBody().getFirstElement();
            if (TAMPER.get() && cs != null && "CreateSequence".equals(cs.getLocalName())) {
                Iterator<OMElement> it = cs.getChildrenWithLocalName("ClientUUID");
                if (it.hasNext()) {
                    it.next().setText(UUID.randomUUID().toString());
                    tampered.incrementAndGet();
                }
            }
            return InvocationResponse.CONTINUE;
        }
    }
}
