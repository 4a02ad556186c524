package org.bftws.core.pbft;

import org.bftws.core.config.GroupConfig;

/** Configurations used by several tests. */
final class GroupConfigs {
  private GroupConfigs() {}

  static GroupConfig withOutstanding(int batches) {
    return GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 4).set(GroupConfig.LOG_WINDOW, 8)
        .set(GroupConfig.MAX_OUTSTANDING_BATCHES, batches).build();
  }
}
