package org.bftws.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.async.BinaryAgreement;
import org.bftws.core.async.MultiValuedAgreement;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * The scheduler of the asynchronous model (SINTRA §2: the adversary controls the network and may delay any
 * message for any finite time) beyond the random delays of {@link Faults}: one policy per seed names the
 * messages it holds back until nothing else is in flight ({@link Network#releaseHeldIfIdle}: fair, every
 * message is delivered eventually).
 *
 * <ul>
 *   <li>{@link Policy#SLOW_REPLICA}: every message of one correct replica, for the whole run — with no timer
 *       in the protocol, the group must still order every request (PBFT would need a view change to get
 *       past a primary treated so).
 *   <li>{@link Policy#SLOW_LEADER}: the leader of the moment — in each round r of the channel, every
 *       message about round r ({@code abc/r/...}) from the first candidate of its multi-valued agreement
 *       (Π of SINTRA §2.4, which anyone can compute), the replica whose proposal the group would take first;
 *       the asynchronous analogue of a PBFT primary kept just under the view-change timeout.
 *   <li>{@link Policy#SLOW_INSTANCES}: chosen by content — every message of the consistent broadcast that
 *       carries one correct replica's proposal to multi-valued agreement ({@code .../mvba/cb/j}, SINTRA
 *       §2.4), and every coin share of binary agreement.
 * </ul>
 *
 * <p>It reads message contents (envelopes, protocol ids, types) but never the coin: it does not combine
 * shares, so it cannot learn a coin's value before f+1 correct replicas have released theirs (SINTRA
 * §2.1, the coin's unpredictability).
 */
final class AsyncAdversary {
  enum Policy { NONE, SLOW_REPLICA, SLOW_LEADER, SLOW_INSTANCES }

  final Policy policy;
  /** The replica the policy targets (−1 with {@link Policy#NONE}). */
  final int target;
  private final int n;
  /** SLOW_LEADER: each round's first candidate, by round. */
  private final Map<Long, Integer> leaders = new HashMap<>();

  /** {@code holding}: false keeps to {@link Policy#NONE} (the slow nemesis measures one slow replica alone). */
  AsyncAdversary(Random rng, int n, Set<Integer> byzantine, boolean holding) {
    Policy drawn = Policy.values()[rng.nextInt(Policy.values().length)];
    Policy p = holding ? drawn : Policy.NONE;
    int t = rng.nextInt(n);
    while (byzantine.contains(t) && byzantine.size() < n) {
      t = (t + 1) % n; // a correct replica: slowing a Byzantine one is no test of liveness
    }
    this.n = n;
    this.policy = p;
    this.target = p == Policy.NONE || p == Policy.SLOW_LEADER ? -1 : t;
  }

  /** Whether a message from {@code from} is held back. */
  boolean holds(int from, byte[] bytes) {
    return switch (policy) {
      case NONE -> false;
      case SLOW_REPLICA -> from == target;
      case SLOW_LEADER -> fromLeader(from, bytes);
      case SLOW_INSTANCES -> slowInstance(bytes);
    };
  }

  private boolean fromLeader(int from, byte[] bytes) {
    AsyncMessage m = asyncMessage(bytes);
    List<String> seg = m == null ? List.of() : m.pid().segments();
    if (seg.size() < 2 || !seg.get(0).equals(AsyncReplica.CHANNEL.toString()) || !seg.get(1).chars().allMatch(Character::isDigit)
        || seg.get(1).length() > 18) {
      return false;
    }
    long round = Long.parseLong(seg.get(1));
    int leader = leaders.computeIfAbsent(round,
        r -> MultiValuedAgreement.order(AsyncReplica.CHANNEL.child(r).child("mvba"), n)[0]);
    return from == leader;
  }

  /** The asynchronous-protocol message in an envelope, or null. */
  private static AsyncMessage asyncMessage(byte[] bytes) {
    try {
      Signed s = Signed.decode(bytes);
      return s.kind() == Kind.ASYNC ? AsyncMessage.decode(s.body()) : null;
    } catch (DecodeException e) {
      return null;
    }
  }

  private boolean slowInstance(byte[] bytes) {
    AsyncMessage m = asyncMessage(bytes);
    if (m == null) {
      return false;
    }
    List<String> seg = m.pid().segments();
    int last = seg.size() - 1;
    boolean targetsProposal = last >= 1 && seg.get(last - 1).equals("cb") && seg.get(last).equals(Integer.toString(target));
    boolean coinShare = last >= 1 && seg.get(last - 1).equals("vba") && m.type() == BinaryAgreement.Type.COIN.code();
    return targetsProposal || coinShare;
  }

  String describe() {
    String name = policy.name().toLowerCase().replace('_', '-');
    return policy == Policy.NONE ? "random" : policy == Policy.SLOW_LEADER ? name : name + "(r" + target + ")";
  }
}
