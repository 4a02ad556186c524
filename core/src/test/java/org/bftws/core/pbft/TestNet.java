package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

import org.bftws.core.message.Request;

/** The routing of a replica's outbound messages in the unit tests' in-memory groups of n replicas. */
final class TestNet {
  private TestNet() {}

  /** Each of {@code r}'s messages to its replica, or to every other replica; messages to clients are dropped. */
  static void fanOut(int from, int n, Ready r, BiConsumer<Integer, byte[]> send) {
    for (Ready.Outbound o : r.messages) {
      if (o.to() == Ready.ALL_REPLICAS) {
        for (int to = 0; to < n; to++) {
          if (to != from) {
            send.accept(to, o.bytes());
          }
        }
      } else if (o.to() < n) {
        send.accept(o.to(), o.bytes());
      }
    }
  }

  /** The results of an executed batch: {@code app} applied to each request's operation, in order. */
  static List<byte[]> results(Effect.Execute ex, UnaryOperator<byte[]> app) {
    List<byte[]> results = new ArrayList<>();
    for (Request q : ex.requests()) {
      results.add(app.apply(q.operation()));
    }
    return results;
  }
}
