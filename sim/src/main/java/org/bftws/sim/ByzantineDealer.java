package org.bftws.sim;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.dkg.DkgMessage;
import org.bftws.core.dkg.DkgMessage.Complaints;
import org.bftws.core.dkg.DkgMessage.Dealing;
import org.bftws.core.dkg.DkgMessage.Justification;
import org.bftws.core.dkg.DkgMessage.Open;
import org.bftws.core.dkg.DkgMessage.Opening;
import org.bftws.core.dkg.DkgMessage.Reveal;
import org.bftws.core.dkg.GroupDkg;

/**
 * What a Byzantine dealer of the key generation submits instead of what its own (real) {@link GroupDkg} asks it
 * to: the operations are rewritten before they are signed and sent, so they are authentic requests of its
 * reserved node id that every replica orders and judges (GJKR Fig. 2 step 1). Drawn from the seed under
 * {@link Byzantine#DEALER}; {@link Byzantine#COLLUDERS} all make false complaints.
 */
final class ByzantineDealer {
  /** The behaviours: those of the core's seeded DKG sweep, now over the simulated group's ordering. */
  enum Behaviour {
    /** Submits nothing at all (no dealing, no complaint, no opening, no signature). */
    SILENT,
    /** Its shares to up to t receivers do not decrypt to what its commitments say; it justifies them. */
    BAD_SHARES,
    /** The same, without a justification. */
    BAD_SHARES_UNJUSTIFIED,
    /** Bad shares and a justification whose revealed shares are garbled. */
    BAD_JUSTIFICATION,
    /** Its last commitment replaced by a random group element: no share verifies. */
    BAD_COMMITMENT,
    /** Two different dealings (its own and a twin's), each on a sequence of its own. */
    EQUIVOCATE,
    /** Its dealings held back until it has executed n − t dealings of each run: they come too late. */
    LATE,
    /** Complaints against every dealer it does not spare (GJKR step 1(c) abused). */
    FALSE_COMPLAINTS,
    /** Openings of random group elements with the proofs of the true ones. */
    BAD_OPENING;

    String label() {
      return name().toLowerCase().replace('_', '-');
    }
  }

  private static final int COIN = 1;
  private static final int TDH2 = 2;

  final Behaviour behaviour;
  private final SchemeId coinScheme;
  private final int t;
  /** Dealer indices (1..n) that false complaints spare: the colluders themselves. */
  private final Set<Integer> spared;
  private final Random random;

  ByzantineDealer(Behaviour behaviour, SchemeId coinScheme, int t, Set<Integer> spared, Random random) {
    this.behaviour = behaviour;
    this.coinScheme = coinScheme;
    this.t = t;
    this.spared = Set.copyOf(spared);
    this.random = random;
  }

  /** Whether {@code op} is a dealing this dealer holds back (LATE) until the dealing phase closed. */
  boolean holds(byte[] op) {
    return behaviour == Behaviour.LATE && message(op) instanceof Dealing;
  }

  /** What the dealer submits instead of {@code op} (empty: nothing). */
  List<byte[]> rewrite(byte[] op) {
    if (behaviour == Behaviour.SILENT) {
      return List.of();
    }
    DkgMessage m = message(op);
    if (m == null) {
      return List.of(op); // a signature of group.pub: the behaviours change the key generation only
    }
    int tag = op[GroupDkg.MAGIC.length];
    DlGroup<?> g = DlGroup.forScheme(tag == COIN ? coinScheme : SchemeId.TDH2);
    DkgMessage out = switch (behaviour) {
      case BAD_SHARES, BAD_SHARES_UNJUSTIFIED -> m instanceof Dealing d ? corruptShares(d)
          : m instanceof Justification && behaviour == Behaviour.BAD_SHARES_UNJUSTIFIED ? null : m;
      case BAD_JUSTIFICATION -> m instanceof Dealing d ? corruptShares(d)
          : m instanceof Justification j ? garbled(j) : m;
      case BAD_COMMITMENT -> m instanceof Dealing d ? badCommitment(g, d) : m;
      case FALSE_COMPLAINTS -> m instanceof Complaints c ? accuseAll(c) : m;
      case BAD_OPENING -> m instanceof Opening o ? badOpening(g, o) : m;
      default -> m;
    };
    return out == null ? List.of() : List.of(operation(tag, out));
  }

  /** The DKG message inside a key generation operation of tag 1 (coin) or 2 (TDH2); null for a signature. */
  static DkgMessage message(byte[] op) {
    int tag = op[GroupDkg.MAGIC.length];
    if (tag != COIN && tag != TDH2) {
      return null;
    }
    return DkgMessage.decode(Arrays.copyOfRange(op, GroupDkg.MAGIC.length + 1, op.length));
  }

  private static byte[] operation(int tag, DkgMessage m) {
    byte[] body = m.encode();
    byte[] op = Arrays.copyOf(GroupDkg.MAGIC, GroupDkg.MAGIC.length + 1 + body.length);
    op[GroupDkg.MAGIC.length] = (byte) tag;
    System.arraycopy(body, 0, op, GroupDkg.MAGIC.length + 1, body.length);
    return op;
  }

  /** One flipped byte in the ciphertexts of up to t receivers drawn from the seed. */
  private Dealing corruptShares(Dealing d) {
    List<byte[]> cts = new ArrayList<>(d.ciphertexts());
    for (int v = 0; v < t; v++) {
      int j = random.nextInt(cts.size());
      byte[] ct = cts.get(j).clone();
      ct[random.nextInt(ct.length)] ^= 1;
      cts.set(j, ct);
    }
    return new Dealing(d.dealer(), d.commitments(), d.ephemeral(), cts);
  }

  private static Justification garbled(Justification j) {
    List<Reveal> rs = new ArrayList<>();
    for (Reveal r : j.reveals()) {
      byte[] s = r.s().clone();
      s[s.length - 1] ^= 1;
      rs.add(new Reveal(r.receiver(), s, r.sPrime()));
    }
    return new Justification(j.dealer(), rs);
  }

  private Dealing badCommitment(DlGroup<?> g, Dealing d) {
    List<byte[]> c = new ArrayList<>(d.commitments());
    c.set(c.size() - 1, randomElement(g));
    return new Dealing(d.dealer(), c, d.ephemeral(), d.ciphertexts());
  }

  private Complaints accuseAll(Complaints c) {
    List<Integer> all = new ArrayList<>();
    for (int i = 1; i <= 3 * t + 1; i++) {
      if (!spared.contains(i)) {
        all.add(i);
      }
    }
    return new Complaints(c.receiver(), all);
  }

  private Opening badOpening(DlGroup<?> g, Opening o) {
    List<Open> os = new ArrayList<>();
    for (Open x : o.openings()) {
      os.add(new Open(x.dealer(), randomElement(g), x.proof()));
    }
    return new Opening(o.receiver(), os);
  }

  private <E> byte[] randomElement(DlGroup<E> g) {
    BigInteger x = new BigInteger(g.order().bitLength() + 64, random).mod(g.order().subtract(BigInteger.ONE))
        .add(BigInteger.ONE);
    return g.encode(g.expG(x));
  }
}
