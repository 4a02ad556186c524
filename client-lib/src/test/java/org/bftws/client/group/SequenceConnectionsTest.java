package org.bftws.client.group;

import static org.junit.Assert.assertEquals;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.GroupClients;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A client JVM that opens many sequences (a client retiring its sequence after each timeout, as the fault
 * campaign's clients do) keeps reaching the group: each CreateSequence exchange hands its HTTP connection back to
 * the context's shared pool, which holds 200, so more than 200 / 4 sequences with a group of four must work.
 */
public class SequenceConnectionsTest {
    /** More sequences than the shared pool's 200 connections allow with four replicas if each kept one. */
    private static final int SEQUENCES = 60;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(240);

    @Test
    public void manySequencesFromOneClientEachOpenAndAnswer() throws Exception {
        group.start();
        DemoClient client = group.client("client");
        OMFactory f = OMAbstractFactory.getOMFactory();
        for (int s = 1; s <= SEQUENCES; s++) {
            ServiceClient counter = GroupClients.create(client.context(), GroupLauncher.COUNTER_ENDPOINT,
                    GroupLauncher.COUNTER_READ, 10_000);
            try {
                OMElement reply = counter.sendReceive(f.createOMElement("read",
                        f.createOMNamespace(GroupLauncher.COUNTER_NS, "c")));
                assertEquals("sequence " + s + ": the counter's value", "0", reply.getFirstElement().getText());
            } finally {
                counter.cleanup();
            }
        }
    }
}
