package org.bftws.samples.counter;

import java.util.Iterator;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.bftws.samples.state.ServiceState;

/**
 * The stateful counter sample service (wsdl/counter.wsdl): {@code increment} adds an amount to one running
 * value and returns the new value, {@code read} returns it. The value is the service's whole state; the
 * Total Order Manager captures it for checkpoints with {@code get_state} and installs a checkpoint's with
 * {@code set_state} on a replica that fell behind (BFT-WS paper §3.3.1.8, docs/module.md "State").
 *
 * <p>Every replica must compute the same reply from the same ordered requests, so the operations depend on
 * nothing but the request and the value, and bad input is refused with a fault whose reason is the same on
 * every replica, leaving the value unchanged: an amount outside {@value #MIN_AMOUNT}..{@value #MAX_AMOUNT}
 * or not a plain decimal number, and an increment that would take the value beyond {@link Long#MAX_VALUE}.
 *
 * <p>One object serves every ordered request of a replica (the Total Order Invoker binds it once), on the
 * replica's execution thread; the methods are synchronized all the same, as a service object may be shared.
 * No lambdas and no string {@code +} here: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class CounterService implements ServiceState.Source {
    /** Target namespace of wsdl/counter.wsdl. */
    public static final String NAMESPACE = "urn:bftws:samples:counter";
    public static final long MIN_AMOUNT = 1;
    /** Bounds each request's effect; 7 digits at most, so the text is checked before it is parsed. */
    public static final long MAX_AMOUNT = 1_000_000;
    private static final int MAX_AMOUNT_DIGITS = 7;
    /** {@link Long#MAX_VALUE} has 19 digits. */
    private static final int MAX_VALUE_DIGITS = 19;

    private long value;

    public CounterService() {
        ServiceState.publish("Counter", this);
    }

    /** {@code <c:increment><c:amount>N</c:amount></c:increment>} → {@code <c:incrementResponse><c:value>}. */
    public synchronized OMElement increment(OMElement request) throws AxisFault {
        long amount = number(child(request, "increment", "amount"), MAX_AMOUNT_DIGITS, "amount");
        if (amount < MIN_AMOUNT || amount > MAX_AMOUNT) {
            throw new AxisFault("counter: amount must be between ".concat(Long.toString(MIN_AMOUNT)).concat(" and ")
                    .concat(Long.toString(MAX_AMOUNT)));
        }
        if (value > Long.MAX_VALUE - amount) {
            throw new AxisFault("counter: the increment would overflow the value (at most ".concat(Long.toString(
                    Long.MAX_VALUE)).concat(")"));
        }
        value = value + amount;
        return valueElement("incrementResponse");
    }

    /** {@code <c:read/>} → {@code <c:readResponse><c:value>}. */
    public synchronized OMElement read(OMElement request) throws AxisFault {
        expect(request, "read");
        return valueElement("readResponse");
    }

    /** The state for a checkpoint: {@code <c:state><c:value>N</c:value></c:state>}. */
    public synchronized OMElement get_state(OMElement request) {
        return valueElement("state");
    }

    /** Installs a checkpoint's state, as {@link #get_state} returned it on the replicas that took it. */
    public synchronized OMElement set_state(OMElement state) throws AxisFault {
        value = number(child(state, "state", "value"), MAX_VALUE_DIGITS, "value");
        return valueElement("set_stateResponse");
    }

    /** The current value (for tests and local use; replicas are read through the {@code read} operation). */
    public synchronized long value() {
        return value;
    }

    /** The value in decimal: what {@link ServiceState} shows of this replica's counter. */
    @Override
    public synchronized String stateText() {
        return Long.toString(value);
    }

    private OMElement valueElement(String name) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "c");
        OMElement reply = f.createOMElement(name, ns);
        f.createOMElement("value", ns, reply).setText(Long.toString(value));
        return reply;
    }

    /** The text of {@code parent}'s only child, which must be {@code c:childName} of this namespace. */
    private static String child(OMElement parent, String parentName, String childName) throws AxisFault {
        expect(parent, parentName);
        Iterator<?> children = parent.getChildElements();
        OMElement only = children.hasNext() ? (OMElement) children.next() : null;
        if (only == null || children.hasNext() || !isOurs(only, childName)) {
            throw new AxisFault("counter: ".concat(parentName).concat(" must hold exactly one ").concat(childName));
        }
        return only.getText();
    }

    private static void expect(OMElement e, String name) throws AxisFault {
        if (e == null || !isOurs(e, name)) {
            throw new AxisFault("counter: expected element ".concat(name).concat(" in ").concat(NAMESPACE));
        }
    }

    private static boolean isOurs(OMElement e, String name) {
        return name.equals(e.getLocalName()) && e.getNamespace() != null
                && NAMESPACE.equals(e.getNamespace().getNamespaceURI());
    }

    /** A non-negative decimal of at most {@code digits} ASCII digits (so it fits a long: no sign, no spaces). */
    private static long number(String text, int digits, String what) throws AxisFault {
        boolean ok = !text.isEmpty() && text.length() <= digits;
        for (int i = 0; ok && i < text.length(); i++) {
            char c = text.charAt(i);
            ok = c >= '0' && c <= '9';
        }
        if (!ok) {
            throw new AxisFault("counter: ".concat(what).concat(" must be a decimal number of at most ")
                    .concat(Integer.toString(digits)).concat(" digits"));
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            // 19 digits may still exceed Long.MAX_VALUE
            throw new AxisFault("counter: ".concat(what).concat(" is out of range"));
        }
    }
}
