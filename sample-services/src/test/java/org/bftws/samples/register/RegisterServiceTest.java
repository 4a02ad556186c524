package org.bftws.samples.register;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.lang.management.ManagementFactory;

import javax.management.ObjectName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.junit.Test;

/** The register's operations as the Total Order Invoker calls them: write, read, cas, bounds, state pair. */
public class RegisterServiceTest {
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace NS = F.createOMNamespace(RegisterService.NAMESPACE, "r");

    @Test
    public void writeReadAndCompareAndSet() throws AxisFault {
        RegisterService r = new RegisterService();
        assertEquals("0", text(r.read(op("read", "k0")), "value"));
        assertEquals("7", text(r.write(op("write", "k0", "value", "7")), "value"));
        assertEquals("7", text(r.read(op("read", "k0")), "value"));
        OMElement failed = r.cas(op("cas", "k0", "expected", "6", "value", "9"));
        assertEquals("false", text(failed, "ok"));
        assertEquals("7", text(failed, "value"));
        OMElement done = r.cas(op("cas", "k0", "expected", "7", "value", "9"));
        assertEquals("true", text(done, "ok"));
        assertEquals("9", text(done, "value"));
        assertEquals("0", text(r.read(op("read", "k1")), "value"));
        assertEquals("k0=9", r.stateText());
    }

    @Test
    public void badKeysAndValuesAreRefusedAndChangeNothing() throws AxisFault {
        RegisterService r = new RegisterService();
        r.write(op("write", "k0", "value", "3"));
        for (String[] bad : new String[][] {{"K0", "1"}, {"", "1"}, {"k0", "-1"}, {"k0", "1234567890"}, {"k0", "x"},
            {"abcdefghijklmnopq", "1"}}) {
            try {
                r.write(op("write", bad[0], "value", bad[1]));
                fail("accepted key '" + bad[0] + "' value '" + bad[1] + "'");
            } catch (AxisFault e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("register: "));
            }
            assertEquals("k0=3", r.stateText());
        }
    }

    @Test
    public void getStateIsWhatSetStateInstallsElsewhere() throws AxisFault {
        RegisterService a = new RegisterService();
        a.write(op("write", "k1", "value", "4"));
        a.write(op("write", "k0", "value", "2"));
        RegisterService b = new RegisterService();
        b.write(op("write", "k9", "value", "1"));
        b.set_state(a.get_state(null));
        assertEquals("k0=2 k1=4", b.stateText());
        assertEquals(a.stateText(), b.stateText());
    }

    @Test
    public void theStateIsPublishedAsAnMBean() throws Exception {
        RegisterService r = new RegisterService();
        r.write(op("write", "k2", "value", "5"));
        Object state = ManagementFactory.getPlatformMBeanServer().getAttribute(
                new ObjectName("org.bftws.samples:type=ServiceState,name=Register"), "State");
        assertEquals("k2=5", state);
    }

    @Test
    public void theNegativeControlsFaultyRegisterStoresOneMore() throws AxisFault {
        RegisterService r = new FaultyRegisterService();
        assertEquals("8", text(r.write(op("write", "k0", "value", "7")), "value"));
        assertEquals("k0=8", r.stateText());
        OMElement done = r.cas(op("cas", "k0", "expected", "8", "value", "9"));
        assertEquals("true", text(done, "ok"));
        assertEquals("10", text(done, "value"));
        assertEquals("false", text(r.cas(op("cas", "k0", "expected", "9", "value", "3")), "ok"));
        assertEquals("k0=10", r.stateText());
    }

    /** {@code <r:NAME><r:key>KEY</r:key>[<r:N>V</r:N>...]</r:NAME>}. */
    private static OMElement op(String name, String key, String... children) {
        OMElement e = F.createOMElement(name, NS);
        F.createOMElement("key", NS, e).setText(key);
        for (int i = 0; i < children.length; i += 2) {
            F.createOMElement(children[i], NS, e).setText(children[i + 1]);
        }
        return e;
    }

    private static String text(OMElement reply, String child) {
        OMElement c = reply.getFirstChildWithName(new javax.xml.namespace.QName(RegisterService.NAMESPACE, child));
        return c == null ? null : c.getText();
    }
}
