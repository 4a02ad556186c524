package org.bftws.perf.echo;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The signed baselines sign for real: an echo server requiring Rampart X.509 signatures (EchoSigning) serves
 * a signed client, refuses with a SOAP fault a request whose body was changed in transit after signing, and
 * refuses an unsigned request; neither refused request reaches the service.
 */
public class SignedEchoTest {
    @ClassRule
    public static final TemporaryFolder TMP = new TemporaryFolder();

    private static final AtomicBoolean TAMPER = new AtomicBoolean();
    private static final AtomicInteger EXECUTED = new AtomicInteger();
    private static EmbeddedAxis2Server server;
    private static ConfigurationContext client;
    private static EchoSigning signing;

    @BeforeClass
    public static void start() throws Exception {
        EchoSetup setup = EchoSetup.fromSystemProperties();
        Path work = TMP.getRoot().toPath();
        Path xml = setup.axis2Xml(work.resolve("server-conf"), "axis2-replica.xml", "", "<module ref=\"bftws\"/>");
        server = EmbeddedAxis2Server.start(setup.server(work.resolve("server"), xml));
        client = setup.client(work.resolve("client"), setup.conf().resolve("axis2-client.xml"))
                .createConfigurationContext();
        signing = EchoSigning.generate(work);
        signing.secureServer(server, "Echo");
        // in transit: before the server's Security phase, after the client's
        phase(server.context().getAxisConfiguration().getInFlowPhases(), "Transport").addHandler(new Tamperer());
        // reaches the service: after Rampart's verification and dispatch, in the operation's own phases
        Iterator<AxisOperation> ops = server.context().getAxisConfiguration().getService("Echo").getOperations();
        while (ops.hasNext()) {
            phase(ops.next().getRemainingPhasesInFlow(), "OperationInPhase").addHandler(new ExecutionCounter());
        }
    }

    @AfterClass
    public static void stop() throws Exception {
        if (client != null) {
            client.terminate();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    public void signedRequestIsServedAndTamperedOrUnsignedOnesAreRefused() throws Exception {
        ServiceClientCaller signed = signedCaller();
        assertEquals(3, signed.echo(EchoPayload.elements(3))); // includes the ≈2 s cold first signature
        int executed = EXECUTED.get();
        assertTrue("the signed request reached the service", executed >= 1);

        TAMPER.set(true);
        try {
            signed.echo(EchoPayload.elements(3));
            fail("a request changed after signing was served");
        } catch (AxisFault expected) {
            // WSS4J's verdict on the body digest, not some other failure
            assertTrue(expected.getMessage(), String.valueOf(expected.getMessage()).contains("signature"));
        } finally {
            TAMPER.set(false);
        }
        assertEquals("the tampered request never reached the service", executed, EXECUTED.get());

        ServiceClientCaller unsigned = new ServiceClientCaller(client, server.serviceUrl("Echo"), true);
        try {
            unsigned.echo(EchoPayload.elements(3));
            fail("an unsigned request was served");
        } catch (AxisFault expected) {
            assertTrue(expected.getMessage(), String.valueOf(expected.getMessage()).contains("Security header"));
            assertEquals("the unsigned request never reached the service", executed, EXECUTED.get());
        } finally {
            unsigned.close();
        }

        assertEquals("the signed client is served again", 5, signed.echo(EchoPayload.elements(5)));
        assertEquals(executed + 1, EXECUTED.get());
        signed.close();
    }

    private static ServiceClientCaller signedCaller() throws Exception {
        ServiceClientCaller c = new ServiceClientCaller(client, server.serviceUrl("Echo"), true);
        signing.secureClient(c.client);
        return c;
    }

    private static Phase phase(List<?> phases, String name) {
        for (Object p : phases) {
            if (((Phase) p).getPhaseName().equals(name)) {
                return (Phase) p;
            }
        }
        throw new AssertionError("no in-flow phase " + name);
    }

    /** Changes the first echo item's text of a signed request (the signature covers the body). */
    static final class Tamperer extends AbstractHandler {
        @Override
        public InvocationResponse invoke(MessageContext mc) {
            OMElement echo = mc.getEnvelope().getBody().getFirstElement();
            if (TAMPER.get() && echo != null && "echo".equals(echo.getLocalName())) {
                Iterator<OMElement> items = echo.getChildElements();
                if (items.hasNext()) {
                    OMElement item = items.next();
                    item.setText(item.getText() + "-tampered");
                }
            }
            return InvocationResponse.CONTINUE;
        }
    }

    /** Counts echo requests that got past verification to the operation. */
    static final class ExecutionCounter extends AbstractHandler {
        @Override
        public InvocationResponse invoke(MessageContext mc) {
            OMElement body = mc.getEnvelope().getBody().getFirstElement();
            if (body != null && "echo".equals(body.getLocalName())) {
                EXECUTED.incrementAndGet();
            }
            return InvocationResponse.CONTINUE;
        }
    }
}
