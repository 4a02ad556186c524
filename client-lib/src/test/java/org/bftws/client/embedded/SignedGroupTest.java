package org.bftws.client.embedded;

import static org.bftws.client.embedded.TestRepositories.param;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.security.GeneratedKeystores;
import org.bftws.client.security.SigningPolicy;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.BftwsRuntime;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.module.client.SequenceEstablishment;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.rm.SequenceIds;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * {@code bftws.security=rampart} (paper §3.3.1: client↔replica messages under WS-Security): four replicas and
 * a client, each with its own X.509 keystore generated at run time and the WS-SecurityPolicy of
 * {@link SigningPolicy}. The client's CreateSequence is signed and the replicas' answers too; the group
 * serves voted echo calls. An unsigned CreateSequence (with a valid client UUID) and one altered in transit
 * after signing are refused with a SOAP fault and create no sequence. Real HTTP on 127.0.0.1.
 */
public class SignedGroupTest {
    private static final String NS = "urn:bftws:samples:echo";
    private static final String GROUP = "http://echo.group.example/axis2/services/Echo";
    private static final int N = 4;
    private static final long WAIT_MS = 30_000;

    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    private static final EmbeddedAxis2Server[] servers = new EmbeddedAxis2Server[N];
    private static final AtomicBoolean TAMPER = new AtomicBoolean();
    private static EmbeddedAxis2Server clientServer;
    /** Replica 0's axis2.xml, for a second start without rampart.mar. */
    private static Path replica0Xml;

    @BeforeClass
    public static void startSignedGroup() throws Exception {
        Path keys = TMP.newFolder("keys").toPath();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(log.toString(), 0, KeyGen.run(new String[] {"--out", keys.toString(), "--replicas", "4",
            "--clients", "1"}, new SecureRandom(), new PrintStream(log), new PrintStream(log)));
        Path x509 = TMP.newFolder("x509").toPath();
        List<String> parties = new ArrayList<>(List.of("client"));
        for (int r = 1; r <= N; r++) {
            parties.add("replica-" + r);
        }
        GeneratedKeystores keystores = GeneratedKeystores.generate(x509, parties);

        int[] ports = GroupLauncher.freePorts(N);
        StringBuilder replicas = new StringBuilder();
        for (int r = 0; r < N; r++) {
            replicas.append(r).append("=http://127.0.0.1:").append(ports[r]).append("/axis2/services/Echo ");
        }
        String group = param("bftws.replicated", "true") + param("bftws.group.endpoint", GROUP)
                + param("bftws.replicas", replicas.toString().trim())
                + param("bftws.keys.public", keys.resolve(KeyFiles.GROUP_FILE).toString())
                + param("bftws.security", "rampart");
        for (int r = 0; r < N; r++) {
            Path dir = TMP.newFolder("replica" + r).toPath();
            Path policy = SigningPolicy.write(dir, keystores, "replica-" + (r + 1), SigningPolicy.REQUEST_SIGNER);
            Path xml = TestRepositories.replicaXmlWith(dir.resolve("conf"), group
                    + param("bftws.replica.id", String.valueOf(r))
                    + param("bftws.keys.private", keys.resolve(KeyFiles.replicaFileName(r + 1)).toString())
                    + param("bftws.security.policy", policy.toString()));
            servers[r] = EmbeddedAxis2Server.start(TestRepositories.replica(dir.resolve("repository"), xml,
                    "rampart"), ports[r]);
            if (r == 0) {
                replica0Xml = xml;
            }
        }
        // In transit to replica 0: before its Security phase, after the client's.
        transportPhase(servers[0]).addHandler(new ClientUuidTamperer());
        Path clientDir = TMP.newFolder("client").toPath();
        Path clientPolicy = SigningPolicy.write(clientDir, keystores, "client", "replica-1");
        clientServer = EmbeddedAxis2Server.start(TestRepositories.listeningClient(clientDir,
                group + param("bftws.role", "client")
                        + param("bftws.keys.private", keys.resolve(KeyFiles.clientFileName(1)).toString())
                        + param("bftws.security.policy", clientPolicy.toString()), "rampart"));
    }

    @AfterClass
    public static void stop() throws Exception {
        EmbeddedAxis2Server.closeAll(clientServer);
        EmbeddedAxis2Server.closeAll(servers);
    }

    /** The client's signed CreateSequence creates its sequence on all four; voted echo calls follow. */
    @Test
    public void signedGroupServesVotedEchoCalls() throws Exception {
        ServiceClient client = new ServiceClient(clientServer.context(), null);
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
            for (int r = 0; r < N; r++) {
                int replica = r;
                Conditions.await("replica " + r + " created " + sequence, WAIT_MS,
                        () -> RmSequences.bean(servers[replica].context(), sequence) != null);
            }
        } finally {
            client.cleanup();
        }
    }

    /** A CreateSequence with a valid client UUID but no signature: a SOAP fault, no sequence. */
    @Test
    public void unsignedCreateSequenceIsRefused() throws Exception {
        int before = RmSequences.count(servers[1].context());
        UUID uuid = UUID.randomUUID();
        HttpResponse<String> rsp = RawSoap.createSequence(servers[1].serviceUrl("Echo"), uuid);
        assertEquals(rsp.body(), 500, rsp.statusCode());
        assertTrue(rsp.body(), rsp.body().contains("Fault") && rsp.body().contains("Security header"));
        assertEquals("no sequence created", before, RmSequences.count(servers[1].context()));
        assertNull(RmSequences.bean(servers[1].context(), SequenceIds.derive(uuid, URI.create(GROUP))));
    }

    /**
     * A signed CreateSequence whose client UUID is changed on its way to replica 0 fails replica 0's signature
     * check (SOAP fault, nothing created there); the other three, f+1 and more, still agree on the id.
     */
    @Test
    public void createSequenceTamperedInTransitIsRefusedByThatReplica() throws Exception {
        UUID uuid = UUID.randomUUID();
        String expected = SequenceIds.derive(uuid, URI.create(GROUP));
        int before = RmSequences.count(servers[0].context());
        BftwsConfig config = (BftwsConfig) clientServer.context().getProperty(BftwsRuntime.CONFIG_PROPERTY);
        TAMPER.set(true);
        try {
            assertEquals(expected, SequenceEstablishment.establish(clientServer.context(), config, uuid, WAIT_MS));
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

    /** Signing asked for but rampart.mar missing: start-up stops naming the key, nothing serves unsigned. */
    @Test
    public void replicaWithoutRampartModuleDoesNotStart() throws Exception {
        Axis2Repository repo = TestRepositories.replica(TMP.newFolder("no-rampart").toPath(), replica0Xml);
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

    private static Phase transportPhase(EmbeddedAxis2Server server) {
        for (Object p : server.context().getAxisConfiguration().getInFlowPhases()) {
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
