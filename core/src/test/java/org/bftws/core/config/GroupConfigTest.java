package org.bftws.core.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.Map;
import org.junit.Test;

/** Every key typed, defaulted and validated in one place; a wrong value names its key. */
public class GroupConfigTest {
  @Test
  public void defaultsDescribeAFourReplicaGroup() {
    GroupConfig c = GroupConfig.defaults();
    assertEquals(4, c.n());
    assertEquals(3, c.quorum());
    assertEquals(1, c.primaryOf(5));
  }

  @Test
  public void wrongValuesNameTheirKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> GroupConfig.fromProperties(Map.of("bftws.f", "zero")));
    assertEquals("bftws.f", e.key());
    e = assertThrows(ConfigException.class, () -> GroupConfig.fromProperties(Map.of("bftws.maxBatchSize", "0")));
    assertTrue(e.getMessage().contains("bftws.maxBatchSize"));
    e = assertThrows(ConfigException.class,
        () -> GroupConfig.fromProperties(Map.of("bftws.checkpointInterval", "64", "bftws.logWindow", "100")));
    assertEquals("bftws.logWindow", e.key());
  }

  @Test
  public void propertiesOverrideDefaults() {
    GroupConfig c = GroupConfig.fromProperties(Map.of("bftws.f", "2", "bftws.checkpointInterval", "8"));
    assertEquals(7, c.n());
    assertEquals(8, c.checkpointInterval());
    assertEquals((int) GroupConfig.LOG_WINDOW.defaultValue(), c.logWindow());
  }

  // Integrity paper §5: one coin per randomized request unless bftws.coinPerBatch says otherwise.
  @Test
  public void coinPerBatchIsOffByDefaultAndParsed() {
    assertEquals(false, GroupConfig.defaults().flag(GroupConfig.COIN_PER_BATCH));
    assertEquals(true, GroupConfig.fromProperties(Map.of("bftws.coinPerBatch", "true")).flag(GroupConfig.COIN_PER_BATCH));
    ConfigException e = assertThrows(ConfigException.class,
        () -> GroupConfig.fromProperties(Map.of("bftws.coinPerBatch", "yes")));
    assertEquals("bftws.coinPerBatch", e.key());
  }
}
