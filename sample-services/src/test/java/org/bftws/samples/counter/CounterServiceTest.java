package org.bftws.samples.counter;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.junit.Test;

/** The counter's operations as the Total Order Invoker calls them: values, bounds, state pair. */
public class CounterServiceTest {
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace NS = F.createOMNamespace(CounterService.NAMESPACE, "c");

    @Test
    public void incrementReturnsTheRunningValueAndReadReadsIt() throws AxisFault {
        CounterService c = new CounterService();
        assertEquals(0, value(c.read(F.createOMElement("read", NS)), "readResponse"));
        assertEquals(5, value(c.increment(increment("5")), "incrementResponse"));
        assertEquals(1_000_005, value(c.increment(increment("1000000")), "incrementResponse"));
        assertEquals(1_000_005, value(c.read(F.createOMElement("read", NS)), "readResponse"));
    }

    @Test
    public void amountsOutOfRangeOrMalformedAreRefusedAndChangeNothing() throws AxisFault {
        CounterService c = new CounterService();
        c.increment(increment("7"));
        for (String bad : new String[] {"0", "1000001", "-1", "+1", " 1", "1.0", "", "99999999999999999999", "x"}) {
            try {
                c.increment(increment(bad));
                fail("amount '" + bad + "' was accepted");
            } catch (AxisFault e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("counter: amount"));
            }
            assertEquals("after amount '" + bad + "'", 7, c.value());
        }
    }

    @Test
    public void anIncrementBeyondTheLargestValueIsRefused() throws AxisFault {
        CounterService c = new CounterService();
        c.set_state(state(Long.toString(Long.MAX_VALUE - 3)));
        try {
            c.increment(increment("4"));
            fail("overflowed");
        } catch (AxisFault e) {
            assertTrue(e.getMessage(), e.getMessage().contains("overflow"));
        }
        assertEquals(Long.MAX_VALUE - 3, c.value());
        assertEquals(Long.MAX_VALUE, value(c.increment(increment("3")), "incrementResponse"));
    }

    @Test
    public void getStateIsWhatSetStateInstallsElsewhere() throws AxisFault {
        CounterService a = new CounterService();
        a.increment(increment("41"));
        a.increment(increment("1"));
        OMElement state = a.get_state(F.createOMElement("get_state", F.createOMNamespace("urn:bftws:state", "b")));
        assertEquals(42, value(state, "state"));
        CounterService b = new CounterService();
        b.set_state(state.cloneOMElement());
        assertEquals(42, b.value());
        assertEquals(43, value(b.increment(increment("1")), "incrementResponse"));
    }

    @Test
    public void aMalformedStateIsRefusedAndChangesNothing() throws AxisFault {
        CounterService c = new CounterService();
        c.increment(increment("9"));
        for (String bad : new String[] {"-5", "9223372036854775808", "abc", ""}) {
            try {
                c.set_state(state(bad));
                fail("state '" + bad + "' was installed");
            } catch (AxisFault e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("counter: value"));
            }
        }
        try {
            c.set_state(F.createOMElement("other", NS));
            fail("a foreign element was installed");
        } catch (AxisFault e) {
            assertTrue(e.getMessage(), e.getMessage().contains("expected element state"));
        }
        assertEquals(9, c.value());
    }

    @Test
    public void aRequestOfAnotherShapeIsRefused() {
        CounterService c = new CounterService();
        OMElement twoAmounts = increment("1");
        F.createOMElement("amount", NS, twoAmounts).setText("2");
        OMElement foreign = F.createOMElement("increment", F.createOMNamespace("urn:other", "o"));
        for (OMElement bad : new OMElement[] {twoAmounts, foreign, F.createOMElement("increment", NS)}) {
            try {
                c.increment(bad);
                fail("accepted " + bad);
            } catch (AxisFault e) {
                assertTrue(e.getMessage(), e.getMessage().startsWith("counter: "));
            }
        }
        assertEquals(0, c.value());
    }

    private static OMElement increment(String amount) {
        OMElement e = F.createOMElement("increment", NS);
        F.createOMElement("amount", NS, e).setText(amount);
        return e;
    }

    private static OMElement state(String value) {
        OMElement e = F.createOMElement("state", NS);
        F.createOMElement("value", NS, e).setText(value);
        return e;
    }

    private static long value(OMElement reply, String name) {
        assertEquals(name, reply.getLocalName());
        assertEquals(CounterService.NAMESPACE, reply.getNamespace().getNamespaceURI());
        OMElement v = reply.getFirstElement();
        assertEquals("value", v.getLocalName());
        return Long.parseLong(v.getText());
    }
}
