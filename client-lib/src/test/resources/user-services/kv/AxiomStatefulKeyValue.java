package kv;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import org.apache.axiom.om.OMElement;
import org.bftws.module.api.StatefulService;

/** The key-value store as an AXIOM service whose state reaches checkpoints through StatefulService. */
public class AxiomStatefulKeyValue implements StatefulService {
    private final TreeMap<String, String> store = new TreeMap<>();

    public synchronized OMElement put(OMElement request) {
        String old = store.put(AxiomKeyValue.child(request, "key"), AxiomKeyValue.child(request, "value"));
        return AxiomKeyValue.element("old", old == null ? "" : old);
    }

    public synchronized OMElement get(OMElement request) {
        String value = store.get(AxiomKeyValue.child(request, "key"));
        return AxiomKeyValue.element("value", value == null ? "" : value);
    }

    /** Lines "key=value" in key order (keys and values without '=' or line breaks, as the test writes them). */
    @Override
    public synchronized byte[] getState() {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, String> e : store.entrySet()) {
            b.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void setState(byte[] state) {
        store.clear();
        for (String line : new String(state, StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                store.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
    }
}
