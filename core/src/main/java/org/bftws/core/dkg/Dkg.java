package org.bftws.core.dkg;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.Lagrange;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.dkg.DkgConfig.Mode;
import org.bftws.core.dkg.DkgMessage.Complaints;
import org.bftws.core.dkg.DkgMessage.Dealing;
import org.bftws.core.dkg.DkgMessage.Justification;
import org.bftws.core.dkg.DkgMessage.Open;
import org.bftws.core.dkg.DkgMessage.Opening;
import org.bftws.core.dkg.DkgMessage.Reveal;

/**
 * One replica's run of the distributed key generation, refresh or resharing ({@link DkgConfig.Mode}) as a pure
 * state machine: {@link #start()} and {@link #deliver} return a {@link Step} with the messages to submit to the
 * group's ordering and, once, the {@link DkgResult}. It reads no clock: every phase closes at a point of the
 * agreed ordered sequence, so every correct replica decides the same qualified set.
 *
 * <p>Phases (GJKR Fig. 2, with the broadcast rounds counted on the sequence instead of timed):
 * <ol>
 * <li>DEAL (step 1(a)): the first n − t well-formed dealings from distinct dealers form Q0; later dealings and a
 *     dealer's second dealing (equivocation) are ignored and logged.
 * <li>COMPLAIN (1(b)–(c)): each receiver decrypts and checks its share from every dealer of Q0 and submits its
 *     complaints; the first n' − t' receivers' complaints count.
 * <li>JUSTIFY (1(d)–(e)): a dealer with more than t' complaints is disqualified; one with none is qualified; an
 *     accused one is qualified once its ordered justification reveals a verifying share for each complainer,
 *     disqualified if the reveals do not verify. The phase closes as soon as n − 2t dealers are qualified
 *     (more than t, so at least one correct); that set is QUAL. Each correct dealer of Q0 is eventually
 *     qualified (at most t' faulty receivers accuse it), so the phase ends.
 * <li>OPEN (GENERATE only; GJKR step 4, the extraction of y): each receiver m publishes V_im = g^{s_im} with an
 *     {@link OpeningProof} for each dealer i of QUAL whose share it holds; the first k' valid openings of
 *     dealer i fix A_i(x) = Π V_im^{λ_{x,m}} in the exponent. GJKR have dealer i publish A_ik = g^{a_ik}
 *     and reconstruct z_i in public when a dealer does not; here the holders publish the same values
 *     (V_im = Π A_ik^{m^k}), so a silent dealer needs no public reconstruction and a slow correct dealer's
 *     z_i is never revealed. At least n' − 2t' ≥ k' correct receivers hold valid shares of each qualified
 *     dealer, so the phase ends.
 * </ol>
 * Outputs: GENERATE y = Π A_i(0), Y_j = Π A_i(j), x_j = Σ s_ij (GJKR step 3); REFRESH Y'_j = Y_j·Π F_i(j),
 * x'_j = x_j + Σ s_ij (HJKY share renewal); RESHARE Y'_j = Π F_i(j)^{λ_i}, x'_j = Σ λ_i s_ij over i in QUAL
 * (Desmedt-Jajodia), where F_i are dealer i's Feldman commitments.
 */
public final class Dkg<E> {
  /** Messages to submit to the ordering, the result once (else null), and misbehaviour seen (evidence). */
  public record Step(List<DkgMessage> toOrder, DkgResult output, List<String> faults) {}

  /** Who this replica is in the run: dealer index (0 if none), receiver index (0 if none), its keys. */
  public record Member(int dealer, int receiver, byte[] encryptionSecret, KeyShare currentShare) {}

  private enum Phase { DEAL, COMPLAIN, JUSTIFY, OPEN, DONE }

  private enum Status { PENDING, GOOD, BAD }

  private final DkgConfig config;
  private final DlGroup<E> g;
  private final Member me;
  private final SecureRandom random;
  private final Map<Integer, DealerState> q0 = new LinkedHashMap<>();
  private final Set<Integer> complained = new LinkedHashSet<>();
  private final Set<Integer> opened = new LinkedHashSet<>();
  private List<Integer> qual;
  private Phase phase = Phase.DEAL;
  private BigInteger[] myA;
  private BigInteger[] myB;
  private List<DkgMessage> out;
  private List<String> faults;
  private DkgResult result;

  private final class DealerState {
    final int index;
    final List<E> c;
    final byte[] ephemeral;
    final List<byte[]> ciphertexts;
    final Set<Integer> accusers = new TreeSet<>();
    final Map<Integer, E> openings = new LinkedHashMap<>();
    Status status = Status.PENDING;
    BigInteger s;
    BigInteger sPrime;

    DealerState(int index, List<E> c, byte[] ephemeral, List<byte[]> ciphertexts) {
      this.index = index;
      this.c = c;
      this.ephemeral = ephemeral;
      this.ciphertexts = ciphertexts;
    }
  }

  private Dkg(DkgConfig config, DlGroup<E> g, Member me, SecureRandom random) {
    this.config = config;
    this.g = g;
    this.me = me;
    this.random = random;
    if (me.dealer() != 0 && !config.dealers().isValidIndex(me.dealer())
        || me.receiver() != 0 && !config.receivers().isValidIndex(me.receiver())) {
      throw new IllegalArgumentException("member indices outside the dealers or receivers");
    }
    if (me.receiver() != 0 && me.encryptionSecret() == null) {
      throw new IllegalArgumentException("a receiver needs its individual encryption secret");
    }
    if (config.mode() != Mode.GENERATE && me.dealer() != 0 && me.currentShare() == null) {
      throw new IllegalArgumentException(config.mode() + ": a dealer deals from its current share");
    }
  }

  /** The state machine for {@code config}'s scheme (P-256 for CKS and TDH2, G2 for BLS). */
  public static Dkg<?> create(DkgConfig config, Member me, SecureRandom random) {
    return new Dkg<>(config, DlGroup.forScheme(config.scheme()), me, random);
  }

  /** Deals (GJKR step 1(a)) if this replica is a dealer. */
  public Step start() {
    begin();
    if (me.dealer() != 0) {
      out.add(deal());
    }
    return end();
  }

  /** Consumes the next message of the agreed sequence; its author has been authenticated by the ordering. */
  public Step deliver(DkgMessage m) {
    begin();
    if (m instanceof Dealing d) {
      onDealing(d);
    } else if (m instanceof Complaints c) {
      onComplaints(c);
    } else if (m instanceof Justification j) {
      onJustification(j);
    } else {
      onOpening((Opening) m);
    }
    return end();
  }

  public boolean done() {
    return phase == Phase.DONE;
  }

  /**
   * This dealer's own a_i0 (null before dealing). Only for the negative-control test, which shows that dealers
   * filling QUAL alone fix the group secret Σ a_i0; never sent, never logged.
   */
  BigInteger constantTerm() {
    return myA == null ? null : myA[0];
  }

  private void begin() {
    out = new ArrayList<>();
    faults = new ArrayList<>();
  }

  private Step end() {
    DkgResult r = phase == Phase.DONE && result != null ? result : null;
    if (r != null) {
      result = null;
    }
    return new Step(List.copyOf(out), r, List.copyOf(faults));
  }

  // ------------------------------------------------------------------------------------------- dealing

  /** Step 1(a): a_i(z) (and b_i(z) for Pedersen) of degree k'−1; the constant is chosen by the mode. */
  private Dealing deal() {
    ThresholdParams p = config.receivers();
    BigInteger q = g.order();
    myA = Lagrange.randomPolynomial(p.k(), q, random);
    myA[0] = switch (config.mode()) {
      case GENERATE -> myA[0];
      case REFRESH -> BigInteger.ZERO;
      case RESHARE -> Shares.secret(g, me.currentShare());
    };
    List<byte[]> commitments = new ArrayList<>();
    if (config.pedersen()) {
      myB = Lagrange.randomPolynomial(p.k(), q, random);
      for (int k = 0; k < p.k(); k++) {
        commitments.add(g.encode(Vss.commit(g, myA[k], myB[k])));
      }
    } else {
      for (int k = 1; k < p.k(); k++) {
        commitments.add(g.encode(g.expG(myA[k])));
      }
    }
    BigInteger r = ShareCipher.ephemeral(random);
    List<byte[]> cts = new ArrayList<>();
    for (int j = 1; j <= p.n(); j++) {
      byte[] pt = plaintext(j);
      cts.add(ShareCipher.encrypt(config.session(), me.dealer(), j, r,
          ShareCipher.publicKey(config.encryptionKeys().get(j - 1), j), pt));
    }
    return new Dealing(me.dealer(), commitments, ShareCipher.ephemeralPoint(r), cts);
  }

  private byte[] plaintext(int j) {
    byte[] s = g.encodeScalar(Lagrange.evaluate(myA, j, g.order()));
    if (myB == null) {
      return s;
    }
    byte[] both = new byte[64];
    System.arraycopy(s, 0, both, 0, 32);
    System.arraycopy(g.encodeScalar(Lagrange.evaluate(myB, j, g.order())), 0, both, 32, 32);
    return both;
  }

  private void onDealing(Dealing d) {
    if (phase != Phase.DEAL) {
      faults.add("dealing of dealer " + d.dealer() + " after the dealing phase closed: ignored");
      return;
    }
    if (!config.dealers().isValidIndex(d.dealer())) {
      faults.add("dealing from unknown dealer " + d.dealer());
      return;
    }
    if (q0.containsKey(d.dealer())) {
      faults.add("dealer " + d.dealer() + " dealt twice (equivocation): the first ordered dealing counts");
      return;
    }
    List<E> c;
    try {
      c = commitments(d);
    } catch (IllegalArgumentException e) {
      faults.add("malformed dealing of dealer " + d.dealer() + ": " + e.getMessage());
      return;
    }
    q0.put(d.dealer(), new DealerState(d.dealer(), c, d.ephemeral(), d.ciphertexts()));
    if (q0.size() == config.dealingQuorum()) {
      closeDealing();
    }
  }

  /** Decodes and checks the shape; for Feldman modes prepends the implied A_i0 (identity or old Y_i). */
  private List<E> commitments(Dealing d) {
    ThresholdParams p = config.receivers();
    int expected = config.pedersen() ? p.k() : p.k() - 1;
    if (d.commitments().size() != expected || d.ciphertexts().size() != p.n()) {
      throw new IllegalArgumentException("expected " + expected + " commitments and " + p.n() + " ciphertexts");
    }
    int plain = config.pedersen() ? 64 : 32;
    for (byte[] ct : d.ciphertexts()) {
      if (ct.length != plain) {
        throw new IllegalArgumentException("ciphertext of " + ct.length + " bytes, expected " + plain);
      }
    }
    List<E> c = new ArrayList<>();
    switch (config.mode()) {
      case GENERATE -> { }
      case REFRESH -> c.add(g.identity());
      case RESHARE -> c.add(g.decode(config.current().verificationKeyEncoding(d.dealer()), "old verification key"));
    }
    for (int k = 0; k < d.commitments().size(); k++) {
      c.add(g.decode(d.commitments().get(k), "commitment " + k));
    }
    return c;
  }

  /** Step 1(b): decrypt and check the own share from every dealer of Q0, then complain (1(c)). */
  private void closeDealing() {
    phase = Phase.COMPLAIN;
    if (me.receiver() == 0) {
      return;
    }
    List<Integer> accused = new ArrayList<>();
    for (DealerState d : q0.values()) {
      byte[] pt = ShareCipher.decrypt(config.session(), d.index, me.receiver(), me.encryptionSecret(), d.ephemeral,
          d.ciphertexts.get(me.receiver() - 1));
      if (pt == null || !accept(d, me.receiver(), pt)) {
        accused.add(d.index);
      }
    }
    out.add(new Complaints(me.receiver(), accused));
  }

  /** Whether {@code pt} (s or s‖s') is a share of dealer d to receiver j that verifies; keeps it if it is ours. */
  private boolean accept(DealerState d, int j, byte[] pt) {
    BigInteger s = scalar(pt, 0);
    BigInteger sPrime = config.pedersen() ? scalar(pt, 32) : null;
    if (s == null || config.pedersen() && sPrime == null
        || !g.same(Vss.commit(g, s, sPrime), Vss.evaluate(g, d.c, j))) {
      return false;
    }
    if (j == me.receiver()) {
      d.s = s;
      d.sPrime = sPrime;
    }
    return true;
  }

  private BigInteger scalar(byte[] b, int offset) {
    if (b.length < offset + 32) {
      return null;
    }
    byte[] part = java.util.Arrays.copyOfRange(b, offset, offset + 32);
    try {
      return g.decodeScalar(part, "share");
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  // ------------------------------------------------------------------------------ complaints, justification

  private void onComplaints(Complaints c) {
    if (phase != Phase.COMPLAIN) {
      faults.add("complaints of receiver " + c.receiver() + " outside the complaint phase: ignored");
      return;
    }
    if (!config.receivers().isValidIndex(c.receiver()) || !complained.add(c.receiver())) {
      faults.add("complaints from unknown or repeated receiver " + c.receiver() + ": ignored");
      return;
    }
    for (int i : new TreeSet<>(c.accused())) {
      DealerState d = q0.get(i);
      if (d == null) {
        faults.add("receiver " + c.receiver() + " complained against " + i + ", not a dealer of Q0");
      } else {
        d.accusers.add(c.receiver());
      }
    }
    if (complained.size() == config.complaintQuorum()) {
      closeComplaints();
    }
  }

  /** Step 1(d)–(e): more than t' complaints disqualify; none qualify; the accused justify. */
  private void closeComplaints() {
    phase = Phase.JUSTIFY;
    for (DealerState d : q0.values()) {
      if (d.accusers.size() > config.receivers().t()) {
        d.status = Status.BAD;
      } else if (d.accusers.isEmpty()) {
        d.status = Status.GOOD;
      }
    }
    DealerState mine = q0.get(me.dealer());
    if (mine != null && mine.status == Status.PENDING && myA != null) {
      List<Reveal> reveals = new ArrayList<>();
      for (int j : mine.accusers) {
        byte[] pt = plaintext(j);
        reveals.add(new Reveal(j, java.util.Arrays.copyOfRange(pt, 0, 32),
            java.util.Arrays.copyOfRange(pt, 32, pt.length)));
      }
      out.add(new Justification(me.dealer(), reveals));
    }
    maybeCloseJustification();
  }

  private void onJustification(Justification j) {
    DealerState d = q0.get(j.dealer());
    if (phase != Phase.JUSTIFY || d == null || d.status != Status.PENDING) {
      faults.add("justification of dealer " + j.dealer() + " not awaited: ignored");
      return;
    }
    d.status = justified(d, j) ? Status.GOOD : Status.BAD;
    if (d.status == Status.BAD) {
      faults.add("dealer " + j.dealer() + " disqualified: its justification does not verify");
    }
    maybeCloseJustification();
  }

  /** One verifying reveal per complainer, nothing else; the revealed share becomes ours if we complained. */
  private boolean justified(DealerState d, Justification j) {
    Set<Integer> answered = new TreeSet<>();
    for (Reveal r : j.reveals()) {
      int len = config.pedersen() ? 32 : 0;
      if (!d.accusers.contains(r.receiver()) || !answered.add(r.receiver()) || r.s().length != 32
          || r.sPrime().length != len) {
        return false;
      }
      byte[] pt = new byte[32 + len];
      System.arraycopy(r.s(), 0, pt, 0, 32);
      System.arraycopy(r.sPrime(), 0, pt, 32, len);
      if (!accept(d, r.receiver(), pt)) {
        return false;
      }
    }
    return answered.equals(d.accusers);
  }

  private void maybeCloseJustification() {
    List<Integer> good = new ArrayList<>();
    for (DealerState d : q0.values()) {
      if (d.status == Status.GOOD) {
        good.add(d.index);
      }
    }
    if (good.size() < config.qualifiedTarget()) {
      return;
    }
    qual = good.stream().sorted().toList();
    if (config.mode() == Mode.GENERATE) {
      phase = Phase.OPEN;
      open();
    } else {
      finish();
    }
  }

  // ------------------------------------------------------------------------------------- extraction of y

  private void open() {
    if (me.receiver() == 0) {
      return;
    }
    List<Open> openings = new ArrayList<>();
    for (int i : qual) {
      DealerState d = q0.get(i);
      if (d.s != null) {
        byte[] proof = OpeningProof.prove(g, config.session(), i, me.receiver(), Vss.evaluate(g, d.c, me.receiver()),
            d.s, d.sPrime, random);
        openings.add(new Open(i, g.encode(g.expG(d.s)), proof));
      }
    }
    out.add(new Opening(me.receiver(), openings));
  }

  private void onOpening(Opening o) {
    if (phase != Phase.OPEN || !config.receivers().isValidIndex(o.receiver()) || !opened.add(o.receiver())) {
      faults.add("opening of receiver " + o.receiver() + " not awaited: ignored");
      return;
    }
    for (Open x : o.openings()) {
      DealerState d = qual.contains(x.dealer()) ? q0.get(x.dealer()) : null;
      if (d == null || d.openings.size() >= config.receivers().k() || d.openings.containsKey(o.receiver())) {
        continue;
      }
      E v;
      try {
        v = g.decode(x.value(), "opening");
      } catch (IllegalArgumentException e) {
        faults.add("receiver " + o.receiver() + " opened dealer " + x.dealer() + " with a malformed value");
        continue;
      }
      if (OpeningProof.verify(g, config.session(), x.dealer(), o.receiver(), Vss.evaluate(g, d.c, o.receiver()), v,
          x.proof())) {
        d.openings.put(o.receiver(), v);
      } else {
        faults.add("receiver " + o.receiver() + " opened dealer " + x.dealer() + " with a proof that fails");
      }
    }
    for (int i : qual) {
      if (q0.get(i).openings.size() < config.receivers().k()) {
        return;
      }
    }
    finish();
  }

  // --------------------------------------------------------------------------------------------- outputs

  private void finish() {
    phase = Phase.DONE;
    ThresholdParams p = config.receivers();
    List<E> vk = new ArrayList<>();
    E y = switch (config.mode()) {
      case GENERATE -> {
        for (int j = 1; j <= p.n(); j++) {
          vk.add(extracted(j));
        }
        yield extracted(0);
      }
      case REFRESH -> {
        for (int j = 1; j <= p.n(); j++) {
          vk.add(g.op(g.decode(config.current().verificationKeyEncoding(j), "verification key"), combined(j)));
        }
        yield g.decode(config.current().commonEncoding(), "group key");
      }
      case RESHARE -> {
        for (int j = 1; j <= p.n(); j++) {
          vk.add(combined(j));
        }
        yield oldKeyFromQual();
      }
    };
    List<byte[]> vks = vk.stream().map(g::encode).toList();
    GroupKey group = Thresholds.keys(config.scheme()).groupKey(p, g.encode(y), vks);
    result = new DkgResult(group, ownShare(group, vk), qual);
  }

  /** Π_{i∈QUAL} A_i(x), each A_i(x) = Π_{m∈S_i} V_im^{λ_{x,m}^{S_i}} from the first k' openings S_i. */
  private E extracted(int x) {
    E acc = g.identity();
    for (int i : qual) {
      Map<Integer, E> op = q0.get(i).openings;
      int[] set = op.keySet().stream().mapToInt(Integer::intValue).toArray();
      for (Map.Entry<Integer, E> e : op.entrySet()) {
        acc = g.op(acc, g.exp(e.getValue(), Lagrange.atPointModPrime(set, e.getKey(), x, g.order())));
      }
    }
    return acc;
  }

  /** Refresh: Π_i F_i(j); resharing: Π_i F_i(j)^{λ_i} with λ over QUAL at 0. */
  private E combined(int j) {
    E acc = g.identity();
    for (int i : qual) {
      E f = Vss.evaluate(g, q0.get(i).c, j);
      acc = g.op(acc, config.mode() == Mode.RESHARE ? g.exp(f, lambda(i)) : f);
    }
    return acc;
  }

  private BigInteger lambda(int i) {
    return Lagrange.atZeroModPrime(qual.stream().mapToInt(Integer::intValue).toArray(), i, g.order());
  }

  /** y = Π_{i∈QUAL} Y_i^{λ_i}: the old verification keys lie on the old polynomial, so this is the old y. */
  private E oldKeyFromQual() {
    E acc = g.identity();
    for (int i : qual) {
      acc = g.op(acc, g.exp(g.decode(config.current().verificationKeyEncoding(i), "verification key"), lambda(i)));
    }
    E y = g.decode(config.current().commonEncoding(), "group key");
    if (!g.same(acc, y)) {
      throw new IllegalStateException("the current group key's verification keys do not interpolate to it");
    }
    return y;
  }

  /** x_j from the shares of QUAL, or null if one is missing; checked against Y_j (GJKR step 3). */
  private KeyShare ownShare(GroupKey group, List<E> vk) {
    int j = me.receiver();
    if (j == 0) {
      return null;
    }
    if (config.mode() == Mode.REFRESH && me.currentShare() == null) {
      faults.add("no current share to refresh: this replica needs its share recovered");
      return null;
    }
    BigInteger x = config.mode() == Mode.REFRESH ? Shares.secret(g, me.currentShare()) : BigInteger.ZERO;
    for (int i : qual) {
      BigInteger s = q0.get(i).s;
      if (s == null) {
        faults.add("no valid share from qualified dealer " + i + ": this replica needs its share recovered");
        return null;
      }
      x = x.add(config.mode() == Mode.RESHARE ? lambda(i).multiply(s) : s).mod(g.order());
    }
    if (x.signum() == 0 || !g.same(g.expG(x), vk.get(j - 1))) {
      throw new IllegalStateException("own share does not match verification key " + j);
    }
    return Thresholds.keys(config.scheme()).keyShare(config.receivers(), j, g.encodeScalar(x));
  }
}
