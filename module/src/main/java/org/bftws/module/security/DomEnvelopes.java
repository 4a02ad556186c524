package org.bftws.module.security;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.xml.sax.SAXException;

/**
 * Envelope bytes to a DOM and back, for WSS4J, which signs DOM documents. Only envelopes this client built
 * itself pass here, but the parser refuses DTDs all the same (as Axiom's SOAP configuration does).
 */
final class DomEnvelopes {
    private static final ThreadLocal<DocumentBuilder> BUILDER = ThreadLocal.withInitial(DomEnvelopes::builder);
    private static final ThreadLocal<Transformer> WRITER = ThreadLocal.withInitial(DomEnvelopes::writer);

    private DomEnvelopes() {
    }

    static Document parse(byte[] envelope) {
        try {
            return BUILDER.get().parse(new ByteArrayInputStream(envelope));
        } catch (SAXException | IOException e) {
            throw new IllegalStateException("not a SOAP envelope: " + e.getMessage(), e);
        }
    }

    static byte[] serialise(Document doc) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            WRITER.get().transform(new DOMSource(doc), new StreamResult(out));
        } catch (TransformerException e) {
            throw new IllegalStateException("cannot serialise the signed envelope: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    private static DocumentBuilder builder() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return f.newDocumentBuilder();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Transformer writer() {
        try {
            Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            t.setOutputProperty(OutputKeys.INDENT, "no");
            return t;
        } catch (TransformerException e) {
            throw new IllegalStateException(e);
        }
    }
}
