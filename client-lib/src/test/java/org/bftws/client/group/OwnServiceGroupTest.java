package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.bftws.module.testing.Conditions;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameter;
import org.junit.runners.Parameterized.Parameters;

/**
 * A key-value service of one's own, written as a user writes it (an Axis2 POJO with RPC message receivers, or
 * an AXIOM service), compiled by the test with plain javac options and deployed from an {@code .aar} without a
 * WSDL on a {@link LaunchedGroup}: calls through the group are voted, checkpoints capture its state and become
 * stable (the replicas' states agree, paper §3.3.1.8), and its state capture and install methods, under the
 * Java names of {@code StatefulService} or the paper's {@code get_state}/{@code set_state}, are refused to a
 * client under every action that names them, ordered, read-only and sent straight to a replica, change nothing,
 * and are not in the served WSDL.
 */
@RunWith(Parameterized.class)
public class OwnServiceGroupTest {
    /** How a variant's requests look and which state operations it has. */
    private enum Kind {
        POJO_STATEFUL("kv.KeyValue", List.of("kv/KeyValue.java"), UserServices.RPC, "http://kv",
                List.of("getState", "setState")),
        AXIOM_STATEFUL("kv.AxiomStatefulKeyValue", List.of("kv/AxiomKeyValue.java", "kv/AxiomStatefulKeyValue.java"),
                UserServices.AXIOM, "urn:test:kv", List.of("getState", "setState")),
        AXIOM_PAPER_NAMES("kv.AxiomKeyValue", List.of("kv/AxiomKeyValue.java"), UserServices.AXIOM, "urn:test:kv",
                List.of("get_state", "set_state"));

        final String className;
        final List<String> sources;
        final String receivers;
        final String namespace;
        final List<String> stateOperations;

        Kind(String className, List<String> sources, String receivers, String namespace, List<String> stateOperations) {
            this.className = className;
            this.sources = sources;
            this.receivers = receivers;
            this.namespace = namespace;
            this.stateOperations = stateOperations;
        }
    }

    @Parameters(name = "{0}")
    public static List<Object[]> kinds() {
        return List.of(new Object[] {Kind.POJO_STATEFUL}, new Object[] {Kind.AXIOM_STATEFUL},
                new Object[] {Kind.AXIOM_PAPER_NAMES});
    }

    @Parameter(0)
    public Kind kind;

    private static final String SERVICE = "KeyValue";
    private static final String ENDPOINT = GroupLauncher.GROUP_ENDPOINT.substring(0,
            GroupLauncher.GROUP_ENDPOINT.lastIndexOf('/') + 1) + SERVICE;
    private static final long WAIT_MS = 30_000;
    /** Checkpoints every 4 batches; a read-only call that is refused the unordered path is ordered soon. */
    private static final String FAST = GroupLauncher.param("bftws.checkpointInterval", "4")
            + GroupLauncher.param("bftws.clientRetransmitTicks", "10");

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).randomness("none").parameters(FAST)
            .clientParameters(FAST);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    private ServiceClient client;

    @After
    public void closeClient() throws Exception {
        if (client != null) {
            client.cleanup();
        }
    }

    @Test
    public void votedCallsAgreedCheckpointsAndStateMethodsRefusedToClients() throws Exception {
        group.service(UserServices.aar(tmp.newFolder("aar").toPath(), SERVICE, kind.className, kind.sources,
                kind.receivers)).start();
        client = GroupClients.create(group.client("client").context(), ENDPOINT, "urn:put", WAIT_MS);
        assertEquals("", put("k1", "v1"));
        assertEquals("v1", put("k1", "v2"));
        assertEquals("", put("k2", "x"));
        assertEquals("v2", get("k1"));

        for (String op : kind.stateOperations) {
            for (boolean readOnly : new boolean[] {false, true}) {
                GroupClients.readOnly(client, readOnly);
                assertRefused(op + (readOnly ? " read-only" : " ordered"), "urn:" + op, forged(op), "reserved");
                assertRefused(op + " by its name" + (readOnly ? ", read-only" : ""), op, forged(op), "reserved");
            }
        }
        GroupClients.readOnly(client, false);
        assertEquals("the forged states changed nothing", "v2", get("k1"));
        assertEquals("", get("k3"));

        // 4 puts, 3 gets, 8 refusals ordered (read-only ones fall back to ordering): checkpoints at 4, 8, ...
        // become stable only if 2f+1 replicas captured the same state
        for (int r = 0; r < LaunchedGroup.N; r++) {
            int id = r;
            Conditions.await("replica " + r + " has a stable checkpoint at 8", WAIT_MS,
                    () -> group.manager(id).stableCheckpoint() >= 8);
        }

        for (String op : kind.stateOperations) {
            sentToOneReplica(op);
        }
        String wsdl = wsdl();
        assertTrue(wsdl, wsdl.contains("\"put\""));
        for (String op : List.of("getState", "setState", "get_state", "set_state")) {
            assertFalse(op + " is not offered in ?wsdl: " + wsdl, wsdl.contains(op));
        }
    }

    private String put(String key, String value) throws AxisFault {
        return call("urn:put", request("put", key, value));
    }

    private String get(String key) throws AxisFault {
        return call("urn:get", request("get", key, null));
    }

    private String call(String action, OMElement request) throws AxisFault {
        client.getOptions().setAction(action);
        OMElement reply = client.sendReceive(request);
        OMElement wrapped = reply.getFirstElement(); // POJO: <putResponse><return>...</return></putResponse>
        return wrapped != null ? wrapped.getText() : reply.getText();
    }

    /** A request of the variant: POJO parameters are args0, args1 (no names in plain javac output). */
    private OMElement request(String operation, String key, String value) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(kind.namespace, "kv");
        OMElement e = f.createOMElement(operation, ns);
        boolean pojo = kind == Kind.POJO_STATEFUL;
        f.createOMElement(pojo ? "args0" : "key", ns, e).setText(key);
        if (value != null) {
            f.createOMElement(pojo ? "args1" : "value", ns, e).setText(value);
        }
        return e;
    }

    /** What a client would send to read the state, or to replace it by one where k1 is "forged". */
    private OMElement forged(String op) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(kind.namespace, "kv");
        OMElement e = f.createOMElement(op, ns);
        if (op.equals("setState")) {
            String state = kind == Kind.POJO_STATEFUL
                    ? Base64.getEncoder().encodeToString(new byte[] {0, 0, 0, 1, 0, 2, 'k', '1', 0, 6,
                        'f', 'o', 'r', 'g', 'e', 'd'})
                    : "k1=forged";
            f.createOMElement("args0", ns, e).setText(state);
        } else if (op.equals("set_state")) {
            OMElement entry = f.createOMElement("entry", ns, e);
            entry.addAttribute("key", "k1", null);
            entry.setText("forged");
        }
        return e;
    }

    private void assertRefused(String what, String action, OMElement payload, String reason) {
        client.getOptions().setAction(action);
        try {
            OMElement reply = client.sendReceive(payload);
            fail(what + ": a client reached a state method through the group: " + reply);
        } catch (AxisFault e) {
            assertTrue(what + ": " + e.getMessage(), e.getMessage().contains(reason));
        }
    }

    /** A plain client (bftws not engaged) sends the state operation to replica 0's own endpoint. */
    private void sentToOneReplica(String op) throws Exception {
        ServiceClient direct = new ServiceClient(group.client("direct-" + op).context(), null);
        try {
            direct.getOptions().setTo(new EndpointReference(GroupLauncher.serviceUrl(group.ports()[0], SERVICE)));
            direct.getOptions().setAction("urn:" + op);
            direct.getOptions().setTimeOutInMilliSeconds(WAIT_MS);
            direct.sendReceive(forged(op));
            fail(op + " sent to one replica was answered");
        } catch (AxisFault e) {
            assertFalse(op + " sent to one replica: " + e.getMessage(), e.getMessage().isEmpty());
        } finally {
            direct.cleanup();
        }
    }

    private String wsdl() throws Exception {
        URI uri = URI.create(GroupLauncher.serviceUrl(group.ports()[0], SERVICE) + "?wsdl");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(uri + " answers 200", 200, response.statusCode());
        return response.body();
    }
}
