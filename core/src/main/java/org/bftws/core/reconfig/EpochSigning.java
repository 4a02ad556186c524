package org.bftws.core.reconfig;

import java.nio.charset.StandardCharsets;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * Replica signatures bound to their membership epoch (docs/design/reconfiguration.md, "Old-epoch messages are
 * refused"). From epoch 1 on a replica signs a domain tag and the epoch before the bytes it would sign, so no
 * message or certificate of epoch e verifies in epoch e+1, not even one of a member whose index and key did
 * not change (otherwise a replace that keeps indexes 0..2 would let three old prepares make a prepared
 * certificate of the new epoch). Epoch 0 signs the bytes as they are, so a group that never reconfigures is
 * unchanged. Clients' signatures are never bound: a client may lag behind the group's epoch.
 */
public final class EpochSigning {
  private static final byte[] DOMAIN = "BFTWS-epoch-v1".getBytes(StandardCharsets.US_ASCII);

  private EpochSigning() {}

  /** What a replica signs in {@code epoch} for {@code data}. */
  static byte[] bound(long epoch, byte[] data) {
    if (epoch == 0) {
      return data;
    }
    return new ByteWriter(data.length + 32).raw(DOMAIN).i64(epoch).raw(data).toBytes();
  }

  /** {@code key}'s signatures in {@code epoch}. */
  public static Signer signer(long epoch, Signer key) {
    return data -> key.sign(bound(epoch, data));
  }

  /**
   * Checks replica signatures of {@code membership}'s epoch: node i &lt; n is the member at index i; other node
   * ids are clients, checked by {@code clients} on the bytes as they are.
   */
  public static Verifier verifier(Membership membership, Verifier clients) {
    long epoch = membership.epoch();
    return (node, data, signature) -> {
      if (node >= 0 && node < membership.n()) {
        return verify(membership.member(node).publicKey(), bound(epoch, data), signature);
      }
      return node >= membership.n() && clients.verify(node, data, signature);
    };
  }

  /**
   * Checks signatures of {@code membership}'s epoch by its members' stable ids (not indexes), as messages between
   * members of different epochs name their senders; false for an id that is no member of it.
   */
  public static Verifier byStableId(Membership membership) {
    long epoch = membership.epoch();
    return (id, data, signature) -> {
      Member m = membership.byId(id);
      return m != null && verify(m.publicKey(), bound(epoch, data), signature);
    };
  }

  /** Ed25519 (RFC 8032) on a raw 32-byte public key; false for a key that is no curve point. */
  static boolean verify(byte[] publicKey, byte[] data, byte[] signature) {
    if (signature == null || signature.length != Ed25519PrivateKeyParameters.SIGNATURE_SIZE) {
      return false;
    }
    Ed25519PublicKeyParameters pk;
    try {
      pk = new Ed25519PublicKeyParameters(publicKey, 0);
    } catch (IllegalArgumentException e) {
      return false;
    }
    Ed25519Signer v = new Ed25519Signer();
    v.init(false, pk);
    v.update(data, 0, data.length);
    return v.verifySignature(signature);
  }
}
