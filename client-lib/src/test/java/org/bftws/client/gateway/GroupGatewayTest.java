package org.bftws.client.gateway;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.axis2.client.ServiceClient;
import org.bftws.client.embedded.Axis2Server;
import org.bftws.client.embedded.ReplicaProbe;
import org.bftws.client.group.DemoClient;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.GroupSecurity;
import org.bftws.client.group.LaunchedGroup;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * The voting gateway in front of a {@link LaunchedGroup} (CT randomness): zeep, a Python SOAP client that knows
 * nothing of BFT-WS, reads the services' WSDL from the gateway and calls echo, the counter and the randomized
 * dealer through it; a Byzantine replica's wrong echo replies are out-voted; with a replica stopped the calls
 * still succeed; SOAP 1.2 and bad requests are answered as they should be; the sequence pool is bounded.
 */
public class GroupGatewayTest {
    private static final int N = LaunchedGroup.N;
    private static final long PYTHON_WAIT_SECONDS = 300;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(600);

    private Axis2Server clientInstance;
    private GroupGateway gateway;
    private final HttpClient http = HttpClient.newHttpClient();

    @After
    public void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (clientInstance != null) {
            clientInstance.close();
        }
    }

    @Test
    public void zeepCallsTheGroupThroughTheGatewayDespiteALiarAndADeadReplica() throws Exception {
        String python = python(); // before the group: a first run installs zeep
        start(8);
        ReplicaProbe liar = new ReplicaProbe().installOn(group.replica(N - 1).context().getAxisConfiguration()
                .getService("Echo").getOperation(ReplicaProbe.echo()));

        String wsdl = get(gateway.serviceUrl("Echo") + "?wsdl");
        assertTrue("the WSDL names the gateway", wsdl.contains(gateway.serviceUrl("Echo")));
        assertTrue("not the group", !wsdl.contains(GroupLauncher.GROUP_ENDPOINT));

        List<String> lines = zeep(python, "first", 3);
        assertEquals(lines.toString(), List.of("echo first-0-a first-0-b", "echo first-1-a first-1-b",
                "echo first-2-a first-2-b", "counter 1", "counter 3", "counter 6", "deal 52 52"), lines);

        liar.tamper(true);
        List<String> outvoted = zeep(python, "liar", 2);
        assertEquals(outvoted.toString(), "echo liar-0-a liar-0-b", outvoted.get(0));
        assertEquals(outvoted.toString(), "echo liar-1-a liar-1-b", outvoted.get(1));
        assertTrue("the Byzantine replica answered wrongly", liar.tampered() >= 2);

        group.stop(N - 1);
        List<String> dead = zeep(python, "dead", 2);
        assertEquals(dead.toString(), List.of("echo dead-0-a dead-0-b", "echo dead-1-a dead-1-b", "counter 10",
                "counter 12", "deal 52 52"), dead);
        assertEquals(0, gateway.metrics().calls("Echo", GatewayMetrics.Outcome.FAULT));
        assertTrue(gateway.metrics().calls("Echo", GatewayMetrics.Outcome.OK) >= 7);
        String metrics = get("http://127.0.0.1:" + gateway.port() + "/metrics");
        assertTrue(metrics, metrics.contains("bftws_gateway_calls_total{service=\"Counter\",outcome=\"ok\"} 7"));
    }

    @Test
    public void soap12AndBadRequestsGetTheirAnswersAndThePoolIsBounded() throws Exception {
        start(2);
        String soap12 = "<env:Envelope xmlns:env='http://www.w3.org/2003/05/soap-envelope'><env:Body>"
                + "<e:echo xmlns:e='urn:bftws:samples:echo'><e:item>twelve</e:item></e:echo></env:Body></env:Envelope>";
        HttpResponse<String> ok = post(soap12, "application/soap+xml; charset=utf-8; action=\""
                + GroupLauncher.ECHO_ACTION + "\"");
        assertEquals(ok.body(), 200, ok.statusCode());
        assertTrue(ok.body(), ok.body().contains("http://www.w3.org/2003/05/soap-envelope")
                && ok.body().contains(">twelve<"));

        HttpResponse<String> notSoap = post("<echo/>", "text/xml");
        assertEquals(400, notSoap.statusCode());
        assertTrue(notSoap.body(), notSoap.body().contains("<faultcode>soapenv:Client</faultcode>"));
        HttpResponse<String> dtd = post("<!DOCTYPE x [<!ENTITY e 'x'>]><x>&e;</x>", "text/xml");
        assertEquals(400, dtd.statusCode());
        HttpResponse<String> type = post(soap12, "application/json");
        assertEquals(415, type.statusCode());
        assertEquals(3, gateway.metrics().calls("Echo", GatewayMetrics.Outcome.BAD_REQUEST));

        // the pool's bound: with both sequences taken, a third waits and is refused
        SequencePool pool = new SequencePool(clientInstance.context(), 2, 20_000);
        String echo = "http://echo.group.example/axis2/services/Echo";
        ServiceClient a = pool.acquire(echo, 0);
        ServiceClient b = pool.acquire(echo, 0);
        assertNotNull(a);
        assertNotNull(b);
        assertNull("all sequences in use", pool.acquire(echo, 50));
        assertEquals(2, pool.inUse());
        pool.release(echo, a, true);
        assertEquals("the idle sequence is reused", a, pool.acquire(echo, 0));
        assertEquals(2, pool.open());
        pool.release(echo, a, true);
        pool.release(echo, b, false);
        assertEquals(1, pool.open());
        pool.close();
    }

    private void start(int sequences) throws Exception {
        group.randomness("ct").start();
        int[] ports = group.ports();
        clientInstance = DemoClient.clientInstance(GroupLauncher.Container.AXIS2, ports, group.layout(),
                tmp.newFolder("gateway").toPath(), GroupSecurity.NONE, "", 1);
        List<URI> replicas = new ArrayList<>();
        for (int port : ports) {
            replicas.add(URI.create("http://127.0.0.1:" + port + GroupGateway.SERVICES_PATH));
        }
        gateway = GroupGateway.start(clientInstance.context(), replicas, (N - 1) / 3,
                List.of("Echo", "Counter", "Dealer"), new GroupGateway.Settings("127.0.0.1", 0, sequences, 2_000,
                        20_000, 1 << 20));
    }

    private List<String> zeep(String python, String label, int calls) throws Exception {
        Path script = Path.of(getClass().getResource("/gateway/zeep_calls.py").toURI());
        Process p = new ProcessBuilder(python, script.toString(), "http://127.0.0.1:" + gateway.port()
                + GroupGateway.SERVICES_PATH, label, Integer.toString(calls)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue("zeep ended", p.waitFor(PYTHON_WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(out, 0, p.exitValue());
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The venv python with zeep, made by scripts/python-soap (pip, on first use). */
    private static String python() throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("bftws.conf", "../conf")).toAbsolutePath().getParent();
        Process p = new ProcessBuilder(root.resolve("scripts/python-soap").toString()).redirectError(
                ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue("scripts/python-soap ended", p.waitFor(PYTHON_WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("scripts/python-soap: " + out, 0, p.exitValue());
        return out;
    }

    private HttpResponse<String> post(String body, String contentType) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.serviceUrl("Echo")))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private String get(String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(url, 200, r.statusCode());
        return r.body();
    }
}
