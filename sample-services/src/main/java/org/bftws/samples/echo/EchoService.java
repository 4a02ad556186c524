package org.bftws.samples.echo;

import java.util.Iterator;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;

/**
 * The echo sample service (wsdl/echo.wsdl): returns an {@code echoResponse} holding copies of the child
 * elements of its {@code echo} request, so the reply is nearly identical to the request and the payload
 * size is set by the client's element count.
 *
 * <p>No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode and fails on what javac 9+
 * emits for them (docs/design/dependencies.md).
 */
public class EchoService {
    /** Target namespace of wsdl/echo.wsdl. */
    public static final String NAMESPACE = "urn:bftws:samples:echo";

    /** The echo operation: one reply element per request element, in order. */
    public OMElement echo(OMElement request) {
        OMFactory factory = OMAbstractFactory.getOMFactory();
        OMNamespace ns = factory.createOMNamespace(NAMESPACE, "e");
        OMElement reply = factory.createOMElement("echoResponse", ns);
        // Axiom 1.2.21 declares a raw Iterator; its elements are OMElements.
        Iterator<?> children = request.getChildElements();
        while (children.hasNext()) {
            OMElement child = (OMElement) children.next();
            reply.addChild(child.cloneOMElement());
        }
        return reply;
    }

    /**
     * The same echo as a read-only operation (wsdl/echo.wsdl declares it {@code <bftws:ReadOnly/>}): it reads
     * nothing but its request and changes nothing, so replicas may execute it without ordering.
     */
    public OMElement echoReadOnly(OMElement request) {
        return echo(request);
    }

    /**
     * The same echo as a confidential operation (wsdl/echo.wsdl declares it {@code <bftws:Confidential/>}):
     * replicas order its sealed request and execute it once opened, so it receives the plaintext as echo does.
     */
    public OMElement echoConfidential(OMElement request) {
        return echo(request);
    }
}
