/**
 * Keys without a trusted dealer for the discrete-logarithm threshold schemes (CKS coin and TDH2 on P-256,
 * threshold BLS with keys in BLS12-381's G2), as pure state machines whose messages the group orders:
 *
 * <ul>
 * <li>{@link org.bftws.core.dkg.Dkg} in mode GENERATE: the distributed key generation of Gennaro, Jarecki,
 *     Krawczyk and Rabin ("Secure distributed key generation for discrete-log based cryptosystems",
 *     EUROCRYPT 1999 / J. Cryptology 2007, Fig. 2): Pedersen-VSS by every replica, complaints and
 *     justifications, QUAL, then the extraction of y; the adversary cannot bias the key (their secrecy proof).
 * <li>mode REFRESH: proactive share renewal (Herzberg, Jarecki, Krawczyk, Yung, CRYPTO 1995, share renewal): sharings
 *     of 0 added to every share; the group key stays, old and new shares do not combine. {@link org.bftws.core.dkg.GroupRefresh} runs it for
 *     a group's coin and TDH2 keys over one agreed sequence, started by f+1 replicas' votes; a replica holding no
 *     share of the current epoch asks ({@link org.bftws.core.dkg.GroupRefresh#recover}) and gets one by a
 *     resharing to the same members.
 * <li>mode RESHARE: redistribution to a new membership n → n', t → t' (Desmedt and Jajodia, 1997): each old
 *     holder deals a Feldman sharing of its own share; the new shares are Lagrange combinations.
 * </ul>
 *
 * <p>Every phase closes at a point of the agreed ordered sequence (a count of ordered messages), never on a
 * timeout, so every correct replica decides the same qualified set; {@link org.bftws.core.dkg.Dkg} gives the
 * rules and why they end. Shares travel encrypted to each receiver's individual P-256 key
 * ({@link org.bftws.core.dkg.ShareCipher}). docs/design/cryptography.md states the assumptions. Shoup RSA has no
 * distributed generation here.
 */
package org.bftws.core.dkg;
