package org.bftws.core.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Which message in flight an engine-level harness delivers next (docs/design/testing.md, "Engine-level
 * harnesses"): first sent, first delivered ({@link #fifo}), or any of those in flight, drawn from a seeded
 * {@link Random} as an asynchronous network may deliver them ({@link #seeded}). The simulator's adversary
 * adds time, loss, partitions and crashes on top and is its own ({@code sim.Network}).
 */
public interface Scheduler<M> {
  /** A message enters the network. */
  void post(M m);

  /** The message delivered next, taken out of the network; null when none is in flight. */
  M next();

  /** Messages in flight. */
  int size();

  /** First sent, first delivered. */
  static <M> Scheduler<M> fifo() {
    return new Scheduler<>() {
      private final ArrayDeque<M> queue = new ArrayDeque<>();

      @Override
      public void post(M m) {
        queue.add(m);
      }

      @Override
      public M next() {
        return queue.poll();
      }

      @Override
      public int size() {
        return queue.size();
      }
    };
  }

  /** Each next message drawn uniformly from those in flight by {@code rng}. */
  static <M> Scheduler<M> seeded(Random rng) {
    return new Scheduler<>() {
      private final List<M> inFlight = new ArrayList<>();

      @Override
      public void post(M m) {
        inFlight.add(m);
      }

      @Override
      public M next() {
        if (inFlight.isEmpty()) {
          return null;
        }
        int k = rng.nextInt(inFlight.size());
        M m = inFlight.get(k);
        inFlight.set(k, inFlight.get(inFlight.size() - 1)); // order among the rest is the draw's business
        inFlight.remove(inFlight.size() - 1);
        return m;
      }

      @Override
      public int size() {
        return inFlight.size();
      }
    };
  }
}
