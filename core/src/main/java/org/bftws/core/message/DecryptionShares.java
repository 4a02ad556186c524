package org.bftws.core.message;

import java.util.List;

/**
 * ⟨DECRYPTION-SHARE, n, d, [(j, share_j)...]⟩: replica i's TDH2 decryption shares (SINTRA §2.6) for the valid
 * confidential requests of the batch d final at sequence number n, j being a request's position in the batch
 * and share_j a {@code SignatureShare} of scheme TDH2 in its canonical encoding (u_j^{x_i} with its
 * Chaum-Pedersen proof); the envelope's sender is i. The layout is {@link CoinShare}'s, whose codec it uses;
 * the kind keeps the two apart.
 */
public record DecryptionShares(long seq, byte[] digest, List<CoinShare.Entry> shares) {
  public DecryptionShares {
    shares = List.copyOf(shares);
  }

  public byte[] encode() {
    return new CoinShare(seq, digest, shares).encode();
  }

  public static DecryptionShares decode(byte[] body) {
    CoinShare c = CoinShare.decode(body);
    return new DecryptionShares(c.seq(), c.digest(), c.shares());
  }
}
