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

  // BFT-WS §3.3.3: configuration III names 2f+1 or more execution nodes outside the agreement replicas' ids,
  // and then no agreement replica executes.
  @Test
  public void executionNodesMakeConfigurationThree() {
    GroupConfig c = GroupConfig.fromProperties(Map.of("bftws.executionNodes", "6,4,5"));
    assertEquals(java.util.List.of(4, 5, 6), c.executionNodes());
    assertEquals(java.util.List.of(4, 5, 6), c.repliers());
    assertEquals(java.util.List.of(), c.executingReplicas());
    assertTrue(c.replies(5) && !c.replies(0) && !c.executes(0) && c.isExecutionNode(4));
    for (Map<String, String> wrong : java.util.List.of(Map.of("bftws.executionNodes", "4,5"),
        Map.of("bftws.executionNodes", "3,4,5"), Map.of("bftws.executionNodes", "4,4,5"),
        Map.of("bftws.executionNodes", "4,5,6", "bftws.executingReplicas", "0,1,2"))) {
      ConfigException e = assertThrows(ConfigException.class, () -> GroupConfig.fromProperties(wrong));
      assertTrue(e.key(), e.key().equals("bftws.executionNodes") || e.key().equals("bftws.executingReplicas"));
    }
  }

  @Test
  public void clientIdsStartAtNUnlessMaxReplicasIsGiven() {
    assertEquals(4, GroupConfig.defaults().clientBase());
    assertEquals(7, GroupConfig.fromProperties(Map.of("bftws.f", "2")).clientBase());
    GroupConfig c = GroupConfig.fromProperties(Map.of("bftws.maxReplicas", "7"));
    assertEquals(4, c.n());
    assertEquals(7, c.clientBase());
    assertEquals(4, GroupConfig.fromProperties(Map.of("bftws.maxReplicas", "4")).clientBase());
  }

  @Test
  public void maxReplicasBelowNIsRefusedNamingTheKey() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> GroupConfig.fromProperties(Map.of("bftws.f", "2", "bftws.maxReplicas", "6")));
    assertEquals("bftws.maxReplicas", e.key());
    assertTrue(e.getMessage(), e.getMessage().contains("at least the group's n = 7"));
    assertEquals("bftws.maxReplicas", assertThrows(ConfigException.class,
        () -> GroupConfig.fromProperties(Map.of("bftws.maxReplicas", "3"))).key());
  }

  @Test
  public void executionNodesNumberFromTheClientBase() {
    GroupConfig c = GroupConfig.fromProperties(Map.of("bftws.maxReplicas", "7", "bftws.executionNodes", "7,8,9"));
    assertEquals(java.util.List.of(7, 8, 9), c.executionNodes());
    ConfigException e = assertThrows(ConfigException.class, () -> GroupConfig.fromProperties(
        Map.of("bftws.maxReplicas", "7", "bftws.executionNodes", "4,5,6")));
    assertEquals("bftws.executionNodes", e.key());
    assertTrue(e.getMessage(), e.getMessage().contains("bftws.maxReplicas = 7"));
  }
}
