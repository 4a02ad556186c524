package org.bftws.module.random;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.neethi.Assertion;
import org.apache.neethi.PolicyComponent;
import org.apache.neethi.PolicyOperator;
import org.apache.neethi.builders.xml.XmlPrimitiveAssertion;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * Which operations of a service are randomized (integrity paper §4: "the primary checks whether the
 * operation is randomized"): those whose WS-Policy holds the assertion
 * {@code <bftws:Randomized bits="256"/>} (namespace {@value #NAMESPACE}; {@code bits}, optional, 1..256, is
 * how many bits of the 256-bit collective number the operation uses); and which are read-only
 * (Castro-Liskov §5.1.3: executed without ordering): those with {@code <bftws:ReadOnly/>} ({@link #readOnly}),
 * found the same way; and which are confidential (SINTRA §2.6): those with {@code <bftws:Confidential/>}
 * ({@link #confidential}). See {@code wsdl/README.md}.
 *
 * <p>Two places are read. (1) The operation's Axis2 policy subject, for services whose descriptor attaches
 * policies there. (2) The service's WSDL as deployed ({@code META-INF/NAME.wsdl} in its archive), since
 * Axis2 1.7.9 does not attach the WSDL's operation policies for an {@code .aar} with a services.xml (checked:
 * the operations' policy subjects stay empty, also when Axis2 reads the WSDL to serve it): a
 * {@code wsp:Policy} child of the {@code wsdl:operation} in the portType or in a binding. That WSDL is parsed
 * here with DTDs refused, no external entities and a size limit. Only inline policies count, not {@code wsp:PolicyReference}.
 */
public final class RandomizedDeclarations {
    public static final String NAMESPACE = "urn:bftws:policy";
    public static final QName ASSERTION = new QName(NAMESPACE, "Randomized");
    public static final QName READ_ONLY = new QName(NAMESPACE, "ReadOnly");
    /** SINTRA §2.6: the operation's payload is sealed under the group's TDH2 key until its order is fixed. */
    public static final QName CONFIDENTIAL = new QName(NAMESPACE, "Confidential");
    public static final String BITS = "bits";
    /** The collective number is SHA-256 output: at most 256 bits to take. */
    public static final int MAX_BITS = 256;
    /** The largest WSDL read: far above any service description, small enough to bound memory. */
    public static final int MAX_WSDL_BYTES = 4 << 20;
    private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
    private static final Set<String> WS_POLICY = Set.of("http://www.w3.org/ns/ws-policy",
            "http://schemas.xmlsoap.org/ws/2004/09/policy");

    private RandomizedDeclarations() {
    }

    /**
     * Operation local name → bits, for every randomized operation of {@code service}.
     *
     * @throws AxisFault if the WSDL cannot be read or declares the assertion wrongly (naming the service)
     */
    public static Map<String, Integer> of(AxisService service) throws AxisFault {
        try {
            return bitsOf(declaring(service, ASSERTION));
        } catch (IllegalArgumentException e) {
            throw unreadable(service, ASSERTION, e);
        }
    }

    /**
     * The local names of the operations of {@code service} declared {@code <bftws:ReadOnly/>}.
     *
     * @throws AxisFault if the WSDL cannot be read (naming the service)
     */
    public static Set<String> readOnly(AxisService service) throws AxisFault {
        return Set.copyOf(declaring(service, READ_ONLY).keySet());
    }

    /**
     * The local names of the operations of {@code service} declared {@code <bftws:Confidential/>}.
     *
     * @throws AxisFault if the WSDL cannot be read (naming the service)
     */
    public static Set<String> confidential(AxisService service) throws AxisFault {
        return Set.copyOf(declaring(service, CONFIDENTIAL).keySet());
    }

    /** Operation local name → the {@code bits} text of each {@code assertion} on it ("" when absent). */
    private static Map<String, List<String>> declaring(AxisService service, QName assertion) throws AxisFault {
        Map<String, List<String>> declared = new HashMap<>();
        for (Iterator<AxisOperation> it = service.getOperations(); it.hasNext(); ) {
            AxisOperation op = it.next();
            String bits = fromPolicies(op.getPolicySubject().getAttachedPolicyComponents(), assertion);
            if (bits != null && op.getName() != null) {
                declared.computeIfAbsent(op.getName().getLocalPart(), k -> new ArrayList<>()).add(bits);
            }
        }
        ClassLoader loader = service.getClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(wsdlPath(service))) {
            if (in != null) {
                fromWsdl(in, assertion).forEach((op, texts) ->
                        declared.computeIfAbsent(op, k -> new ArrayList<>()).addAll(texts));
            }
        } catch (IOException | IllegalArgumentException e) {
            throw unreadable(service, assertion, e);
        }
        return declared;
    }

    private static String wsdlPath(AxisService service) {
        return "META-INF/" + service.getName() + ".wsdl";
    }

    private static AxisFault unreadable(AxisService service, QName assertion, Exception e) {
        return new AxisFault("BFT-WS: cannot read the " + assertion.getLocalPart() + " operations of service "
                + service.getName() + " from " + wsdlPath(service) + ": " + e.getMessage());
    }

    /** The largest {@code bits} declared per operation, each checked. */
    private static Map<String, Integer> bitsOf(Map<String, List<String>> declared) {
        Map<String, Integer> out = new HashMap<>();
        declared.forEach((op, texts) -> texts.forEach(t -> out.merge(op, bits(t), Math::max)));
        return out;
    }

    /** The {@code bits} text ("" when absent) of {@code assertion} among {@code components}, or null. */
    private static String fromPolicies(Iterable<?> components, QName assertion) {
        for (Object c : components) {
            if (c instanceof Assertion a && assertion.equals(a.getName())) {
                return a instanceof XmlPrimitiveAssertion x ? attribute(x.getValue()) : "";
            }
            if (c instanceof PolicyOperator p) {
                String text = fromPolicies(p.getPolicyComponents(), assertion);
                if (text != null) {
                    return text;
                }
            }
        }
        return null;
    }

    private static String attribute(Element e) {
        return e == null || !e.hasAttribute(BITS) ? "" : e.getAttribute(BITS);
    }

    /** The randomized operations a WSDL 1.1 document declares, parsed with DTDs and external entities refused. */
    public static Map<String, Integer> fromWsdl(InputStream in) throws IOException {
        return bitsOf(fromWsdl(in, ASSERTION));
    }

    /** The read-only operations a WSDL 1.1 document declares ({@code <bftws:ReadOnly/>}), parsed as {@link #fromWsdl}. */
    public static Set<String> readOnlyFromWsdl(InputStream in) throws IOException {
        return Set.copyOf(fromWsdl(in, READ_ONLY).keySet());
    }

    /** The confidential operations a WSDL 1.1 document declares ({@code <bftws:Confidential/>}), parsed as {@link #fromWsdl}. */
    public static Set<String> confidentialFromWsdl(InputStream in) throws IOException {
        return Set.copyOf(fromWsdl(in, CONFIDENTIAL).keySet());
    }

    private static Map<String, List<String>> fromWsdl(InputStream in, QName assertion) throws IOException {
        byte[] bytes = in.readNBytes(MAX_WSDL_BYTES + 1);
        if (bytes.length > MAX_WSDL_BYTES) {
            throw new IllegalArgumentException("larger than " + MAX_WSDL_BYTES + " bytes");
        }
        Document doc;
        try {
            doc = parser().parse(new java.io.ByteArrayInputStream(bytes));
        } catch (SAXException e) {
            throw new IllegalArgumentException("not well-formed XML or has a DTD: " + e.getMessage());
        }
        Map<String, List<String>> declared = new HashMap<>();
        for (Element section : children(doc.getDocumentElement(), WSDL, null)) {
            if (section.getLocalName().equals("portType") || section.getLocalName().equals("binding")) {
                for (Element op : children(section, WSDL, "operation")) {
                    String bits = inPolicies(op, assertion);
                    if (bits != null) {
                        declared.computeIfAbsent(op.getAttribute("name"), k -> new ArrayList<>()).add(bits);
                    }
                }
            }
        }
        return declared;
    }

    private static String inPolicies(Element operation, QName assertion) {
        for (Node n = operation.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && WS_POLICY.contains(e.getNamespaceURI()) && "Policy".equals(e.getLocalName())) {
                String bits = assertionBelow(e, assertion);
                if (bits != null) {
                    return bits;
                }
            }
        }
        return null;
    }

    /** Finds the assertion inside a wsp:Policy, through nested wsp:All / wsp:ExactlyOne / wsp:Policy. */
    private static String assertionBelow(Element policy, QName assertion) {
        for (Node n = policy.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            if (NAMESPACE.equals(e.getNamespaceURI()) && assertion.getLocalPart().equals(e.getLocalName())) {
                return e.hasAttribute(BITS) ? e.getAttribute(BITS) : "";
            }
            if (WS_POLICY.contains(e.getNamespaceURI())) {
                String bits = assertionBelow(e, assertion);
                if (bits != null) {
                    return bits;
                }
            }
        }
        return null;
    }

    static int bits(String text) {
        if (text == null || text.isBlank()) {
            return MAX_BITS;
        }
        try {
            int bits = Integer.parseInt(text.trim());
            if (bits >= 1 && bits <= MAX_BITS) {
                return bits;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("bftws:Randomized bits must be 1.." + MAX_BITS + ", got '" + text + "'");
    }

    private static Iterable<Element> children(Element parent, String ns, String localName) {
        java.util.List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && ns.equals(e.getNamespaceURI())
                    && (localName == null || localName.equals(e.getLocalName()))) {
                out.add(e);
            }
        }
        return out;
    }

    /** A DOM parser for untrusted XML: no DTDs (so no entity expansion), no external access. */
    private static DocumentBuilder parser() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // fatal errors throw, nothing printed
            return b;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a hardening feature", e);
        }
    }
}
