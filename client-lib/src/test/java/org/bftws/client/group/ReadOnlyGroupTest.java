package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.function.BooleanSupplier;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.bftws.core.message.Request;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.invoker.GroupServices;
import org.bftws.module.random.DeclaredOperations;
import org.bftws.module.order.TotalOrderManager;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * PBFT's read-only optimisation (Castro-Liskov §5.1.3) through the module: the real {@code counter.aar}, whose
 * WSDL declares {@code read} {@code <bftws:ReadOnly/>}, in the demo group of {@link GroupLauncher} (four replicas
 * over loopback HTTP). A {@code ServiceClient} flagged {@link GroupClients#readOnly} reads the value after
 * ordered increments with 2f+1 matching replies and no ordering; its read-only call of {@code increment} is
 * refused by every replica (evidence) and reaches the counter only ordered, once.
 */
public class ReadOnlyGroupTest {
    private static final long WAIT_MS = 30_000;
    /**
     * The client orders a read-only call after 50 ticks (1 s) without 2f+1 matching replies: soon enough for the
     * refused increment, late enough that a loaded machine does not make a read fall back.
     */
    private static final String FAST_FALLBACK = GroupLauncher.param("bftws.clientRetransmitTicks", "50");

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(120);

    @Test
    public void readOnlyReadsAreNotOrderedAndAReadOnlyIncrementIsRefused() throws Exception {
        group.clientParameters(FAST_FALLBACK).start();
        DemoClient client = group.client("client");
        ServiceClient reader = GroupClients.create(client.context(), GroupLauncher.COUNTER_ENDPOINT,
                GroupLauncher.COUNTER_READ, WAIT_MS);
        GroupClients.readOnly(reader, true);
        ServiceClient writer = GroupClients.create(client.context(), GroupLauncher.COUNTER_ENDPOINT,
                GroupLauncher.COUNTER_INCREMENT, WAIT_MS);
        GroupClients.readOnly(writer, true);
        try {
            assertEquals("a fresh counter, read without ordering", 0, read(reader));
            for (int r = 0; r < LaunchedGroup.N; r++) {
                TotalOrderManager m = group.manager(r);
                await("replica " + r + " executed the first read", () -> m.readOnlyExecuted() == 1);
            }
            long expected = 0;
            for (int amount = 1; amount <= 5; amount++) {
                expected += amount;
                assertEquals(expected, client.increment(amount).value());
            }
            // f+1 replies answered the last increment: wait until the slowest replica executed it too
            await("every replica executed the increments", () -> Arrays.stream(lastExecuted()).distinct()
                    .count() == 1);
            long[] executed = lastExecuted();
            long[] reads = readOnlyExecuted();
            assertEquals("the value after the ordered increments", expected, read(reader));
            assertEquals(expected, read(reader));
            for (int r = 0; r < LaunchedGroup.N; r++) {
                TotalOrderManager m = group.manager(r);
                long before = reads[r];
                // 2f+1 matching replies answered the client: the last replica may still be executing
                await("replica " + r + " executed both reads", () -> m.readOnlyExecuted() == before + 2);
                assertEquals("replica " + r + " ordered nothing for the reads", executed[r], m.lastExecuted());
            }

            reads = readOnlyExecuted();
            assertEquals("the read-only increment, ordered after the replicas refused it", expected + 3,
                    valueOf(writer.sendReceive(increment(3)), "incrementResponse"));
            expected += 3;
            for (int r = 0; r < LaunchedGroup.N; r++) {
                TotalOrderManager m = group.manager(r);
                await("replica " + r + " refused the read-only increment", () -> m.evidenceCounts().byKind()
                        .containsKey("read-only request for an operation that is not read-only"));
                assertEquals("replica " + r + " executed no increment without ordering", reads[r],
                        m.readOnlyExecuted());
            }
            assertEquals("the increment applied once", expected, read(reader));
            assertEquals(expected, client.readCounter().value());
            declarationsDecideWhichRequestsAreReadOnly();
        } finally {
            reader.cleanup();
            writer.cleanup();
        }
    }

    /** The module's answer to core's "is this request read-only?" on a running replica, from the deployed WSDLs. */
    private void declarationsDecideWhichRequestsAreReadOnly() {
        DeclaredOperations ops = new DeclaredOperations(
                new GroupServices(group.replica(1).context().getAxisConfiguration(), "Echo"));
        assertTrue(ops.isReadOnly(request("Counter", GroupLauncher.COUNTER_READ)));
        assertTrue(ops.isReadOnly(request("", "urn:bftws:samples:echo:echoReadOnly")));
        assertFalse(ops.isReadOnly(request("Counter", GroupLauncher.COUNTER_INCREMENT)));
        assertFalse(ops.isReadOnly(request("", GroupLauncher.ECHO_ACTION)));
        assertFalse("action of another service", ops.isReadOnly(request("Echo", GroupLauncher.COUNTER_READ)));
        assertFalse("not deployed", ops.isReadOnly(request("Ledger", GroupLauncher.COUNTER_READ)));
        assertFalse(ops.isRandomized(request("Counter", GroupLauncher.COUNTER_READ)));
    }

    private static Request request(String service, String action) {
        return new Request(4, "urn:bftws:sequence:t", 1, false, new ApplicationRequest(service, action, false,
                "<x xmlns=\"urn:x\"/>".getBytes(StandardCharsets.UTF_8)).encode());
    }

    private long read(ServiceClient reader) throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        return valueOf(reader.sendReceive(f.createOMElement("read", f.createOMNamespace(GroupLauncher.COUNTER_NS, "c"))),
                "readResponse");
    }

    private static OMElement increment(long amount) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement request = f.createOMElement("increment", f.createOMNamespace(GroupLauncher.COUNTER_NS, "c"));
        f.createOMElement("amount", request.getNamespace(), request).setText(Long.toString(amount));
        return request;
    }

    private static long valueOf(OMElement reply, String element) {
        assertEquals(element, reply.getLocalName());
        Iterator<?> children = reply.getChildElements();
        assertTrue("a value in " + reply, children.hasNext());
        return Long.parseLong(((OMElement) children.next()).getText());
    }

    private long[] lastExecuted() {
        long[] out = new long[LaunchedGroup.N];
        for (int r = 0; r < out.length; r++) {
            out[r] = group.manager(r).lastExecuted();
        }
        return out;
    }

    private long[] readOnlyExecuted() {
        long[] out = new long[LaunchedGroup.N];
        for (int r = 0; r < out.length; r++) {
            out[r] = group.manager(r).readOnlyExecuted();
        }
        return out;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }
}
