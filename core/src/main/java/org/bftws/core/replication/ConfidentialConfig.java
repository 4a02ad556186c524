package org.bftws.core.replication;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.message.Request;

/**
 * A replica's material for confidential requests (SINTRA §2.6): the group's TDH2 key, this replica's key
 * share (index = replica id + 1), the group id bound into every label, and which requests are confidential.
 *
 * <p>The label of a confidential request binds its ciphertext to the group and to the request's place in its
 * client's sequence, (sequence id, message number): a ciphertext copied into another request — a Byzantine
 * client replaying a victim's sealed bid as its own — carries a label that is not that request's, and its
 * validity proof covers the label, so it cannot be re-labelled either (TDH2's chosen-ciphertext security).
 */
public record ConfidentialConfig(GroupKey key, KeyShare share, byte[] groupId, ConfidentialOperations operations) {
  private static final byte[] LABEL_DOMAIN = "BFTWS-confidential-request-v1".getBytes(StandardCharsets.US_ASCII);
  static final Tdh2 TDH2 = new Tdh2();

  public ConfidentialConfig {
    if (key.scheme() != SchemeId.TDH2 || !TDH2.keyShareMatches(key, share)) {
      throw new IllegalArgumentException("a TDH2 group key and a key share dealt with it are needed");
    }
    groupId = groupId.clone();
  }

  @Override
  public byte[] groupId() {
    return groupId.clone();
  }

  /** The label of the request (sequenceId, messageNumber) of the group {@code groupId}. */
  public static byte[] label(byte[] groupId, String sequenceId, long messageNumber) {
    return new Codec.Writer().bytes(LABEL_DOMAIN).bytes(groupId)
        .bytes(sequenceId.getBytes(StandardCharsets.UTF_8)).u32((int) (messageNumber >>> 32))
        .u32((int) messageNumber).toByteArray();
  }

  /** A confidential request's ciphertext if it may be opened, else why not (exactly one is null). */
  public record Check(Tdh2Ciphertext ciphertext, String problem) {}

  /**
   * Checks the ciphertext that request {@code q} of group {@code groupId} carries: well-formed, labelled for
   * that request, validity proof holding. A function of the bytes alone, so every correct replica finds the
   * same; an embedding may call it to refuse a request before it reaches the engine (a SOAP fault).
   */
  public static Check check(byte[] groupId, Request q, byte[] ciphertext) {
    Tdh2Ciphertext ct;
    try {
      ct = Tdh2Ciphertext.decode(ciphertext);
    } catch (IllegalArgumentException e) {
      return new Check(null, "malformed ciphertext: " + e.getMessage());
    }
    if (!Arrays.equals(ct.label(), label(groupId, q.sequenceId(), q.messageNumber()))) {
      return new Check(null, "ciphertext labelled for another request than " + q.id());
    }
    if (!TDH2.isValid(ct)) {
      return new Check(null, "ciphertext of " + q.id() + " fails its validity proof");
    }
    return new Check(ct, null);
  }

  /**
   * The client's side: {@code plaintext} encrypted under the group key {@code key} for request (sequenceId,
   * messageNumber) of group {@code groupId}, encoded as the request carries it.
   */
  public static byte[] seal(GroupKey key, byte[] groupId, String sequenceId, long messageNumber, byte[] plaintext,
      SecureRandom random) {
    return TDH2.encrypt(key, label(groupId, sequenceId, messageNumber), plaintext, random).encode();
  }

  @Override
  public String toString() {
    return "ConfidentialConfig(tdh2, share " + share.index() + ")";
  }
}
