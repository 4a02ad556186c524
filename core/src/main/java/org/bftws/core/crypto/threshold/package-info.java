/**
 * (n, k, t) dual-threshold <em>unique</em> signature and coin schemes for the CT algorithm (Zhao, "Integrity
 * enhancing replica coordination", §5) and SINTRA's coin (Cachin, Kursawe, Shoup; SINTRA §2.1, §3.1).
 *
 * <p>Every scheme follows one life cycle, exposed by {@link org.bftws.core.crypto.threshold.ThresholdScheme}:
 * a trusted dealer {@linkplain org.bftws.core.crypto.threshold.ThresholdScheme#deal deals} a
 * {@link org.bftws.core.crypto.threshold.GroupKey} (all public material, including one verification key per
 * replica) and one {@link org.bftws.core.crypto.threshold.KeyShare} per replica; each replica releases a
 * {@link org.bftws.core.crypto.threshold.SignatureShare} with its proof; any k valid shares combine into the
 * same {@link org.bftws.core.crypto.threshold.GroupValue}, whose SHA-256 is the coin
 * ({@link org.bftws.core.crypto.threshold.ThresholdScheme#coinValue}).
 *
 * <p>Schemes (security levels as usually estimated):
 * <ul>
 *   <li>{@link org.bftws.core.crypto.threshold.CksCoin}: Cachin-Kursawe-Shoup Diffie-Hellman coin on P-256,
 *       RFC 9380 hash-to-curve, Chaum-Pedersen proofs — 128-bit.</li>
 *   <li>{@link org.bftws.core.crypto.threshold.BlsThreshold}: Boldyreva threshold BLS on BLS12-381
 *       (signature in G1, key in G2, drand "quicknet" DST) with blst — about 117–128-bit.</li>
 *   <li>{@link org.bftws.core.crypto.threshold.ShoupRsa}: Shoup's practical threshold RSA with safe primes
 *       and a full-domain hash — 2048-bit modulus ≈ 112-bit, 3072-bit ≈ 128-bit, 1024-bit ≈ 80-bit (tests and
 *       benchmarks only), 512-bit none (tests only).</li>
 * </ul>
 *
 * <p>Beside them, the threshold <em>cryptosystem</em> of SINTRA's secure causal atomic broadcast (§2.6):
 * {@link org.bftws.core.crypto.threshold.Tdh2}, Shoup-Gennaro TDH2 on P-256, secure against adaptive
 * chosen-ciphertext attack; a hybrid whose payload is AES-256-GCM under a key derived from the group element —
 * 128-bit. It is dealt like the coin ({@link org.bftws.core.crypto.threshold.ThresholdKeys}); its decryption
 * shares are {@link org.bftws.core.crypto.threshold.SignatureShare}s (u^{x_i} with a Chaum-Pedersen proof), so a
 * bad one is named by the same {@link org.bftws.core.crypto.threshold.InvalidSharesException}.
 *
 * <p>Pitfalls of docs/design/cryptography.md that this package guards against: polynomial degree k−1; hash to
 * the group with unknown discrete logarithm; shares checked against the group's verification keys by index,
 * never against key material inside a share; non-negative (truncated) proof challenges; safe primes and a
 * deterministic full-domain hash for RSA; only unique schemes; Lagrange coefficients over the indices
 * actually used, duplicates rejected, Δ = n! for RSA; optimistic combination.
 */
package org.bftws.core.crypto.threshold;
