package org.bftws.core.dkg;

import java.math.BigInteger;
import java.util.List;
import org.bftws.core.crypto.threshold.DlGroup;

/** Verifiable secret sharing arithmetic shared by the three modes (Feldman 1987, Pedersen 1991). */
final class Vss {
  private Vss() {}

  /**
   * Π_k C_k^{x^k} by Horner's rule in the exponent: the commitment to the polynomial's value at x (GJKR Fig. 2
   * step 1(b), the right-hand side of equation (4)).
   */
  static <E> E evaluate(DlGroup<E> g, List<E> c, int x) {
    BigInteger bx = BigInteger.valueOf(x);
    E acc = c.get(c.size() - 1);
    for (int k = c.size() - 2; k >= 0; k--) {
      acc = g.op(g.exp(acc, bx), c.get(k));
    }
    return acc;
  }

  /** g^s (Feldman) or g^s h^{s'} (Pedersen): the left-hand side of the share check. */
  static <E> E commit(DlGroup<E> g, BigInteger s, BigInteger sPrime) {
    return sPrime == null ? g.expG(s) : g.op(g.expG(s), g.exp(g.h(), sPrime));
  }
}
