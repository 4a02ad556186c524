package org.bftws.core.reconfig;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * One replica of a membership epoch: its stable id (handed out once, never reused), the endpoint it is reached
 * at and its Ed25519 public key (32 bytes, RFC 8032). The engine never sees the id: within an epoch a replica is
 * its index in the membership ({@link Membership#indexOf}).
 */
public record Member(int id, String endpoint, byte[] publicKey) {
  /** Ed25519 public keys are 32 bytes. */
  public static final int KEY_BYTES = 32;
  /** Longest endpoint accepted (bytes of UTF-8): a URL, not a document. */
  public static final int MAX_ENDPOINT = 1024;

  public Member {
    if (id < 0) {
      throw new ReconfigurationException("a member id is not negative, got " + id);
    }
    if (endpoint == null || endpoint.isBlank() || endpoint.getBytes(StandardCharsets.UTF_8).length > MAX_ENDPOINT) {
      throw new ReconfigurationException("member " + id + " needs an endpoint of 1 to " + MAX_ENDPOINT + " bytes");
    }
    if (publicKey == null || publicKey.length != KEY_BYTES) {
      throw new ReconfigurationException("member " + id + " needs a " + KEY_BYTES + "-byte Ed25519 public key");
    }
    publicKey = publicKey.clone();
  }

  @Override
  public byte[] publicKey() {
    return publicKey.clone();
  }

  boolean hasKey(byte[] key) {
    return Arrays.equals(publicKey, key);
  }

  void encodeInto(ByteWriter w) {
    w.i32(id).str(endpoint).bytes(publicKey);
  }

  static Member decodeFrom(ByteReader r) {
    try {
      return new Member(r.i32(), r.str(), r.bytes());
    } catch (ReconfigurationException e) {
      throw new DecodeException(e.getMessage());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Member m && m.id == id && m.endpoint.equals(endpoint) && Arrays.equals(m.publicKey, publicKey);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * id + endpoint.hashCode()) + Arrays.hashCode(publicKey);
  }

  @Override
  public String toString() {
    return "member " + id + " at " + endpoint;
  }
}
