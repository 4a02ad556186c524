package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.bftws.module.testing.Conditions;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Three-tier interactions (BFT-WS paper §3.4): a ServiceClient → 4 middle replicas running relay.aar →
 * 4 backend replicas, all over loopback HTTP in this JVM. Each middle replica relays as a member of one
 * replicated client of the backend (own key, own reply listener, one shared sequence): the backend orders a
 * nested request once 2 middle replicas sent it identically and executes it once; the reply the outer
 * client gets is voted twice (backend replies at each middle replica, middle replies at the client).
 */
public class ThreeTierGroupTest {
    private static final long WAIT_MS = 60_000;
    private static final String ECHO_NS = GroupLauncher.ECHO_NS;

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(240);

    private ThreeTierGroups tiers;
    private EmbeddedAxis2Server listener;
    private ServiceClient client;

    @After
    public void stop() throws Exception {
        if (client != null) {
            client.cleanup();
        }
        if (listener != null) {
            listener.close();
        }
        if (tiers != null) {
            tiers.close();
        }
    }

    @Test
    public void votedRepliesThroughTwoGroupsAlsoWithOneReplicaOfEachDown() throws Exception {
        Path artifacts = Path.of(System.getProperty("bftws.test.artifacts"));
        Path conf = Path.of(System.getProperty("bftws.conf"));
        tiers = ThreeTierGroups.start(artifacts, conf, tmp.newFolder("tiers").toPath());
        RandomProbe[] backendEchoes = new RandomProbe[ThreeTierGroups.N];
        RandomProbe[] middleEchoes = new RandomProbe[ThreeTierGroups.N];
        for (int r = 0; r < ThreeTierGroups.N; r++) {
            backendEchoes[r] = RandomProbe.on(tiers.backend(r).context().getAxisConfiguration(), "Echo", "echo");
            middleEchoes[r] = RandomProbe.on(tiers.middle(r).context().getAxisConfiguration(), "Relay", "echo");
        }
        listener = tiers.client(artifacts, conf, tmp.newFolder("client").toPath());
        client = GroupClients.create(listener.context(), ThreeTierGroups.MIDDLE_ENDPOINT, GroupLauncher.ECHO_ACTION,
                WAIT_MS);

        for (int c = 1; c <= 5; c++) {
            List<String> items = List.of("healthy-" + c + "-a", "healthy-" + c + "-b", "healthy-" + c + "-c");
            assertEquals(items, echo(items));
        }
        await("every middle replica relayed 5 requests", () -> RandomProbe.allSeen(middleEchoes, 5));
        // One replicated client: each relayed request runs once at each backend replica, whatever 4 copies came.
        await("every backend replica executed the 5 nested requests", () -> RandomProbe.allSeen(backendEchoes, 5));
        for (RandomProbe p : backendEchoes) {
            assertEquals("one execution per relayed request", 5, p.seen().size());
        }

        tiers.stopBackend(3);
        tiers.stopMiddle(3);
        for (int c = 1; c <= 5; c++) {
            List<String> items = List.of("degraded-" + c, "x".repeat(c));
            assertEquals(items, echo(items));
        }
        RandomProbe[] liveBackend = {backendEchoes[0], backendEchoes[1], backendEchoes[2]};
        await("the three live backend replicas executed 5 more", () -> RandomProbe.allSeen(liveBackend, 10));
        for (RandomProbe p : liveBackend) {
            assertEquals("one execution per relayed request", 10, p.seen().size());
        }
    }

    /**
     * The filter with a non-idempotent backend (§3.4): each call through the relay increments the counter by
     * its amount exactly once, while middle replica 3 is Byzantine (its nested requests carry 999 wherever the
     * caller's had text) and backend replica 3 is down. Its altered copies are one vote each: the backend waits
     * for 2 identical copies, which only the correct middle replicas' requests get.
     */
    @Test
    public void aCounterBehindTheRelayCountsEachCallOnceDespiteAByzantineMiddleReplicaAndABackendReplicaDown()
            throws Exception {
        Path artifacts = Path.of(System.getProperty("bftws.test.artifacts"));
        Path conf = Path.of(System.getProperty("bftws.conf"));
        tiers = ThreeTierGroups.start(artifacts, conf, tmp.newFolder("tiers").toPath(),
                ThreeTierGroups.Backend.COUNTER, Set.of(3));
        tiers.stopBackend(3);
        RandomProbe[] increments = new RandomProbe[3];
        for (int r = 0; r < 3; r++) {
            increments[r] = RandomProbe.on(tiers.backend(r).context().getAxisConfiguration(), "Counter", "increment");
        }
        listener = tiers.client(artifacts, conf, tmp.newFolder("client").toPath());
        client = GroupClients.create(listener.context(), ThreeTierGroups.MIDDLE_ENDPOINT, GroupLauncher.ECHO_ACTION,
                WAIT_MS);
        for (int c = 1; c <= 5; c++) {
            assertEquals("the counter after call " + c + " of amount 1", c, increment(1));
        }
        await("the live backend replicas executed the 5 increments", () -> RandomProbe.allSeen(increments, 5));
        assertEquals("and the next call finds exactly 5 executed before it", 6, increment(1));
        await("the live backend replicas executed the 6th increment", () -> RandomProbe.allSeen(increments, 6));
        for (RandomProbe p : increments) {
            assertEquals("one execution per call at each backend replica", 6, p.seen().size());
        }
    }

    /**
     * The backend's voted fault becomes the same fault at every middle replica (a deterministic function of
     * the backend's answer), so the middle replicas still agree and the client gets it as an AxisFault;
     * the tiers keep serving.
     */
    @Test
    public void aVotedBackendFaultReachesTheClientAsTheMiddleTiersVotedFault() throws Exception {
        Path artifacts = Path.of(System.getProperty("bftws.test.artifacts"));
        Path conf = Path.of(System.getProperty("bftws.conf"));
        tiers = ThreeTierGroups.start(artifacts, conf, tmp.newFolder("tiers").toPath(),
                ThreeTierGroups.Backend.ECHO.withAction("urn:bftws:samples:echo:noSuchOperation"), Set.of());
        listener = tiers.client(artifacts, conf, tmp.newFolder("client").toPath());
        client = GroupClients.create(listener.context(), ThreeTierGroups.MIDDLE_ENDPOINT, GroupLauncher.ECHO_ACTION,
                WAIT_MS);
        for (int c = 0; c < 2; c++) {
            try {
                echo(List.of("refused-" + c));
                fail("the backend has no such operation, yet the relay answered");
            } catch (AxisFault expected) {
                assertTrue(expected.getMessage(), expected.getMessage().startsWith("backend fault: "));
            }
        }
    }

    /** One call of the middle group's echo; the voted reply's item texts. */
    private List<String> echo(List<String> items) throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement request = f.createOMElement("echo", f.createOMNamespace(ECHO_NS, "e"));
        for (String text : items) {
            f.createOMElement("item", request.getNamespace(), request).setText(text);
        }
        OMElement reply = client.sendReceive(request);
        assertEquals("echoResponse", reply.getLocalName());
        assertEquals(ECHO_NS, reply.getNamespace().getNamespaceURI());
        List<String> texts = new ArrayList<>();
        Iterator<OMElement> it = reply.getChildElements();
        while (it.hasNext()) {
            texts.add(it.next().getText());
        }
        return texts;
    }

    /** One call of the middle group carrying a counter increment, relayed to the counter; the new value. */
    private long increment(int amount) throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement request = f.createOMElement("increment", f.createOMNamespace(GroupLauncher.COUNTER_NS, "c"));
        f.createOMElement("amount", request.getNamespace(), request).setText(Integer.toString(amount));
        OMElement reply = client.sendReceive(request);
        assertEquals("incrementResponse", reply.getLocalName());
        return Long.parseLong(reply.getFirstElement().getText());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }
}
