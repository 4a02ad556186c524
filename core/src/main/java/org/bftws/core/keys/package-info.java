/**
 * Key files of a replica group and the command that deals them ({@link org.bftws.core.keys.KeyGen},
 * {@code scripts/keygen}); {@link org.bftws.core.keys.KeyFiles} reads them back and checks everything.
 *
 * <p>Format (all three kinds): UTF-8 text, one {@code name = value} a line, {@code #} starts a comment line,
 * names unique, binary values in base64 (RFC 4648 §4, no line breaks). The first field is {@code format}.
 * <pre>
 * group.pub       format = bftws-group-1
 *                 scheme = cks|bls|rsa, n, f, k, clients
 *                 threshold.group = the scheme's common public part (GroupKey.commonEncoding)
 *                 threshold.vk.I  = verification key of replica I (1..n)
 *                 tdh2.group      = TDH2 public key h = g^x (33 bytes, SEC1 compressed P-256): what clients
 *                                   encrypt confidential requests under
 *                 tdh2.vk.I       = TDH2 verification key h_I of replica I
 *                 replica.I.ed25519 = Ed25519 public key of replica I (32 bytes, RFC 8032)
 *                 client.J.ed25519  = Ed25519 public key of client J (1..clients)
 * replica-I.key   format = bftws-replica-1   (POSIX mode 0600)
 *                 scheme, replica = I, threshold.share = KeyShare.encode(), tdh2.share = KeyShare.encode()
 *                 of the TDH2 key, ed25519.private = 32-byte seed
 * client-J.key    format = bftws-client-1    (POSIX mode 0600)
 *                 client = J, ed25519.private = 32-byte seed
 *
 * Without a trusted dealer ({@link org.bftws.core.keys.IndividualKeyGen}, {@link org.bftws.core.keys.MemberFiles}):
 * replica-I.id    format = bftws-replica-identity-1   (POSIX mode 0600, generated on replica I's host)
 *                 replica = I, ed25519.private = 32-byte seed, p256.private = 32-byte P-256 scalar that opens
 *                 the shares the distributed key generation encrypts to replica I
 * replica-I.pub   format = bftws-member-1: replica = I, ed25519 = public key, p256 = g^secret (33 bytes)
 * client-J.pub    format = bftws-member-1: client = J, ed25519 = public key (beside client-J.key)
 * members.pub     format = bftws-members-1: scheme = cks|bls, n, f, k, replica.I.ed25519, replica.I.p256,
 *                 clients, client.J.ed25519 — the group's configuration; the DKG writes group.pub and
 *                 replica-I.key (the formats above) into each replica's data directory
 * group.vk        after a proactive refresh: group.pub's format, the same group keys, epoch e's verification
 *                 keys; replica-I.key then holds epoch e's shares ({@link org.bftws.core.keys.KeyEpochFiles})
 * keys.epoch      format = bftws-keys-epoch-1: epoch = e (1, 2, ...), after.seq = the seq after which they serve
 * </pre>
 */
package org.bftws.core.keys;
