package org.bftws.module.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOutAxisOperation;
import org.apache.axis2.receivers.AbstractInOutMessageReceiver;

/** A plain Axis2 server's pieces for tests of the HTTP front: an echo service and an axis2.xml without modules. */
public final class EchoService {
    private EchoService() {
    }

    /** Service "Echo", operation "echo": answers with the request's first body element. */
    public static AxisService echo() {
        AxisService echo = new AxisService("Echo");
        InOutAxisOperation op = new InOutAxisOperation(new QName("echo"));
        op.setMessageReceiver(new AbstractInOutMessageReceiver() {
            @Override
            public void invokeBusinessLogic(MessageContext in, MessageContext out) throws AxisFault {
                SOAPEnvelope env = OMAbstractFactory.getSOAP11Factory().getDefaultEnvelope();
                env.getBody().addChild(in.getEnvelope().getBody().getFirstElement().cloneOMElement());
                out.setEnvelope(env);
            }
        });
        echo.addOperation(op);
        return echo;
    }

    /**
     * Writes Axis2's default axis2.xml without its message receivers (they live in modules the caller lacks) to
     * {@code file}; returns its path.
     */
    public static String axis2Xml(Path file) throws IOException {
        String xml;
        try (InputStream in = AxisService.class.getResourceAsStream("/org/apache/axis2/deployment/axis2_default.xml")) {
            xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Files.writeString(file, xml.replaceAll("(?s)<messageReceivers>.*?</messageReceivers>", ""));
        return file.toString();
    }
}
