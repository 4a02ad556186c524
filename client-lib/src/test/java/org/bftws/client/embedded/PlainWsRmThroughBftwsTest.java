package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisService;
import org.apache.sandesha2.Sandesha2Constants;
import org.apache.sandesha2.client.SandeshaClientConstants;
import org.apache.sandesha2.util.SandeshaUtil;
import org.bftws.module.rm.BftwsStorageManager;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Backward compatibility (paper §3.3.1): with no replica group configured, bftws.mar is plain WS-RM.
 * One embedded server (bftws engaged globally, conf/axis2-replica.xml) and one client (bftws engaged on
 * its ServiceClient), real HTTP on 127.0.0.1.
 */
public class PlainWsRmThroughBftwsTest {
    private static final String NS = "urn:bftws:samples:echo";
    private static final String ACTION = "urn:bftws:samples:echo:echo";
    private static final String CREATE_SEQUENCE = "http://docs.oasis-open.org/ws-rx/wsrm/200702/CreateSequence";
    private static final int CALLS = 10;
    private static final int ITEMS = 5;

    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(60);

    private static EmbeddedAxis2Server server;
    private static SequenceHeaderRecorder recorder;
    private static ConfigurationContext clientContext;

    @BeforeClass
    public static void startServerAndClient() throws Exception {
        server = EmbeddedAxis2Server.start(TestRepositories.replica(TMP.newFolder("replica").toPath()));
        recorder = new SequenceHeaderRecorder();
        recorder.installInto(server.context().getAxisConfiguration().getInFlowPhases(), "Transport");
        clientContext = TestRepositories.client(TMP.newFolder("client").toPath()).createConfigurationContext();
    }

    @AfterClass
    public static void stop() throws Exception {
        if (clientContext != null) {
            clientContext.terminate();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void serverHasBftwsEngagedAndTheEchoServiceCarriesTheRmOperations() throws Exception {
        assertTrue(server.context().getAxisConfiguration().isEngaged("bftws"));
        AxisService echo = server.context().getAxisConfiguration().getService("Echo");
        assertNotNull("Echo service deployed", echo);
        assertNotNull(echo.getOperationByAction(CREATE_SEQUENCE));
        assertNotNull(echo.getOperationByAction(ACTION));
    }

    @Test
    public void wsRm11SequenceOfTenEchoCallsThroughBftws() throws Exception {
        ServiceClient client = new ServiceClient(clientContext, null);
        try {
            client.engageModule("bftws");
            Options options = client.getOptions();
            options.setTo(new EndpointReference(server.serviceUrl("Echo")));
            options.setAction(ACTION);
            options.setTimeOutInMilliSeconds(20_000);
            options.setProperty(SandeshaClientConstants.RM_SPEC_VERSION, Sandesha2Constants.SPEC_VERSIONS.v1_1);
            options.setProperty(SandeshaClientConstants.SEQUENCE_KEY, "compat-sequence");
            int before = recorder.seen().size();

            for (int i = 1; i <= CALLS; i++) {
                if (i == CALLS) {
                    options.setProperty(SandeshaClientConstants.LAST_MESSAGE, "true");
                }
                OMElement reply = client.sendReceive(request(i, ITEMS));
                assertEquals("echoResponse", reply.getLocalName());
                assertEquals(NS, reply.getNamespace().getNamespaceURI());
                assertEquals(expectedItems(i, ITEMS), items(reply));
            }

            List<SequenceHeaderRecorder.Seen> seen = recorder.seen().subList(before, recorder.seen().size());
            assertEquals("one CreateSequence", 1, count(seen, CREATE_SEQUENCE));
            List<Long> numbers = new ArrayList<>();
            String sequenceId = null;
            for (SequenceHeaderRecorder.Seen s : seen) {
                if (ACTION.equals(s.action())) {
                    assertNotNull("echo request without a WS-RM 1.1 Sequence header", s.sequenceId());
                    sequenceId = sequenceId == null ? s.sequenceId() : sequenceId;
                    assertEquals("all requests in one sequence", sequenceId, s.sequenceId());
                    numbers.add(s.messageNumber());
                }
            }
            List<Long> expected = new ArrayList<>();
            for (long n = 1; n <= CALLS; n++) {
                expected.add(n);
            }
            assertEquals("message numbers 1..10, each once, in order", expected, numbers);
            // Sandesha2 created the sequence through BFT-WS's storage hook, which left its own id in place: with
            // no replica group there is no client UUID to derive one from.
            assertNotNull(RmSequences.bean(server.context(), sequenceId));
            assertTrue(SandeshaUtil.getSandeshaStorageManager(server.context(), server.context()
                    .getAxisConfiguration()) instanceof BftwsStorageManager);
        } finally {
            client.cleanup();
        }
    }

    @Test
    public void requestWithDoctypeGetsSoapFaultAndServerKeepsServing() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        String doctype = "<?xml version=\"1.0\"?>\n"
                + "<!DOCTYPE e:echo [<!ENTITY boom \"expanded-entity\">]>\n"
                + envelope("<e:echo xmlns:e=\"" + NS + "\"><e:item>&boom;</e:item></e:echo>");
        HttpResponse<String> bad = post(http, doctype);
        assertEquals(500, bad.statusCode());
        assertTrue(bad.body(), bad.body().contains("Fault>"));
        // Axiom's SOAP parser configuration refuses any DTD before an entity could be declared or expanded
        assertTrue(bad.body(), bad.body().contains("DOCTYPE is not allowed"));
        assertFalse("entity must not be expanded", bad.body().contains("expanded-entity"));

        HttpResponse<String> good = post(http, envelope("<e:echo xmlns:e=\"" + NS + "\"><e:item>still here</e:item></e:echo>"));
        assertEquals(good.body(), 200, good.statusCode());
        assertTrue(good.body(), good.body().contains("echoResponse"));
        assertTrue(good.body(), good.body().contains("still here"));
    }

    private static HttpResponse<String> post(HttpClient http, String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(server.serviceUrl("Echo")))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + ACTION + "\"")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build();
        return http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String envelope(String body) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>";
    }

    private static OMElement request(int call, int items) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NS, "e");
        OMElement echo = f.createOMElement("echo", ns);
        for (String text : expectedItems(call, items)) {
            OMElement item = f.createOMElement("item", ns);
            item.setText(text);
            echo.addChild(item);
        }
        return echo;
    }

    private static List<String> expectedItems(int call, int items) {
        List<String> texts = new ArrayList<>();
        for (int k = 0; k < items; k++) {
            texts.add("call" + call + "-item" + k);
        }
        return texts;
    }

    private static List<String> items(OMElement reply) {
        List<String> texts = new ArrayList<>();
        Iterator<OMElement> it = reply.getChildElements();
        while (it.hasNext()) {
            OMElement e = it.next();
            assertEquals("item", e.getLocalName());
            texts.add(e.getText());
        }
        return texts;
    }

    private static int count(List<SequenceHeaderRecorder.Seen> seen, String action) {
        int n = 0;
        for (SequenceHeaderRecorder.Seen s : seen) {
            if (action.equals(s.action())) {
                n++;
            }
        }
        return n;
    }
}
