package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

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
    public void configurationThreeIsRefusedSayingItIsNotBuilt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GroupLauncher.Configuration.parse("III"));
        assertTrue(e.getMessage(), e.getMessage().contains("not built"));
        assertThrows(IllegalArgumentException.class, () -> GroupLauncher.Configuration.parse("IV"));
    }
}
