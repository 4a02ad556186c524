package org.bftws.samples.register;

import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.bftws.samples.state.ServiceState;

/**
 * The key-value register sample service: named registers (every key starts at 0) with {@code write},
 * {@code read} and {@code cas} (compare-and-set), the operations a linearizability checker knows how to model.
 * Its state is the map of written keys; {@code get_state} and {@code set_state} are the state pair the Total
 * Order Manager calls for checkpoints and state transfer (BFT-WS paper §3.3.1.8), as for the counter.
 *
 * <pre>
 *   write  &lt;r:write&gt;&lt;r:key&gt;K&lt;/r:key&gt;&lt;r:value&gt;V&lt;/r:value&gt;&lt;/r:write&gt;   -&gt; &lt;r:writeResponse&gt;&lt;r:value&gt;V
 *   read   &lt;r:read&gt;&lt;r:key&gt;K&lt;/r:key&gt;&lt;/r:read&gt;                       -&gt; &lt;r:readResponse&gt;&lt;r:value&gt;V
 *   cas    &lt;r:cas&gt;&lt;r:key&gt;K&lt;/r:key&gt;&lt;r:expected&gt;E&lt;/r:expected&gt;&lt;r:value&gt;V&lt;/r:value&gt;&lt;/r:cas&gt;
 *          -&gt; &lt;r:casResponse&gt;&lt;r:ok&gt;true|false&lt;/r:ok&gt;&lt;r:value&gt;the value after&lt;/r:value&gt;
 * </pre>
 * A key is 1..{@value #MAX_KEY_LENGTH} characters of a-z, 0-9, at most {@value #MAX_KEYS} keys are held; a value is
 * a decimal of at most {@value #MAX_VALUE_DIGITS} digits. Bad input is refused with the same fault on every
 * replica and changes nothing.
 *
 * <p>The fault campaign's negative control, a register storing one more than asked, is a subclass in the test
 * sources ({@code FaultyRegisterService}, deployed as {@code register-faulty.aar}); this class has no fault switch.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class RegisterService implements ServiceState.Source {
    public static final String NAMESPACE = "urn:bftws:samples:register";
    public static final int MAX_KEY_LENGTH = 16;
    public static final int MAX_KEYS = 64;
    public static final int MAX_VALUE_DIGITS = 9;

    private final Map<String, Long> values = new TreeMap<String, Long>();

    public RegisterService() {
        ServiceState.publish("Register", this);
    }

    public synchronized OMElement write(OMElement request) throws AxisFault {
        expect(request, "write");
        String key = key(child(request, "key"));
        long value = number(child(request, "value"));
        store(key, value);
        return reply("writeResponse", null, values.get(key));
    }

    public synchronized OMElement read(OMElement request) throws AxisFault {
        expect(request, "read");
        return reply("readResponse", null, valueOf(key(child(request, "key"))));
    }

    public synchronized OMElement cas(OMElement request) throws AxisFault {
        expect(request, "cas");
        String key = key(child(request, "key"));
        long expected = number(child(request, "expected"));
        long value = number(child(request, "value"));
        boolean ok = valueOf(key) == expected;
        if (ok) {
            store(key, value);
        }
        return reply("casResponse", Boolean.valueOf(ok), valueOf(key));
    }

    /** The state for a checkpoint: {@code <r:state><r:entry><r:key>K</r:key><r:value>V</r:value></r:entry>...}. */
    public synchronized OMElement get_state(OMElement request) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "r");
        OMElement state = f.createOMElement("state", ns);
        for (Map.Entry<String, Long> e : values.entrySet()) {
            OMElement entry = f.createOMElement("entry", ns, state);
            f.createOMElement("key", ns, entry).setText(e.getKey());
            f.createOMElement("value", ns, entry).setText(e.getValue().toString());
        }
        return state;
    }

    /** Installs a checkpoint's state, as {@link #get_state} returned it on the replicas that took it. */
    public synchronized OMElement set_state(OMElement state) throws AxisFault {
        expect(state, "state");
        Map<String, Long> installed = new TreeMap<String, Long>();
        Iterator<?> entries = state.getChildElements();
        while (entries.hasNext()) {
            OMElement entry = (OMElement) entries.next();
            expect(entry, "entry");
            installed.put(key(child(entry, "key")), Long.valueOf(number(child(entry, "value"))));
        }
        if (installed.size() > MAX_KEYS) {
            throw new AxisFault("register: a state holds at most 64 keys");
        }
        values.clear();
        values.putAll(installed);
        return OMAbstractFactory.getOMFactory().createOMElement("set_stateResponse",
                OMAbstractFactory.getOMFactory().createOMNamespace(NAMESPACE, "r"));
    }

    /** {@code key=value} pairs in key order, space separated: the map {@link #get_state} captures. */
    @Override
    public synchronized String stateText() {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, Long> e : values.entrySet()) {
            if (text.length() > 0) {
                text.append(' ');
            }
            text.append(e.getKey()).append('=').append(e.getValue().longValue());
        }
        return text.toString();
    }

    private void store(String key, long value) throws AxisFault {
        if (!values.containsKey(key) && values.size() >= MAX_KEYS) {
            throw new AxisFault("register: at most 64 keys are held");
        }
        values.put(key, Long.valueOf(value));
    }

    private long valueOf(String key) {
        Long v = values.get(key);
        return v == null ? 0 : v.longValue();
    }

    private static OMElement reply(String name, Boolean ok, long value) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "r");
        OMElement reply = f.createOMElement(name, ns);
        if (ok != null) {
            f.createOMElement("ok", ns, reply).setText(ok.toString());
        }
        f.createOMElement("value", ns, reply).setText(Long.toString(value));
        return reply;
    }

    /** The text of {@code parent}'s child {@code r:name} (exactly one). */
    private static String child(OMElement parent, String name) throws AxisFault {
        String found = null;
        Iterator<?> children = parent.getChildElements();
        while (children.hasNext()) {
            OMElement c = (OMElement) children.next();
            if (isOurs(c, name)) {
                if (found != null) {
                    throw new AxisFault("register: more than one ".concat(name));
                }
                found = c.getText();
            }
        }
        if (found == null) {
            throw new AxisFault("register: missing ".concat(name));
        }
        return found;
    }

    private static void expect(OMElement e, String name) throws AxisFault {
        if (e == null || !isOurs(e, name)) {
            throw new AxisFault("register: expected element ".concat(name).concat(" in ").concat(NAMESPACE));
        }
    }

    private static boolean isOurs(OMElement e, String name) {
        return name.equals(e.getLocalName()) && e.getNamespace() != null
                && NAMESPACE.equals(e.getNamespace().getNamespaceURI());
    }

    private static String key(String text) throws AxisFault {
        boolean ok = !text.isEmpty() && text.length() <= MAX_KEY_LENGTH;
        for (int i = 0; ok && i < text.length(); i++) {
            char c = text.charAt(i);
            ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        }
        if (!ok) {
            throw new AxisFault("register: a key is 1 to 16 characters of a-z and 0-9");
        }
        return text;
    }

    private static long number(String text) throws AxisFault {
        boolean ok = !text.isEmpty() && text.length() <= MAX_VALUE_DIGITS;
        for (int i = 0; ok && i < text.length(); i++) {
            char c = text.charAt(i);
            ok = c >= '0' && c <= '9';
        }
        if (!ok) {
            throw new AxisFault("register: a value is a decimal number of at most 9 digits");
        }
        return Long.parseLong(text);
    }
}
