package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.parsers.DocumentBuilderFactory;

import org.bftws.module.random.RandomizedDeclarations;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a client of the demo group gets from {@code GET .../services/NAME?wsdl} on a replica, over HTTP: the
 * service's own WSDL 1.1 (wsdl/*.wsdl, as packaged in its archive) whose SOAP address is the service's group
 * address (BFT-WS paper §3.3.1.2: clients call the group endpoint, never one replica), with the
 * {@code bftws:Randomized} declarations intact, and without the counter's get_state/set_state, which the Total
 * Order Invoker refuses to clients (§3.3.1.8). Every replica publishes the same document; {@code ?xsd} serves
 * the WSDL's schema.
 */
public class PublishedWsdlTest {
    private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
    private static final String SOAP = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static final String XSD = "http://www.w3.org/2001/XMLSchema";

    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP = new LaunchedGroup(TMP);

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeClass
    public static void startGroup() throws IOException {
        GROUP.start();
    }

    @Test
    public void everyReplicaPublishesEchoAtTheGroupEndpoint() throws Exception {
        String first = get(0, "Echo", "wsdl");
        for (int r = 0; r < LaunchedGroup.N; r++) {
            String wsdl = get(r, "Echo", "wsdl");
            assertEquals("replica " + r + " publishes the same WSDL as replica 0", first, wsdl);
            Document doc = parse(wsdl);
            assertEquals("a WSDL 1.1 document", WSDL, doc.getDocumentElement().getNamespaceURI());
            assertEquals("definitions", doc.getDocumentElement().getLocalName());
            assertEquals(List.of(GroupLauncher.GROUP_ENDPOINT), addresses(doc));
            assertEquals(List.of("echo", "echoReadOnly", "echoConfidential"), operations(doc, "portType"));
        }
        assertFalse("no replica's own address", first.contains("127.0.0.1"));
    }

    @Test
    public void dealerKeepsItsRandomizedDeclarationAndNamesItsGroupAddress() throws Exception {
        String wsdl = get(1, "Dealer", "wsdl");
        Document doc = parse(wsdl);
        assertEquals(List.of(GroupLauncher.DEALER_ENDPOINT), addresses(doc));
        List<Element> ops = operationElements(doc, "portType");
        assertEquals(1, ops.size());
        Element deal = ops.get(0);
        assertEquals("deal", deal.getAttribute("name"));
        NodeList randomized = deal.getElementsByTagNameNS(RandomizedDeclarations.NAMESPACE, "Randomized");
        assertEquals("deal's wsp:Policy holds bftws:Randomized", 1, randomized.getLength());
        assertEquals("256", ((Element) randomized.item(0)).getAttribute("bits"));
        // and the module reads the served document as it reads the archive's
        assertEquals(Map.of("deal", 256), RandomizedDeclarations.fromWsdl(
                new ByteArrayInputStream(wsdl.getBytes(StandardCharsets.UTF_8))));
        assertEquals(Map.of("next", 128), RandomizedDeclarations.fromWsdl(
                new ByteArrayInputStream(get(2, "IdGenerator", "wsdl").getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    public void counterAdvertisesOnlyWhatAClientMayCall() throws Exception {
        String wsdl = get(3, "Counter", "wsdl");
        Document doc = parse(wsdl);
        assertEquals(List.of(GroupLauncher.COUNTER_ENDPOINT), addresses(doc));
        assertEquals(List.of("increment", "read"), operations(doc, "portType"));
        assertEquals(List.of("increment", "read"), operations(doc, "binding"));
        assertFalse("get_state is reserved for checkpoints", wsdl.contains("get_state"));
        assertFalse("set_state is reserved for state transfer", wsdl.contains("set_state"));        // read keeps its read-only declaration, and the module reads the served document as it reads the archive's
        assertEquals(Set.of("read"), RandomizedDeclarations.readOnlyFromWsdl(
                new ByteArrayInputStream(wsdl.getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    public void xsdServesTheWsdlSchema() throws Exception {
        Element schema = parse(get(0, "Echo", "xsd")).getDocumentElement();
        assertEquals(XSD, schema.getNamespaceURI());
        assertEquals("schema", schema.getLocalName());
        assertEquals(GroupLauncher.ECHO_NS, schema.getAttribute("targetNamespace"));
    }

    /** The body of {@code GET http://127.0.0.1:PORT/axis2/services/SERVICE?QUERY} on replica {@code r}. */
    private static String get(int r, String service, String query) throws Exception {
        URI uri = URI.create(GroupLauncher.serviceUrl(GROUP.ports()[r], service) + "?" + query);
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals(uri + " answers 200", 200, response.statusCode());
        assertTrue(uri + " is XML: " + response.body(), response.body().contains("<"));
        return response.body();
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    /** The soap:address locations of every port. */
    private static List<String> addresses(Document doc) {
        List<String> out = new ArrayList<>();
        NodeList a = doc.getElementsByTagNameNS(SOAP, "address");
        for (int i = 0; i < a.getLength(); i++) {
            out.add(((Element) a.item(i)).getAttribute("location"));
        }
        return out;
    }

    /** The operation names of the first wsdl:portType or wsdl:binding, in document order. */
    private static List<String> operations(Document doc, String section) {
        List<String> out = new ArrayList<>();
        for (Element op : operationElements(doc, section)) {
            out.add(op.getAttribute("name"));
        }
        return out;
    }

    private static List<Element> operationElements(Document doc, String section) {
        List<Element> out = new ArrayList<>();
        NodeList children = doc.getElementsByTagNameNS(WSDL, section).item(0).getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e && WSDL.equals(e.getNamespaceURI())
                    && "operation".equals(e.getLocalName())) {
                out.add(e);
            }
        }
        return out;
    }
}
