package org.bftws.module.order;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Engine;
import org.bftws.core.message.Request;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.config.JournalDurability;
import org.bftws.module.config.Ordering;
import org.bftws.module.journal.JournalStore;
import org.junit.Test;

/**
 * The module builds every ordering engine in one place and fixes at construction what core's {@code Engine}
 * contract no longer takes afterwards: each engine is built with what it supports, and a configuration it
 * cannot run is refused with the reason, before any step.
 */
public class EngineOptionsTest {
    private final TestKeys keys = TestKeys.seeded(7, 1);

    private EngineOptions options(GroupConfig cfg, int id) {
        return new EngineOptions(cfg, id, keys.signer(id), keys.verifier(), RandomnessConfig.none());
    }

    @Test
    public void pbftIsBuiltByDefaultWithAPrimaryAndRecoversOnlyWithAJournal() throws Exception {
        EngineOptions o = options(GroupConfig.defaults(), 1);
        Engine plain = o.build(keys.verifier());
        assertTrue(plain.hasPrimary());
        assertEquals(0, plain.view());
        assertTrue(o.describe(), o.describe().startsWith("PBFT "));
        try {
            plain.recover(List.of());
            fail("a replica built without a journal recovered");
        } catch (IllegalStateException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("journaled"));
        }
        Path dir = Files.createTempDirectory("engine-options");
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            Engine journaled = options(GroupConfig.defaults(), 1).journal(store).build(keys.verifier());
            assertTrue(journaled.recover(List.of()).isEmpty());
        }
    }

    @Test
    public void asynchronousOrderingNeedsTheThresholdCoin() {
        EngineOptions o = options(GroupConfig.defaults(), 0).ordering(Ordering.ASYNC);
        try {
            o.build(keys.verifier());
            fail("asynchronous ordering built without CT randomness");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("threshold coin"));
        }
    }

    @Test
    public void anExecutionNodeIsBuiltWithoutPrimaryOrReadOnlyExecutionAndRefusesAJournal() throws Exception {
        GroupConfig three = GroupConfig.builder().executionNodes(List.of(4, 5, 6)).build();
        Engine node = options(three, 4).build(keys.verifier());
        assertFalse(node.hasPrimary());
        assertTrue(node.isActive());
        try {
            node.executedReadOnly(new Request(4, "s", 1, false, new byte[0]), new byte[0]);
            fail("an execution node took a read-only result it never handed out");
        } catch (IllegalStateException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("no read-only execution"));
        }
        Path dir = Files.createTempDirectory("engine-options");
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            options(three, 4).journal(store).build(keys.verifier());
            fail("an execution node was built with a journal");
        } catch (IllegalArgumentException expected) {
            assertEquals("only ordering replicas keep a journal, not the execution node of"
                    + " configuration III (agreement by 4 PBFT replicas)", expected.getMessage());
        }
    }
}
