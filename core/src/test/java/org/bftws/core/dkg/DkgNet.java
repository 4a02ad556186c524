package org.bftws.core.dkg;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.Lagrange;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.dkg.DkgMessage.Complaints;
import org.bftws.core.dkg.DkgMessage.Dealing;
import org.bftws.core.dkg.DkgMessage.Justification;
import org.bftws.core.dkg.DkgMessage.Open;
import org.bftws.core.dkg.DkgMessage.Opening;
import org.bftws.core.dkg.DkgMessage.Reveal;
import org.bftws.core.testkit.TestRandom;

/**
 * A seeded total-order broadcast for the DKG: every submitted message waits in one pending pool, and the next
 * one delivered to every party is picked by the seed (or first among a favoured author's, for the adversarial
 * schedule); the encoding travels, so the codec runs on every message. Byzantine parties run a real
 * {@link Dkg} and have their outgoing messages rewritten by their {@link Behaviour}.
 */
final class DkgNet {
  /** What a Byzantine party does to its messages. */
  enum Behaviour {
    HONEST, SILENT, BAD_SHARES, BAD_SHARES_UNJUSTIFIED, BAD_COMMITMENT, EQUIVOCATE, LATE, FALSE_COMPLAINTS,
    BAD_OPENING, BAD_JUSTIFICATION
  }

  static final class Party {
    final String name;
    final int dealer;
    final int receiver;
    final Behaviour behaviour;
    final Dkg<?> dkg;
    final Dkg<?> twin;
    DkgResult result;
    final List<String> faults = new ArrayList<>();

    Party(String name, int dealer, int receiver, Behaviour behaviour, Dkg<?> dkg, Dkg<?> twin) {
      this.name = name;
      this.dealer = dealer;
      this.receiver = receiver;
      this.behaviour = behaviour;
      this.dkg = dkg;
      this.twin = twin;
    }

    boolean correct() {
      return behaviour == Behaviour.HONEST;
    }
  }

  private record Pending(Party from, byte[] encoded) {}

  final DkgConfig config;
  final List<Party> parties = new ArrayList<>();
  private final List<Pending> pending = new ArrayList<>();
  private final List<Pending> held = new ArrayList<>();
  private final Random order;
  private final SecureRandom adversary;
  private Predicate<Party> favoured = p -> false;
  private int dealingsDelivered;
  long bytes;
  int messages;

  private DkgNet(DkgConfig config, long seed) {
    this.config = config;
    this.order = new Random(seed);
    this.adversary = TestRandom.seeded(seed ^ 0x5eed);
  }

  /** GENERATE with n = 3f+1, k = f+1; {@code byzantine} maps replica indices to behaviours. */
  static DkgNet generate(SchemeId scheme, int f, Map<Integer, Behaviour> byzantine, long seed) {
    ThresholdParams p = ThresholdParams.forF(f);
    List<ShareCipher.KeyPair> keys = keys(p.n(), seed);
    DkgNet net = new DkgNet(new DkgConfig(DkgConfig.Mode.GENERATE, scheme, session(seed), p, p, publicKeys(keys),
        null), seed);
    for (int i = 1; i <= p.n(); i++) {
      net.add("replica " + i, i, i, keys.get(i - 1).secret(), null, byzantine.getOrDefault(i, Behaviour.HONEST), seed);
    }
    return net;
  }

  /** REFRESH of {@code current}: replica i deals if it holds a share. */
  static DkgNet refresh(GroupKey current, Map<Integer, KeyShare> shares, Map<Integer, Behaviour> byzantine, long seed) {
    ThresholdParams p = current.params();
    List<ShareCipher.KeyPair> keys = keys(p.n(), seed + 1);
    DkgNet net = new DkgNet(new DkgConfig(DkgConfig.Mode.REFRESH, current.scheme(), session(seed + 1), p, p,
        publicKeys(keys), current), seed + 1);
    for (int i = 1; i <= p.n(); i++) {
      KeyShare s = shares.get(i);
      net.add("replica " + i, s == null ? 0 : i, i, keys.get(i - 1).secret(), s,
          byzantine.getOrDefault(i, Behaviour.HONEST), seed + 1);
    }
    return net;
  }

  /** RESHARE from the n old holders of {@code current} to n' new receivers (separate parties). */
  static DkgNet reshare(GroupKey current, Map<Integer, KeyShare> shares, ThresholdParams next,
      Map<Integer, Behaviour> byzantineDealers, long seed) {
    List<ShareCipher.KeyPair> keys = keys(next.n(), seed + 2);
    DkgNet net = new DkgNet(new DkgConfig(DkgConfig.Mode.RESHARE, current.scheme(), session(seed + 2),
        current.params(), next, publicKeys(keys), current), seed + 2);
    for (int i = 1; i <= current.params().n(); i++) {
      KeyShare s = shares.get(i);
      net.add("old " + i, s == null ? 0 : i, 0, null, s, byzantineDealers.getOrDefault(i, Behaviour.HONEST), seed + 2);
    }
    for (int j = 1; j <= next.n(); j++) {
      net.add("new " + j, 0, j, keys.get(j - 1).secret(), null, Behaviour.HONEST, seed + 2);
    }
    return net;
  }

  private void add(String name, int dealer, int receiver, byte[] secret, KeyShare share, Behaviour b, long seed) {
    Dkg.Member m = new Dkg.Member(dealer, receiver, secret, share);
    long s = seed * 1000 + dealer * 31L + receiver;
    Dkg<?> twin = b == Behaviour.EQUIVOCATE ? Dkg.create(config, m, TestRandom.seeded(~s)) : null;
    parties.add(new Party(name, dealer, receiver, b, Dkg.create(config, m, TestRandom.seeded(s)), twin));
  }

  /** The adversarial schedule: pending messages of favoured parties are delivered first. */
  DkgNet favour(Predicate<Party> p) {
    favoured = p;
    return this;
  }

  /** Runs until every correct party has its output or nothing is left to deliver; false in the latter case. */
  boolean run() {
    for (Party p : parties) {
      submit(p, p.dkg.start());
      if (p.twin != null) {
        submit(p, p.twin.start());
      }
    }
    while (!allCorrectDone()) {
      if (pending.isEmpty()) {
        if (held.isEmpty()) {
          return false;
        }
        pending.addAll(held);
        held.clear();
      }
      deliver(pending.remove(next()));
    }
    return true;
  }

  private int next() {
    for (int i = 0; i < pending.size(); i++) {
      if (favoured.test(pending.get(i).from())) {
        return i;
      }
    }
    return order.nextInt(pending.size());
  }

  private void deliver(Pending x) {
    DkgMessage m = DkgMessage.decode(x.encoded());
    bytes += x.encoded().length;
    messages++;
    if (m instanceof Dealing && ++dealingsDelivered == config.dealingQuorum()) {
      pending.addAll(held);
      held.clear();
    }
    for (Party p : parties) {
      Dkg.Step step = p.dkg.deliver(m);
      if (step.output() != null) {
        p.result = step.output();
      }
      p.faults.addAll(step.faults());
      submit(p, step);
    }
  }

  private boolean allCorrectDone() {
    return parties.stream().filter(Party::correct).allMatch(p -> p.result != null);
  }

  private void submit(Party p, Dkg.Step step) {
    for (DkgMessage m : step.toOrder()) {
      for (DkgMessage x : rewrite(p, m)) {
        Pending e = new Pending(p, x.encode());
        if (p.behaviour == Behaviour.LATE && x instanceof Dealing && dealingsDelivered < config.dealingQuorum()) {
          held.add(e);
        } else {
          pending.add(e);
        }
      }
    }
  }

  /** What a party of the given behaviour submits instead of {@code m}. */
  private List<DkgMessage> rewrite(Party p, DkgMessage m) {
    DlGroup<?> g = DlGroup.forScheme(config.scheme());
    return switch (p.behaviour) {
      case HONEST, LATE, EQUIVOCATE -> List.of(m);
      case SILENT -> List.of();
      case BAD_SHARES -> List.of(m instanceof Dealing d ? corruptShares(d) : m);
      case BAD_SHARES_UNJUSTIFIED -> m instanceof Justification ? List.of()
          : List.of(m instanceof Dealing d ? corruptShares(d) : m);
      case BAD_JUSTIFICATION -> List.of(m instanceof Dealing d ? corruptShares(d)
          : m instanceof Justification j ? garbleReveals(j) : m);
      case BAD_COMMITMENT -> List.of(m instanceof Dealing d ? badCommitment(g, d) : m);
      case FALSE_COMPLAINTS -> List.of(m instanceof Complaints c ? accuseAll(c) : m);
      case BAD_OPENING -> List.of(m instanceof Opening o ? badOpening(g, o) : m);
    };
  }

  /** Flips a byte of the ciphertexts to up to t' receivers chosen by the seed. */
  private Dealing corruptShares(Dealing d) {
    List<byte[]> cts = new ArrayList<>(d.ciphertexts());
    for (int v = 0; v < config.receivers().t(); v++) {
      int j = adversary.nextInt(cts.size());
      byte[] ct = cts.get(j).clone();
      ct[adversary.nextInt(ct.length)] ^= 1;
      cts.set(j, ct);
    }
    return new Dealing(d.dealer(), d.commitments(), d.ephemeral(), cts);
  }

  private Justification garbleReveals(Justification j) {
    List<Reveal> rs = new ArrayList<>();
    for (Reveal r : j.reveals()) {
      byte[] s = r.s().clone();
      s[31] ^= 1;
      rs.add(new Reveal(r.receiver(), s, r.sPrime()));
    }
    return new Justification(j.dealer(), rs);
  }

  private <E> Dealing badCommitment(DlGroup<E> g, Dealing d) {
    List<byte[]> c = new ArrayList<>(d.commitments());
    c.set(c.size() - 1, randomElement(g));
    return new Dealing(d.dealer(), c, d.ephemeral(), d.ciphertexts());
  }

  private Complaints accuseAll(Complaints c) {
    List<Integer> all = new ArrayList<>();
    for (Party q : parties) {
      if (q.dealer != 0 && q.dealer != c.receiver() && q.correct()) {
        all.add(q.dealer);
      }
    }
    return new Complaints(c.receiver(), all);
  }

  private <E> Opening badOpening(DlGroup<E> g, Opening o) {
    List<Open> os = new ArrayList<>();
    for (Open x : o.openings()) {
      os.add(new Open(x.dealer(), randomElement(g), x.proof()));
    }
    return new Opening(o.receiver(), os);
  }

  private <E> byte[] randomElement(DlGroup<E> g) {
    return g.encode(g.expG(Lagrange.randomNonZero(g.order(), adversary)));
  }

  // ----------------------------------------------------------------------------------------- results

  List<Party> correct() {
    return parties.stream().filter(Party::correct).toList();
  }

  /** The correct receivers' outputs' shares by receiver index (non-null ones only). */
  Map<Integer, KeyShare> correctShares() {
    Map<Integer, KeyShare> out = new LinkedHashMap<>();
    for (Party p : correct()) {
      if (p.receiver != 0 && p.result != null && p.result.share() != null) {
        out.put(p.receiver, p.result.share());
      }
    }
    return out;
  }

  /** Every party's share (Byzantine ones included: they run the real protocol underneath). */
  Map<Integer, KeyShare> allShares() {
    Map<Integer, KeyShare> out = new LinkedHashMap<>();
    for (Party p : parties) {
      if (p.receiver != 0 && p.result != null && p.result.share() != null) {
        out.put(p.receiver, p.result.share());
      }
    }
    return out;
  }

  static byte[] session(long seed) {
    return ("bftws-test-group|epoch-" + seed).getBytes(StandardCharsets.US_ASCII);
  }

  private static List<ShareCipher.KeyPair> keys(int n, long seed) {
    SecureRandom r = TestRandom.seeded(seed * 7 + 3);
    List<ShareCipher.KeyPair> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(ShareCipher.generate(r));
    }
    return keys;
  }

  private static List<byte[]> publicKeys(List<ShareCipher.KeyPair> keys) {
    return keys.stream().map(ShareCipher.KeyPair::publicKey).toList();
  }

  /** Σ λ_j x_j over the given shares: the secret they interpolate to. */
  static BigInteger interpolate(DlGroup<?> g, Map<Integer, KeyShare> shares) {
    int[] set = shares.keySet().stream().mapToInt(Integer::intValue).toArray();
    BigInteger x = BigInteger.ZERO;
    for (Map.Entry<Integer, KeyShare> e : shares.entrySet()) {
      x = x.add(Lagrange.atZeroModPrime(set, e.getKey(), g.order()).multiply(Shares.secret(g, e.getValue())));
    }
    return x.mod(g.order());
  }

  static String describe(Map<Integer, Behaviour> byzantine) {
    return byzantine.isEmpty() ? "none" : Arrays.toString(byzantine.entrySet().toArray());
  }
}
