package org.bftws.perf.recovery;

import java.util.Arrays;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;

/**
 * The paper's "single client that continuously issues requests to the replicas" (§4.2): one ServiceClient
 * with bftws engaged calling {@code update} in a loop with no think time on its own thread, recording when
 * each voted reply arrived. Failed calls are counted and the loop goes on (a view change delays replies, it
 * must not end the run).
 */
final class SteadyClient implements AutoCloseable {
    /** Above a view change with its timeouts: a call that takes longer counts as an error. */
    static final long TIMEOUT_MS = 30_000;

    private final ServiceClient client;
    private final Thread thread;
    private long[] replies = new long[1024];
    private int count;
    private int errors;
    private String firstError;
    private volatile boolean stopping;

    SteadyClient(ConfigurationContext context, String groupEndpoint) throws Exception {
        client = new ServiceClient(context, null);
        client.engageModule("bftws");
        Options o = client.getOptions();
        o.setTo(new EndpointReference(groupEndpoint));
        o.setAction(StateService.ACTION);
        o.setTimeOutInMilliSeconds(TIMEOUT_MS);
        thread = new Thread(this::loop, "perf-recovery-client");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        OMFactory f = OMAbstractFactory.getOMFactory();
        while (!stopping) {
            OMElement request = f.createOMElement("update", f.createOMNamespace(StateService.NAMESPACE, "s"));
            try {
                OMElement reply = client.sendReceive(request);
                long now = System.nanoTime();
                if (!"updated".equals(reply.getLocalName())) {
                    throw new IllegalStateException("unexpected reply " + reply.getQName());
                }
                record(now);
            } catch (Exception e) {
                synchronized (this) {
                    errors++;
                    if (firstError == null) {
                        firstError = e.toString();
                    }
                }
            }
        }
    }

    private synchronized void record(long nanos) {
        if (count == replies.length) {
            replies = Arrays.copyOf(replies, count * 2);
        }
        replies[count++] = nanos;
        notifyAll();
    }

    /** Replies received so far. */
    synchronized int replies() {
        return count;
    }

    /** Arrival times of the replies so far, in order. */
    synchronized long[] replyTimes() {
        return Arrays.copyOf(replies, count);
    }

    synchronized int errors() {
        return errors;
    }

    synchronized String firstError() {
        return firstError;
    }

    /** Waits until {@code total} replies have arrived; false when {@code timeoutMillis} passed first. */
    synchronized boolean awaitReplies(int total, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (count < total) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Stops the loop after its current call and releases the client. */
    @Override
    public void close() throws Exception {
        stopping = true;
        thread.join(TIMEOUT_MS + 5_000);
        client.cleanup();
    }
}
