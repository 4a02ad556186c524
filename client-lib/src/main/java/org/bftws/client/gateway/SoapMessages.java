package org.bftws.client.gateway;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMException;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axiom.soap.SOAPModelBuilder;

/**
 * The plain SOAP side of the gateway: a caller's request (SOAP 1.1 as {@code text/xml}, SOAP 1.2 as
 * {@code application/soap+xml}) read into its body's payload and action, and the voted reply or a fault written
 * back in the caller's SOAP version. DTDs are refused (AXIOM's SOAP parser configuration); the body's size was
 * bounded before.
 */
final class SoapMessages {
    static final String SOAP11_TYPE = "text/xml";
    static final String SOAP12_TYPE = "application/soap+xml";

    private SoapMessages() {
    }

    /** A caller's request: its SOAP version, the body's first element (detached) and its action ("" if none). */
    record Request(boolean soap12, OMElement payload, String action) {
    }

    /** Bad input from the caller: answered with a Client / Sender fault, nothing sent to the group. */
    static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    static boolean isSoap12(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith(SOAP12_TYPE);
    }

    static Request read(byte[] body, String contentType, String soapActionHeader) throws BadRequest {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        boolean soap12 = type.startsWith(SOAP12_TYPE);
        if (!soap12 && !type.startsWith(SOAP11_TYPE)) {
            throw new BadRequest(415, "Content-Type must be text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2),"
                    + " got " + (contentType == null ? "none" : contentType));
        }
        try {
            SOAPModelBuilder builder = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(body),
                    charset(contentType));
            SOAPEnvelope envelope = builder.getSOAPEnvelope();
            boolean is12 = envelope.getNamespace().getNamespaceURI().equals(
                    "http://www.w3.org/2003/05/soap-envelope");
            if (is12 != soap12) {
                throw new BadRequest(400, "the envelope's SOAP version does not match its Content-Type");
            }
            OMElement payload = envelope.getBody() == null ? null : envelope.getBody().getFirstElement();
            if (payload == null) {
                throw new BadRequest(400, "the SOAP body is empty");
            }
            payload.build();
            payload.detach();
            String action = soap12 ? parameter(contentType, "action") : unquote(soapActionHeader);
            return new Request(soap12, payload, action == null ? "" : action);
        } catch (OMException | IllegalStateException e) {
            throw new BadRequest(400, "not a SOAP envelope: " + rootMessage(e));
        }
    }

    /** The envelope carrying {@code payload} in the caller's SOAP version. */
    static byte[] reply(boolean soap12, OMElement payload) throws XMLStreamException {
        SOAPFactory f = soap12 ? OMAbstractFactory.getSOAP12Factory() : OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope envelope = f.getDefaultEnvelope();
        envelope.getBody().addChild(payload);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        envelope.serialize(out);
        return out.toByteArray();
    }

    /** A fault: {@code client} true for the caller's own mistake (Client / Sender), else Server / Receiver. */
    static byte[] fault(boolean soap12, boolean client, String reason) {
        String text = escape(reason);
        String xml = soap12
                ? "<env:Envelope xmlns:env=\"http://www.w3.org/2003/05/soap-envelope\"><env:Body><env:Fault>"
                        + "<env:Code><env:Value>env:" + (client ? "Sender" : "Receiver") + "</env:Value></env:Code>"
                        + "<env:Reason><env:Text xml:lang=\"en\">" + text + "</env:Text></env:Reason>"
                        + "</env:Fault></env:Body></env:Envelope>"
                : "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body>"
                        + "<soapenv:Fault><faultcode>soapenv:" + (client ? "Client" : "Server") + "</faultcode>"
                        + "<faultstring>" + text + "</faultstring></soapenv:Fault></soapenv:Body></soapenv:Envelope>";
        return xml.getBytes(StandardCharsets.UTF_8);
    }

    static String contentType(boolean soap12) {
        return (soap12 ? SOAP12_TYPE : SOAP11_TYPE) + "; charset=utf-8";
    }

    private static String charset(String contentType) {
        String c = parameter(contentType, "charset");
        return c == null || c.isEmpty() ? "UTF-8" : c;
    }

    /** A parameter of a Content-Type header, unquoted, or null. */
    static String parameter(String contentType, String name) {
        if (contentType == null) {
            return null;
        }
        for (String part : contentType.split(";")) {
            String p = part.trim();
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).trim().equalsIgnoreCase(name)) {
                return unquote(p.substring(eq + 1).trim());
            }
        }
        return null;
    }

    private static String unquote(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim();
        return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
    }

    private static String escape(String s) {
        String t = s == null ? "" : s;
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String rootMessage(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r.getMessage() == null ? r.getClass().getSimpleName() : r.getMessage();
    }
}
