package org.bftws.client.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.bftws.module.random.RandomizedDeclarations;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * One service of the group as the gateway offers it: its WSDL as f+1 replicas serve it (naming the group
 * endpoint, which the gateway replaces by its own address for callers), the group endpoint, each operation's
 * SOAP action, and which operations are declared randomized, confidential or read-only there
 * ({@link RandomizedDeclarations}), so the gateway flags each call as a group client must.
 *
 * @param name         the service's name, the last segment of {@code .../axis2/services/NAME}
 * @param wsdl         the voted WSDL, as the replicas serve it
 * @param groupAddress the service address that WSDL names (the group endpoint of the service)
 * @param actions      operation local name → SOAP action
 */
record GatewayService(String name, String wsdl, String groupAddress, Map<String, String> actions,
        Set<String> randomized, Set<String> confidential, Set<String> readOnly) {

    private static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
    private static final Set<String> SOAP_BINDING_NS = Set.of("http://schemas.xmlsoap.org/wsdl/soap/",
            "http://schemas.xmlsoap.org/wsdl/soap12/");

    /**
     * Fetches {@code ?wsdl} of {@code name} from every replica and keeps the text at least {@code f + 1} of
     * them served identically: one Byzantine replica cannot make the gateway offer another service description.
     *
     * @throws IOException if no text reaches f+1 matching copies
     */
    static GatewayService vote(String name, List<URI> replicaServices, int f, HttpClient http) throws IOException {
        Map<String, Integer> copies = new HashMap<>();
        for (URI service : replicaServices) {
            String text = fetch(http, URI.create(service + "?wsdl"));
            if (text != null && copies.merge(text, 1, Integer::sum) >= f + 1) {
                return parse(name, text);
            }
        }
        throw new IOException("service " + name + ": no WSDL that f+1 = " + (f + 1) + " replicas serve alike ("
                + copies.size() + " different answers from " + replicaServices.size() + " replicas)");
    }

    /** The WSDL for a caller that reached the gateway at {@code gatewayAddress} (http://host:port/.../NAME). */
    String wsdlFor(String gatewayAddress) {
        return wsdl.replace(groupAddress, gatewayAddress);
    }

    private static String fetch(HttpClient http, URI uri) {
        try {
            HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] body = in.readNBytes(RandomizedDeclarations.MAX_WSDL_BYTES + 1);
                return r.statusCode() == 200 && body.length <= RandomizedDeclarations.MAX_WSDL_BYTES
                        ? new String(body, StandardCharsets.UTF_8) : null;
            }
        } catch (IOException e) {
            return null; // a replica down or slow: the others vote
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static GatewayService parse(String name, String wsdl) throws IOException {
        byte[] bytes = wsdl.getBytes(StandardCharsets.UTF_8);
        Document doc = document(bytes);
        Map<String, String> actions = new HashMap<>();
        String address = null;
        NodeList ops = doc.getElementsByTagNameNS(WSDL_NS, "operation");
        for (int i = 0; i < ops.getLength(); i++) {
            Element op = (Element) ops.item(i);
            for (Element child : children(op)) {
                if (SOAP_BINDING_NS.contains(child.getNamespaceURI()) && "operation".equals(child.getLocalName())) {
                    actions.putIfAbsent(op.getAttribute("name"), child.getAttribute("soapAction"));
                }
            }
        }
        NodeList ports = doc.getElementsByTagNameNS(WSDL_NS, "port");
        for (int i = 0; i < ports.getLength() && address == null; i++) {
            for (Element child : children((Element) ports.item(i))) {
                if ("address".equals(child.getLocalName()) && child.hasAttribute("location")) {
                    address = child.getAttribute("location");
                }
            }
        }
        if (address == null) {
            throw new IOException("service " + name + ": its WSDL names no service address");
        }
        return new GatewayService(name, wsdl, address, Map.copyOf(actions),
                RandomizedDeclarations.fromWsdl(new ByteArrayInputStream(bytes)).keySet(),
                RandomizedDeclarations.confidentialFromWsdl(new ByteArrayInputStream(bytes)),
                RandomizedDeclarations.readOnlyFromWsdl(new ByteArrayInputStream(bytes)));
    }

    private static List<Element> children(Element e) {
        List<Element> out = new java.util.ArrayList<>();
        for (org.w3c.dom.Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                out.add(c);
            }
        }
        return out;
    }

    private static Document document(byte[] bytes) throws IOException {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setExpandEntityReferences(false);
            return f.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("unreadable WSDL: " + e.getMessage(), e);
        }
    }
}
