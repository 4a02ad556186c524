package org.bftws.core.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/**
 * Which message in flight an engine-level harness delivers next (docs/design/testing.md, "Engine-level
 * harnesses"): first sent, first delivered ({@link #fifo}), or any of those in flight, drawn from a seeded
 * {@link Random} as an asynchronous network may deliver them ({@link #seeded}), or drawn by an adversary that
 * favours the newest and holds some back ({@link #adversary}). The simulator's adversary
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
    return new InFlight<>() {
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
    };
  }

  /**
   * The async engine tests' adversary (as {@code async.AsyncNet}'s): any message in flight next, the newest
   * with probability {@code newestBias}; those {@code heldBack} names (asked at each draw) only when nothing
   * else is in flight.
   */
  static <M> Scheduler<M> adversary(Random rng, double newestBias, Predicate<M> heldBack) {
    return new InFlight<>() {
      @Override
      public M next() {
        if (inFlight.isEmpty()) {
          return null;
        }
        List<Integer> free = new ArrayList<>();
        for (int i = 0; i < inFlight.size(); i++) {
          if (!heldBack.test(inFlight.get(i))) {
            free.add(i);
          }
        }
        int k;
        if (free.isEmpty()) {
          k = rng.nextInt(inFlight.size());
        } else if (rng.nextDouble() < newestBias) {
          k = free.get(free.size() - 1);
        } else {
          k = free.get(rng.nextInt(free.size()));
        }
        return inFlight.remove(k);
      }
    };
  }
}

/** The messages in flight of a scheduler that draws among them. */
abstract class InFlight<M> implements Scheduler<M> {
  protected final List<M> inFlight = new ArrayList<>();

  @Override
  public void post(M m) {
    inFlight.add(m);
  }

  @Override
  public int size() {
    return inFlight.size();
  }
}
