package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;

import org.bftws.core.keys.KeyFiles;
import org.junit.Test;

/** {@code --config I|II|III} of GroupLauncher, DemoClient and scripts/start-group (BFT-WS §3.3). */
public class ConfigurationOptionTest {
    @Test
    public void configurationTwoLetsReplicasZeroToFMinusOneOnlyOrder() {
        GroupLauncher.Configuration two = GroupLauncher.Configuration.parse("ii");
        assertFalse(two.executes(0, 4));
        assertTrue(two.executes(1, 4));
        assertFalse(two.executes(1, 7));
        assertTrue(two.executes(2, 7));
        assertEquals(GroupLauncher.param("bftws.executingReplicas", "2 3 4 5 6"), two.parameters(7));
        assertEquals("", GroupLauncher.Configuration.I.parameters(4));
        assertTrue(GroupLauncher.Configuration.I.executes(0, 4));
    }

    @Test
    public void configurationThreeAddsTwoFPlusOneExecutionNodesAfterTheReplicas() {
        GroupLauncher.Configuration three = GroupLauncher.Configuration.parse("iii");
        assertEquals(4, three.agreementReplicas(7));
        assertEquals(7, three.agreementReplicas(12));
        assertFalse(three.executes(3, 7));
        assertTrue(three.executes(4, 7));
        assertTrue("its replicas take the sibling services' WS-RM messages", three.deploys(0, 7));
        assertEquals(GroupLauncher.param("bftws.executionNodes", "4 5 6"), three.parameters(7));
        assertEquals("the first client key no execution node signs with", 4, three.clientKey(7));
        assertEquals(1, GroupLauncher.Configuration.I.clientKey(4));
        assertTrue(three.memberParameters(6, 7, Path.of("k")).contains(KeyFiles.clientFileName(3)));
        assertThrows("5f+2 members", IllegalArgumentException.class, () -> three.agreementReplicas(6));
        assertThrows(IllegalArgumentException.class, () -> GroupLauncher.Configuration.parse("IV"));
    }

    /** {@code --max-replicas M}: bftws.maxReplicas for replicas and clients alike; none without it; not with III. */
    @Test
    public void maxReplicasOptionGivesTheClientBaseParameter() {
        assertEquals(GroupLauncher.param("bftws.maxReplicas", "7"), GroupLauncher.maxReplicasParameters(
                java.util.Map.of("max-replicas", "7"), GroupLauncher.Configuration.I));
        assertEquals("", GroupLauncher.maxReplicasParameters(java.util.Map.of(), GroupLauncher.Configuration.II));
        assertThrows(IllegalArgumentException.class, () -> GroupLauncher.maxReplicasParameters(
                java.util.Map.of("max-replicas", "7"), GroupLauncher.Configuration.III));
        assertThrows(NumberFormatException.class, () -> GroupLauncher.maxReplicasParameters(
                java.util.Map.of("max-replicas", "seven"), GroupLauncher.Configuration.I));
    }
}
