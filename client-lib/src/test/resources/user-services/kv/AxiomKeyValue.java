package kv;

import java.util.Map;
import java.util.TreeMap;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;

/**
 * The key-value store as an AXIOM service (operations take and return an element), its state reached through
 * operations under the paper's names: get_state returns it as an element, set_state installs that element.
 */
public class AxiomKeyValue {
    static final String NS = "urn:test:kv";
    private final TreeMap<String, String> store = new TreeMap<>();

    public synchronized OMElement put(OMElement request) {
        String old = store.put(child(request, "key"), child(request, "value"));
        return element("old", old == null ? "" : old);
    }

    public synchronized OMElement get(OMElement request) {
        String value = store.get(child(request, "key"));
        return element("value", value == null ? "" : value);
    }

    public synchronized OMElement get_state(OMElement request) {
        OMElement state = element("state", null);
        for (Map.Entry<String, String> e : store.entrySet()) {
            OMElement entry = element("entry", e.getValue());
            entry.addAttribute("key", e.getKey(), null);
            state.addChild(entry);
        }
        return state;
    }

    public synchronized OMElement set_state(OMElement state) {
        store.clear();
        for (java.util.Iterator<OMElement> it = state.getChildElements(); it.hasNext(); ) {
            OMElement entry = it.next();
            store.put(entry.getAttributeValue(new javax.xml.namespace.QName("key")), entry.getText());
        }
        return element("installed", null);
    }

    static String child(OMElement parent, String name) {
        OMElement c = parent.getFirstChildWithName(new javax.xml.namespace.QName(NS, name));
        return c == null ? "" : c.getText();
    }

    static OMElement element(String name, String text) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NS, "kv");
        OMElement e = f.createOMElement(name, ns);
        if (text != null) {
            e.setText(text);
        }
        return e;
    }
}
