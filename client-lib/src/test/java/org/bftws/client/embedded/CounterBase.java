package org.bftws.client.embedded;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ServiceContext;

/**
 * A test service with state: {@code add(<c:add>n</c:add>)} adds n to a running total and returns
 * {@code <c:total>total</c:total>}. Each instance registers itself under its Axis2 instance (Axis2 calls
 * {@code init(ServiceContext)} on service objects), so a test can read every replica's total. Subclasses
 * expose the state to checkpoints in the two ways the Total Order Invoker supports.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public abstract class CounterBase {
    public static final String NAMESPACE = "urn:bftws:test:counter";
    public static final String ACTION = "urn:bftws:test:counter:add";

    private static final Map<ConfigurationContext, CounterBase> INSTANCES = new ConcurrentHashMap<>();

    private long total;

    public void init(ServiceContext context) {
        INSTANCES.put(context.getConfigurationContext(), this);
    }

    static CounterBase of(ConfigurationContext context) {
        return INSTANCES.get(context);
    }

    /**
     * The total of the service instance in {@code context}, or {@link Long#MIN_VALUE} while Axis2 has not
     * created it yet (a restarted replica creates it on its first execution or state installation).
     */
    static long totalOf(ConfigurationContext context) {
        CounterBase c = of(context);
        return c == null ? Long.MIN_VALUE : c.total();
    }

    public OMElement add(OMElement request) {
        long amount = Long.parseLong(request.getText().trim());
        long now;
        synchronized (this) {
            total = total + amount;
            now = total;
        }
        return element("total", now);
    }

    public synchronized long total() {
        return total;
    }

    synchronized void replaceTotal(long value) {
        total = value;
    }

    static OMElement element(String name, long value) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "c");
        OMElement e = f.createOMElement(name, ns);
        e.setText(Long.toString(value));
        return e;
    }
}
