package org.bftws.core.dkg;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * Four replicas (f = 1) with their identities and dealt CKS coin and TDH2 keys of epoch 0, from {@code seed}:
 * what a refresh or a recovery starts from (neither cares how the keys were made); one {@link GroupRefresh}
 * each, and one agreed sequence delivering every submitted operation, in order, to every replica that is up.
 */
final class DealtGroup {
  static final int N = 4;

  final GroupMembers members;
  final GroupKeys group;
  /** Replica i's identity at i - 1. */
  final List<ReplicaIdentity> ids = new ArrayList<>();
  /** Replica i's dealt shares at i (index 0 unused). */
  final ReplicaKeys[] dealt = new ReplicaKeys[N + 1];

  /** Replica i's state machine at i; a test may replace one (a restarted replica). */
  final GroupRefresh[] replicas = new GroupRefresh[N + 1];
  /** Replica i's last output at i. */
  final GroupRefresh.Output[] outputs = new GroupRefresh.Output[N + 1];
  /** Whether replica i started a run since the last {@link #clear}. */
  final boolean[] started = new boolean[N + 1];
  /** Replica i gets nothing ordered while down[i]. */
  final boolean[] down = new boolean[N + 1];

  private record Submitted(int replica, byte[] operation) {}

  private final Deque<Submitted> ordering = new ArrayDeque<>();

  DealtGroup(long seed) {
    ThresholdParams p = ThresholdParams.forF(1);
    Dealt coin = Thresholds.scheme(SchemeId.CKS).deal(p, TestRandom.seeded(seed));
    Dealt tdh2 = new Tdh2().deal(p, TestRandom.seeded(seed + 1));
    List<Ed25519PublicKeyParameters> sign = new ArrayList<>();
    List<byte[]> enc = new ArrayList<>();
    for (int i = 1; i <= N; i++) {
      ShareCipher.KeyPair kp = ShareCipher.generate(TestRandom.seeded(seed * 100 + i));
      Ed25519PrivateKeyParameters sk = new Ed25519PrivateKeyParameters(TestRandom.seeded(seed * 1000 + i));
      ids.add(new ReplicaIdentity(i, sk, kp.secret()));
      sign.add(sk.generatePublicKey());
      enc.add(kp.publicKey());
    }
    members = new GroupMembers(SchemeId.CKS, N, 1, 2, sign, enc, List.of());
    group = new GroupKeys(N, 1, 2, coin.group(), tdh2.group(), sign, List.of());
    for (int i = 1; i <= N; i++) {
      dealt[i] = new ReplicaKeys(i, coin.share(i), tdh2.share(i), ids.get(i - 1).signingKey());
      replicas[i] = new GroupRefresh(members, ids.get(i - 1), group, dealt[i], 0, TestRandom.seeded(seed + 70 + i));
    }
  }

  /** Replica i submits what {@code step} gives it to order; its output and whether it started are kept. */
  void submit(int i, GroupRefresh.Step step) {
    for (byte[] op : step.toOrder()) {
      ordering.add(new Submitted(i, op));
    }
    started[i] |= step.started();
    if (step.output() != null) {
      outputs[i] = step.output();
    }
  }

  /** Orders everything submitted, each operation delivered in the same order to every replica that is up. */
  void run() {
    step(Integer.MAX_VALUE);
  }

  /** Orders at most {@code count} of the submitted operations, as {@link #run} does; how many are left. */
  int step(int count) {
    for (int k = 0; k < count && !ordering.isEmpty(); k++) {
      Submitted s = ordering.poll();
      for (int i = 1; i <= N; i++) {
        if (!down[i]) {
          submit(i, replicas[i].deliver(s.replica(), s.operation()));
        }
      }
    }
    return ordering.size();
  }

  /** Forgets the outputs and starts seen so far. */
  void clear() {
    Arrays.fill(outputs, null);
    Arrays.fill(started, false);
  }
}
