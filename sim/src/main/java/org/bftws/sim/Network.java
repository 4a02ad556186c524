package org.bftws.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * The simulated network on virtual time: messages in flight, ordered by (delivery time, insertion order) so
 * that a seed replays exactly, and the benign fault mix of {@link Faults} until the heal — delay, reordering,
 * duplication, partitions and clogged links.
 *
 * <p>Two link models. Lossy links (PBFT's, Castro-Liskov §2; and the asynchronous engine's in its runs
 * with ticks): before the heal a lost message or one a partition blocks is gone, and retransmission and
 * state transfer must make up for it. Reliable links (SINTRA §2, the asynchronous engine's runs without
 * ticks): nothing is lost, only delayed — a blocked message waits until its partition ends, a "lost" one
 * until a time up to the heal. Under asynchronous ordering the {@link AsyncAdversary} may in either case
 * hold back whatever it names until nothing else is in flight.
 */
final class Network {
  record Delivery(long time, long order, int from, int fromSide, int to, byte[] bytes) {}

  private record Partition(Set<Integer> group, boolean blockOut, boolean blockIn, long until) {}

  private final SimOptions o;
  private final Random rng;
  private final Faults faults;
  /** Asynchronous links only (null for PBFT): what the scheduler holds back. */
  private final AsyncAdversary adversary;
  /** SINTRA's reliable links (nothing lost, only delayed) rather than PBFT's lossy ones. */
  private final boolean reliable;
  private final PriorityQueue<Delivery> queue = new PriorityQueue<>(
      (a, b) -> a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.order, b.order));
  /** Messages the adversary holds back, in sending order; released when nothing else is in flight. */
  private final List<Delivery> held = new ArrayList<>();
  private final List<Partition> partitions = new ArrayList<>();
  private final Map<Long, long[]> clogs = new HashMap<>();
  private long order;
  private long heldTotal;
  /** Lossy links: the longest the adversary holds a message back (ten retransmission intervals by default). */
  static final long HOLD_LIMIT = 500;

  /** {@code adversary}: null for none (PBFT); {@code reliable}: links that lose nothing (see the class). */
  Network(SimOptions o, Random rng, Faults faults, AsyncAdversary adversary, boolean reliable) {
    this.o = o;
    this.rng = rng;
    this.faults = faults;
    this.adversary = adversary;
    this.reliable = reliable;
  }

  /** Messages held back by the adversary over the run. */
  long heldTotal() {
    return heldTotal;
  }

  /**
   * Sends bytes on the link from → to at {@code time}, through the fault mix and the adversary; {@code
   * delayBy} ticks later than the link would (a slow sender).
   */
  void link(long time, int from, int fromSide, int to, byte[] bytes, long delayBy) {
    boolean faulty = time < faults.healAt;
    if (adversary != null && adversary.holds(from, bytes)) {
      held.add(new Delivery(time, 0, from, fromSide, to, bytes));
      heldTotal++;
      return;
    }
    long at = time + delayBy;
    if (faulty) {
      long until = blockedUntil(time, from, to);
      if (!reliable) {
        if (until > 0 || rng.nextDouble() < faults.loss) {
          return;
        }
      } else if (until > 0) {
        at = Math.max(at, until); // delayed until the partition ends
      } else if (rng.nextDouble() < faults.loss) {
        at += rng.nextInt((int) (faults.healAt - time) + 1); // "lost": delayed, at most until the heal
      }
    }
    schedule(time, at, from, fromSide, to, bytes, faulty);
    if (faulty && rng.nextDouble() < faults.duplicate) {
      schedule(time, time + delayBy, from, fromSide, to, bytes, true);
    }
  }

  /** Whether links hold what they cannot deliver yet rather than lose it. */
  boolean reliable() {
    return reliable;
  }

  /** The next message due at {@code time}, or null. */
  Delivery due(long time) {
    return !queue.isEmpty() && queue.peek().time <= time ? queue.poll() : null;
  }

  /** A message for a receiver that is down (reliable links): delivered again at {@code at}. */
  void retry(Delivery d, long at) {
    queue.add(new Delivery(at, order++, d.from, d.fromSide, d.to, d.bytes));
  }

  /**
   * The adversary's fairness: when nothing else is in flight, every held message goes out (in sending
   * order), so each is delivered eventually and no run stalls on held messages. On lossy links replicas
   * retransmit on ticks, so the network may never fall idle: there, held messages also go out once the
   * oldest has waited {@link #HOLD_LIMIT} ticks (SINTRA §2: any delay, but a finite one).
   */
  void releaseHeldIfIdle(long time) {
    boolean overdue = !reliable && !held.isEmpty() && time - held.get(0).time >= HOLD_LIMIT;
    if (held.isEmpty() || !queue.isEmpty() && !overdue) {
      return;
    }
    for (Delivery d : held) {
      schedule(time, time, d.from, d.fromSide, d.to, d.bytes, false);
    }
    held.clear();
  }

  private void schedule(long time, long at, int from, int fromSide, int to, byte[] bytes, boolean faulty) {
    long delay = faults.minDelay + rng.nextInt(faults.maxDelay - faults.minDelay + 1);
    if (faulty && rng.nextDouble() < faults.reorder) {
      delay += rng.nextInt(5 * faults.maxDelay);
    }
    long[] clog = clogs.get(linkKey(from, to));
    if (faulty && clog != null && clog[0] > time) {
      delay *= clog[1];
    }
    queue.add(new Delivery(at + delay, order++, from, fromSide, to, bytes));
  }

  private static long linkKey(int from, int to) {
    return ((long) from << 32) | (to & 0xffffffffL);
  }

  /** When the last partition that blocks from → to ends; 0 if none does. */
  private long blockedUntil(long time, int from, int to) {
    partitions.removeIf(p -> p.until <= time);
    long until = 0;
    for (Partition p : partitions) {
      boolean fromIn = p.group.contains(from);
      boolean toIn = p.group.contains(to);
      if ((p.blockOut && fromIn && !toIn) || (p.blockIn && !fromIn && toIn)) {
        until = Math.max(until, p.until);
      }
    }
    return until;
  }

  /** Before the heal: new partitions and clogged links, at the seed's rates. */
  void drawPartitionsAndClogs(long time) {
    if (faults.partitionRate > 0 && rng.nextDouble() < faults.partitionRate) {
      Set<Integer> group = new HashSet<>();
      int size = 1 + rng.nextInt(o.n() - 1);
      while (group.size() < size) {
        group.add(rng.nextInt(o.n()));
      }
      boolean out = !faults.asymmetricPartitions || rng.nextBoolean();
      boolean in = !faults.asymmetricPartitions || !out;
      partitions.add(new Partition(group, out, in, time + 50 + rng.nextInt(800)));
    }
    if (faults.clogRate > 0 && rng.nextDouble() < faults.clogRate) {
      int from = rng.nextInt(o.n() + o.clients());
      int to = rng.nextInt(o.n());
      clogs.put(linkKey(from, to), new long[] {time + 100 + rng.nextInt(900), 10 + rng.nextInt(40)});
    }
  }
}
