package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.engine.Event;

/**
 * One binary agreement instance at every correct replica of an {@link AsyncNet} with coins, plain ({@link
 * BinaryAgreement}) or validated ({@link ValidatedBinaryAgreement}), with each replica's decisions; and
 * the encodings a Byzantine node needs to speak the protocol.
 */
final class AgreementGroup {
  final AsyncNet net;
  final Pid pid = Pid.root("t").child("aba").child(1);
  final List<List<ValidatedBinaryAgreement.Decision>> decided = new ArrayList<>();
  private final BinaryAgreement[] plain;
  private final ValidatedBinaryAgreement[] validated;

  /** Plain ABBA. */
  AgreementGroup(int n, int f, long seed, Set<Integer> byzantine) {
    this(n, f, seed, byzantine, false, false, null);
  }

  /** Validated ABBA, biased towards 1 or not. */
  AgreementGroup(int n, int f, long seed, Set<Integer> byzantine, boolean biased, Predicate<byte[]> validOne) {
    this(n, f, seed, byzantine, true, biased, validOne);
  }

  private AgreementGroup(int n, int f, long seed, Set<Integer> byzantine, boolean isValidated, boolean biased,
      Predicate<byte[]> validOne) {
    net = new AsyncNet(n, f, seed, byzantine, true);
    plain = new BinaryAgreement[n];
    validated = new ValidatedBinaryAgreement[n];
    for (int i = 0; i < n; i++) {
      List<ValidatedBinaryAgreement.Decision> mine = new ArrayList<>();
      decided.add(mine);
      if (!net.correct(i)) {
        continue;
      }
      int me = i;
      Context ctx = net.ctx(i);
      net.input(i, () -> {
        if (isValidated) {
          validated[me] = ctx.router().register(
              new ValidatedBinaryAgreement(ctx, pid, biased, validOne, mine::add));
        } else {
          plain[me] = ctx.router().register(new BinaryAgreement(ctx, pid,
              b -> mine.add(new ValidatedBinaryAgreement.Decision(b, b ? new byte[0] : null))));
        }
      });
    }
  }

  /**
   * The last f parties, in ascending order: tests post their messages in this order, so one seed gives
   * one run ({@code Set.of} iterates in an order that changes from one JVM to the next).
   */
  static SortedSet<Integer> lastF(int n, int f) {
    SortedSet<Integer> out = new TreeSet<>();
    for (int i = n - f; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  void propose(int i, boolean value) {
    net.input(i, () -> plain[i].propose(value));
  }

  void propose(int i, boolean value, byte[] validation) {
    net.input(i, () -> validated[i].propose(value, validation));
  }

  long decidedRound(int i) {
    return plain[i] != null ? plain[i].decidedRound() : validated[i].decidedRound();
  }

  /**
   * Termination and agreement: every correct replica decided exactly once, all the same; returns it.
   * Also checks that no correct replica holds evidence against a correct one.
   */
  ValidatedBinaryAgreement.Decision agreed() {
    ValidatedBinaryAgreement.Decision first = null;
    for (int i = 0; i < net.n; i++) {
      if (!net.correct(i)) {
        continue;
      }
      List<ValidatedBinaryAgreement.Decision> d = decided.get(i);
      assertEquals("replica " + i + " decisions, seed " + net.seed, 1, d.size());
      if (first != null) {
        assertEquals("agreement, seed " + net.seed, first.value(), d.get(0).value());
      }
      first = d.get(0);
      for (Event.Evidence e : net.evidence(i)) {
        assertTrue("evidence against a correct replica, seed " + net.seed + ": " + e,
            e.node() < 0 || !net.correct(e.node()));
      }
    }
    assertNotNull(first);
    return first;
  }

  /** Every evidence string that correct replicas recorded against {@code node}. */
  List<String> evidenceAgainst(int node) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < net.n; i++) {
      if (net.correct(i)) {
        net.evidence(i).stream().filter(e -> e.node() == node).forEach(e -> out.add(e.what()));
      }
    }
    return out;
  }

  /** Posts {@code bytes} from Byzantine {@code from} to every correct replica. */
  void toAll(int from, byte[] bytes) {
    for (int to = 0; to < net.n; to++) {
      if (net.correct(to)) {
        net.post(from, to, bytes);
      }
    }
  }

  // ---------------------------------------------------------------- a Byzantine node's messages

  byte[] preProcess(int from, int b) {
    byte[] sig = net.sign(from, pid.bind("abba/pre-process", new byte[] {(byte) b}));
    return net.forge(from, pid, BinaryAgreement.Type.PRE_PROCESS.code(), new ByteWriter().u8(b).bytes(sig).toBytes());
  }

  /** A validly signed pre-vote with no justification at all. */
  byte[] bareVote(int from, int type, long round, int b, byte[] validation) {
    String name = type == BinaryAgreement.Type.PRE_VOTE.code() ? "abba/pre-vote" : "abba/main-vote";
    byte[] sig = net.sign(from, pid.bind(name, new ByteWriter().i64(round).u8(b).toBytes()));
    ByteWriter w = new ByteWriter().i64(round).u8(b).bytes(sig);
    if (type == BinaryAgreement.Type.PRE_VOTE.code()) {
      w.bytes(validation).bool(false).i32(0).bytes(new byte[0]);
    } else {
      if (b == 1) {
        w.bytes(validation);
      }
      w.i32(0);
    }
    return net.forge(from, pid, type, w.toBytes());
  }

  /** A validly signed abstaining main-vote whose two embedded pre-votes (for 0 and 1) have no justification. */
  byte[] bareAbstention(int from, long round) {
    ByteWriter w = new ByteWriter().i64(round).u8(2)
        .bytes(net.sign(from, pid.bind("abba/main-vote", new ByteWriter().i64(round).u8(2).toBytes())));
    for (int b = 0; b < 2; b++) {
      byte[] sig = net.sign(from, pid.bind("abba/pre-vote", new ByteWriter().i64(round).u8(b).toBytes()));
      w.i32(from).i64(round).u8(b).bytes(sig).bytes(new byte[0]).bool(false).i32(0).bytes(new byte[0]);
    }
    return net.forge(from, pid, BinaryAgreement.Type.MAIN_VOTE.code(), w.toBytes());
  }

  /**
   * A round-1 pre-vote for {@code b} justified by the pre-process signatures of {@code justifiers} on b:
   * a Byzantine party holding f+1 such votes for each bit can send both pre-votes.
   */
  byte[] justifiedPreVote(int from, int b, List<Integer> justifiers) {
    byte[] sig = net.sign(from, pid.bind("abba/pre-vote", new ByteWriter().i64(1).u8(b).toBytes()));
    ByteWriter w = new ByteWriter().i64(1).u8(b).bytes(sig).bytes(new byte[0]).bool(false)
        .i32(justifiers.size());
    for (int j : justifiers) {
      w.i32(j).bytes(net.sign(j, pid.bind("abba/pre-process", new byte[] {(byte) b})));
    }
    return net.forge(from, pid, BinaryAgreement.Type.PRE_VOTE.code(), w.bytes(new byte[0]).toBytes());
  }

  /** A round-r coin share of {@code from} on {@code message} (bad unless it is this round's coin name). */
  byte[] coin(int from, long round, byte[] message) {
    byte[] share = net.coinShare(from, message).encode();
    return net.forge(from, pid, BinaryAgreement.Type.COIN.code(), new ByteWriter().i64(round).bytes(share).toBytes());
  }
}
