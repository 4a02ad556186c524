package org.bftws.core.message;

import java.util.List;

/**
 * P_m of a view change (Castro-Liskov §4.4): a signed pre-prepare and 2f matching signed prepares from
 * distinct backups, proving that a batch prepared at (v, n). With the BA algorithm (integrity paper §4)
 * {@code randomness} is the set S_R the batch prepared with (a {@link Kind#PP_UPDATE} set holding the
 * contributors' signed pp-updates), from which anyone recomputes R and d' = D(d || R), the digest the
 * prepares are on; null when the batch needs no random number.
 */
public record PreparedCertificate(Signed prePrepare, List<Signed> prepares, Signed randomness) {
  public PreparedCertificate(Signed prePrepare, List<Signed> prepares) {
    this(prePrepare, prepares, null);
  }
}
