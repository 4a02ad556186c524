package org.bftws.client.embedded;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ServiceContext;
import org.bftws.module.api.StatefulService;

/**
 * A test service with state: {@code add(<c:add>n</c:add>)} adds n to a running total and returns
 * {@code <c:total>total</c:total>}. It implements {@link StatefulService}, so the Total Order Invoker
 * checkpoints it and installs transferred state into it. Each instance registers itself under its Axis2
 * instance (Axis2 calls {@code init(ServiceContext)} on service objects), so a test can read every replica's
 * total.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (DEPENDENCIES.md).
 */
public class StatefulCounter implements StatefulService {
    public static final String NAMESPACE = "urn:bftws:test:counter";
    public static final String ACTION = "urn:bftws:test:counter:add";

    private static final Map<ConfigurationContext, StatefulCounter> INSTANCES = new ConcurrentHashMap<>();

    private long total;

    public void init(ServiceContext context) {
        INSTANCES.put(context.getConfigurationContext(), this);
    }

    static StatefulCounter of(ConfigurationContext context) {
        return INSTANCES.get(context);
    }

    public OMElement add(OMElement request) {
        long amount = Long.parseLong(request.getText().trim());
        long now;
        synchronized (this) {
            total = total + amount;
            now = total;
        }
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "c");
        OMElement reply = f.createOMElement("total", ns);
        reply.setText(Long.toString(now));
        return reply;
    }

    public synchronized long total() {
        return total;
    }

    @Override
    public synchronized byte[] getState() {
        return ByteBuffer.allocate(8).putLong(total).array();
    }

    @Override
    public synchronized void setState(byte[] state) {
        total = ByteBuffer.wrap(state).getLong();
    }
}
