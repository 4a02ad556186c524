package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.RandomizedOperations;

/**
 * What a BA random number is (integrity paper §4, the entropy-combination step), as pure functions shared
 * by the engine ({@link Contributions}), the simulator's checker and auditors: the set check, the
 * combination and the digest d' the prepares and commits are on.
 *
 * <p>R_j = XOR over the 2f+1 contributors i in S_R of H("mix", i, R_ij): hashing each contribution with its
 * contributor's id binds it to that id, so a Byzantine replica that copies an honest R_i under its own id
 * adds H(b, R_i), which does not cancel H(i, R_i) (docs/design/cryptography.md: "x ⊕ x = 0"). d' = H("d'", d, R_1 … R_k).
 */
public final class BaRandomness {
  private static final byte[] MIX = tag("BFTWS-BA-mix-v1");
  private static final byte[] VOTE = tag("BFTWS-BA-d'-v1");
  private static final byte[] COMMIT = tag("BFTWS-BA-commit-v1");

  private BaRandomness() {}

  private static byte[] tag(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** H(i, R_i): a contribution bound to its contributor. */
  public static byte[] mix(int contributor, byte[] value) {
    return Digests.sha256(MIX, new ByteWriter(4).i32(contributor).toBytes(), value);
  }

  /** The hardened variant's commitment to R_ij: H(i, n, j, d, R_ij, nonce_i). */
  public static byte[] commitment(int contributor, long seq, byte[] d, int j, byte[] value, byte[] nonce) {
    return Digests.sha256(COMMIT, new ByteWriter(16).i32(contributor).i64(seq).i32(j).toBytes(), d, value, nonce);
  }

  /** XOR of the bound contributions, one combined 32-byte value per randomized request. */
  public static List<byte[]> combine(Map<Integer, List<byte[]>> valuesByContributor, int count) {
    List<byte[]> out = new ArrayList<>(count);
    for (int j = 0; j < count; j++) {
      byte[] acc = new byte[PpUpdate.VALUE_LENGTH];
      for (Map.Entry<Integer, List<byte[]>> e : valuesByContributor.entrySet()) {
        byte[] m = mix(e.getKey(), e.getValue().get(j));
        for (int b = 0; b < acc.length; b++) {
          acc[b] ^= m[b];
        }
      }
      out.add(acc);
    }
    return out;
  }

  /** d' = D(d || R): what prepares and commits of a batch with randomized requests are on. */
  public static byte[] voteDigest(byte[] d, List<byte[]> randoms) {
    ByteWriter w = new ByteWriter(VOTE.length + 32 + randoms.size() * 32).raw(VOTE).raw(d);
    for (byte[] r : randoms) {
      w.raw(r);
    }
    return Digests.sha256(w.toBytes());
  }

  /**
   * One member of S_R (a contributor's own signed pp-update): the right type, for (seq, d), one value per
   * randomized request, from a replica of the group, authentic. Returns its decoding.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static PpUpdate checkMember(Signed m, PpUpdate.Type type, long seq, byte[] d, int count, int n,
      Predicate<Signed> authentic) {
    if (m.kind() != Kind.PP_UPDATE || m.sender() < 0 || m.sender() >= n) {
      throw new IllegalArgumentException("a contribution that is not a replica's pp-update");
    }
    PpUpdate u;
    try {
      u = PpUpdate.decode(m.body());
    } catch (DecodeException e) {
      throw new IllegalArgumentException("a malformed contribution: " + e.getMessage());
    }
    if (u.type() != type || u.seq() != seq || !Arrays.equals(u.digest(), d)) {
      throw new IllegalArgumentException("a " + u.type() + " of replica " + m.sender() + " for another request");
    }
    if (u.values().size() != count) {
      throw new IllegalArgumentException("replica " + m.sender() + " contributed " + u.values().size()
          + " values for " + count + " randomized requests");
    }
    if (type == PpUpdate.Type.REVEAL && u.nonce().length != PpUpdate.VALUE_LENGTH) {
      throw new IllegalArgumentException("a reveal of replica " + m.sender() + " without its nonce");
    }
    if (!authentic.test(m)) {
      throw new IllegalArgumentException("a contribution of replica " + m.sender() + " it did not sign");
    }
    return u;
  }

  /** Whether a reveal opens the commitment: every value j hashes to commitment j. */
  static boolean opens(int contributor, long seq, byte[] d, PpUpdate commitment, PpUpdate reveal) {
    for (int j = 0; j < commitment.values().size(); j++) {
      byte[] c = commitment(contributor, seq, d, j, reveal.values().get(j), reveal.nonce());
      if (!Arrays.equals(c, commitment.values().get(j))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Check a certified set S_R — 2f+1 distinct contributors' signed contributions (hardened: commitments
   * and the reveals opening them) for the batch with digest d at seq — and combine it.
   *
   * @param certificate a {@link Kind#PP_UPDATE} of type SET; its envelope's signature is not relied on:
   *     every member carries its contributor's own signature, checked with {@code authentic}
   * @param ops which requests of the batch are randomized (the group's {@link RandomizedOperations})
   * @return R, one 32-byte value per randomized request of the batch
   * @throws IllegalArgumentException naming what is wrong
   */
  public static List<byte[]> checkCertificate(Signed certificate, long seq, byte[] d, List<Signed> batch,
      RandomizedOperations ops, int n, int f, boolean hardened, Predicate<Signed> authentic) {
    int count = ops.randomizedIndices(batch).length;
    if (count == 0) {
      throw new IllegalArgumentException("a random number for a batch with no randomized request");
    }
    PpUpdate set;
    try {
      set = PpUpdate.decode(certificate.body());
    } catch (DecodeException e) {
      throw new IllegalArgumentException("a malformed set: " + e.getMessage());
    }
    if (certificate.kind() != Kind.PP_UPDATE || set.type() != PpUpdate.Type.SET || set.seq() != seq
        || !Arrays.equals(set.digest(), d)) {
      throw new IllegalArgumentException("a set for another request");
    }
    Map<Integer, PpUpdate> members = checkMembers(set.set(), hardened, seq, d, count, n, f, authentic);
    Map<Integer, List<byte[]>> values = new HashMap<>();
    if (!hardened) {
      if (!set.reveals().isEmpty()) {
        throw new IllegalArgumentException("reveals in a plain BA set");
      }
      members.forEach((i, u) -> values.put(i, u.values()));
    } else {
      if (set.reveals().size() != members.size()) {
        throw new IllegalArgumentException("a hardened set with " + set.reveals().size() + " reveals for "
            + members.size() + " commitments");
      }
      for (Signed rv : set.reveals()) {
        PpUpdate u = checkMember(rv, PpUpdate.Type.REVEAL, seq, d, count, n, authentic);
        PpUpdate c = members.get(rv.sender());
        if (c == null || values.containsKey(rv.sender()) || !opens(rv.sender(), seq, d, c, u)) {
          throw new IllegalArgumentException("a reveal of replica " + rv.sender() + " that opens no commitment of the set");
        }
        values.put(rv.sender(), u.values());
      }
    }
    return combine(values, count);
  }

  /** The 2f+1 members of S_R, by contributor: distinct, each checked with {@link #checkMember}. */
  static Map<Integer, PpUpdate> checkMembers(List<Signed> set, boolean hardened, long seq, byte[] d, int count,
      int n, int f, Predicate<Signed> authentic) {
    if (set.size() != 2 * f + 1) {
      throw new IllegalArgumentException("a set of " + set.size() + " contributions, not 2f+1 = " + (2 * f + 1));
    }
    Map<Integer, PpUpdate> members = new HashMap<>();
    PpUpdate.Type type = hardened ? PpUpdate.Type.COMMITMENT : PpUpdate.Type.CONTRIBUTION;
    for (Signed m : set) {
      PpUpdate u = checkMember(m, type, seq, d, count, n, authentic);
      if (members.put(m.sender(), u) != null) {
        throw new IllegalArgumentException("a set with two contributions of replica " + m.sender());
      }
    }
    return members;
  }
}
