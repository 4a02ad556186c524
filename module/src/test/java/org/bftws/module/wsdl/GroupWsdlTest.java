package org.bftws.module.wsdl;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.wsdl.Definition;
import javax.wsdl.Port;
import javax.wsdl.Service;
import javax.wsdl.extensions.soap.SOAPAddress;
import javax.wsdl.factory.WSDLFactory;
import javax.wsdl.xml.WSDLReader;

import org.apache.axis2.description.AxisService;
import org.apache.axis2.engine.AxisEvent;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.module.transport.ControlPort;
import org.junit.Test;

/**
 * The published WSDL of a group service names its group address (BFT-WS paper §3.3.1.2), on the sample WSDLs
 * as Axis2 holds them (WSDL4J definitions) and with Axis2's own printing.
 */
public class GroupWsdlTest {
    private static final String GROUP = "http://g.example/axis2/services/Echo";
    private final GroupWsdl wsdl = new GroupWsdl(GROUP, "Echo");

    @Test
    public void theMainServiceIsTheGroupEndpointAndTheOthersItsSiblings() {
        assertEquals(GROUP, wsdl.address("Echo"));
        assertEquals("http://g.example/axis2/services/Dealer", wsdl.address("Dealer"));
    }

    @Test
    public void aDeployedServiceWithItsOwnWsdlPublishesItsGroupAddressAndKeepsItsPolicies() throws Exception {
        AxisService dealer = service("Dealer", "dealer.wsdl");
        wsdl.serviceUpdate(new AxisEvent(AxisEvent.SERVICE_DEPLOY, dealer), dealer);
        assertEquals(List.of("http://g.example/axis2/services/Dealer"), addresses(GroupWsdl.definition(dealer)));
        assertEquals("false", dealer.getParameterValue(GroupWsdl.MODIFY_ADDRESS));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        dealer.printWSDL(out, "127.0.0.1"); // as ?wsdl answers a request to this replica
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed, printed.contains("location=\"http://g.example/axis2/services/Dealer\""));
        assertTrue(printed, printed.contains("Randomized") && printed.contains("bits=\"256\""));
    }

    @Test
    public void otherEventsServicesWithoutAWsdlAndTheControlPortAreLeftAlone() throws Exception {
        AxisService echo = service("Echo", "echo.wsdl");
        wsdl.serviceUpdate(new AxisEvent(AxisEvent.SERVICE_REMOVE, echo), echo);
        assertEquals(List.of("http://localhost:8080/axis2/services/Echo"), addresses(GroupWsdl.definition(echo)));

        AxisService generated = new AxisService("Generated");
        wsdl.serviceUpdate(new AxisEvent(AxisEvent.SERVICE_DEPLOY, generated), generated);
        assertNull(generated.getParameter(GroupWsdl.MODIFY_ADDRESS));

        AxisService control = service(ControlPort.SERVICE_NAME, "echo.wsdl");
        wsdl.serviceUpdate(new AxisEvent(AxisEvent.SERVICE_DEPLOY, control), control);
        assertEquals("true", control.getParameterValue(GroupWsdl.MODIFY_ADDRESS));
        assertEquals(List.of("http://localhost:8080/axis2/services/Echo"), addresses(GroupWsdl.definition(control)));
    }

    /** A service holding {@code wsdl/FILE} as Axis2 does for an archive's META-INF/NAME.wsdl. */
    private static AxisService service(String name, String file) throws Exception {
        WSDLReader reader = WSDLFactory.newInstance().newWSDLReader();
        reader.setFeature("javax.wsdl.verbose", false);
        reader.setFeature("javax.wsdl.importDocuments", false);
        Path wsdl = Path.of(System.getProperty("user.dir")).resolveSibling("wsdl").resolve(file);
        Definition definition = reader.readWSDL(wsdl.toUri().toString());
        AxisService s = new AxisService(name);
        s.addParameter(WSDLConstants.WSDL_4_J_DEFINITION, definition);
        s.addParameter("useOriginalwsdl", "true");
        s.addParameter(GroupWsdl.MODIFY_ADDRESS, "true");
        return s;
    }

    private static List<String> addresses(Definition d) {
        List<String> out = new ArrayList<>();
        for (Object s : d.getServices().values()) {
            for (Object p : ((Service) s).getPorts().values()) {
                for (Object e : ((Port) p).getExtensibilityElements()) {
                    if (e instanceof SOAPAddress a) {
                        out.add(a.getLocationURI());
                    }
                }
            }
        }
        return out;
    }
}
