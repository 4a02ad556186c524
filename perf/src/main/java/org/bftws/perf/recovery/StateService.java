package org.bftws.perf.recovery;

import java.util.Arrays;
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
 * The recovery experiment's replicated service (BFT-WS paper §4.2: "the application state consists of
 * multiple XML elements, and its size ... is fixed during the life-cycle of each replica"): a state of
 * {@code stateBytes} bytes (a services.xml parameter) that every {@code update} request changes in one place,
 * reached by checkpoints and state transfer through {@link StatefulService}. A restarted replica begins with
 * zeros, so only state transfer can give it the group's state.
 *
 * <p>Each instance registers under its Axis2 instance and records when its state was installed, when it next
 * executed, and how long each {@code get_state} took, for the experiment to read.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class StateService implements StatefulService {
    public static final String NAMESPACE = "urn:bftws:perf:state";
    public static final String ACTION = "urn:bftws:perf:state:update";
    public static final String STATE_BYTES_PARAMETER = "stateBytes";

    private static final Map<ConfigurationContext, StateService> INSTANCES = new ConcurrentHashMap<>();

    private byte[] state = new byte[0];
    private long updates;
    private long getStateNanos;
    private long getStateCalls;
    private long setStateAt;
    private long firstExecutedAfterSetState;

    public void init(ServiceContext context) {
        Object size = context.getAxisService().getParameterValue(STATE_BYTES_PARAMETER);
        synchronized (this) {
            state = new byte[size == null ? 0 : Integer.parseInt(size.toString().trim())];
        }
        INSTANCES.put(context.getConfigurationContext(), this);
    }

    /** The instance serving the Axis2 instance {@code context}, or null until Axis2 created it. */
    public static StateService of(ConfigurationContext context) {
        return INSTANCES.get(context);
    }

    /** Forgets the instance of a stopped Axis2 instance. */
    public static void forget(ConfigurationContext context) {
        INSTANCES.remove(context);
    }

    /** One update: the n-th changes one byte (spread over the whole state) and returns n. */
    public OMElement update(OMElement request) {
        long n;
        synchronized (this) {
            n = ++updates;
            if (state.length > 0) {
                int at = (int) ((n * 7919L) % state.length);
                state[at] = (byte) (state[at] + n);
            }
            if (setStateAt != 0 && firstExecutedAfterSetState == 0) {
                firstExecutedAfterSetState = System.nanoTime();
            }
        }
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(NAMESPACE, "s");
        OMElement e = f.createOMElement("updated", ns);
        e.setText(Long.toString(n));
        return e;
    }

    /** The state and the update count (8 bytes, big-endian), copied: core keeps it as the checkpoint. */
    @Override
    public synchronized byte[] getState() {
        long t0 = System.nanoTime();
        byte[] out = Arrays.copyOf(state, state.length + 8);
        for (int i = 0; i < 8; i++) {
            out[state.length + i] = (byte) (updates >>> (56 - 8 * i));
        }
        getStateNanos += System.nanoTime() - t0;
        getStateCalls++;
        return out;
    }

    @Override
    public synchronized void setState(byte[] checkpoint) {
        int size = checkpoint.length - 8;
        state = Arrays.copyOf(checkpoint, size);
        long n = 0;
        for (int i = 0; i < 8; i++) {
            n = (n << 8) | (checkpoint[size + i] & 0xff);
        }
        updates = n;
        setStateAt = System.nanoTime();
        firstExecutedAfterSetState = 0;
    }

    public synchronized int stateBytes() {
        return state.length;
    }

    /** Mean time a {@code get_state} took to copy the state, in nanoseconds; 0 before the first. */
    public synchronized double meanGetStateNanos() {
        return getStateCalls == 0 ? 0 : (double) getStateNanos / getStateCalls;
    }

    /** {@link System#nanoTime()} of the last {@code set_state}, or 0. */
    public synchronized long setStateAt() {
        return setStateAt;
    }

    /** {@link System#nanoTime()} of the first update executed after the last {@code set_state}, or 0. */
    public synchronized long firstExecutedAfterSetState() {
        return firstExecutedAfterSetState;
    }
}
