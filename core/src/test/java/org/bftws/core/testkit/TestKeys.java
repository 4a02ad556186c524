package org.bftws.core.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * Ed25519 keys of nodes 0..count−1 for tests and the simulator, each drawn as 32 seed bytes (RFC 8032 §5.1.5)
 * from a seeded generator: the same seed gives the same keys, so a failing run replays. Real keys come from
 * {@code KeyGen} and a fresh {@code SecureRandom}.
 */
public final class TestKeys {
  private final List<Ed25519PrivateKeyParameters> keys;

  private TestKeys(List<Ed25519PrivateKeyParameters> keys) {
    this.keys = List.copyOf(keys);
  }

  /** Keys of nodes 0..count−1 drawn from {@code new Random(seed)}. */
  public static TestKeys seeded(int count, long seed) {
    return drawn(count, new Random(seed));
  }

  /** Keys of nodes 0..count−1, 32 bytes each from {@code seeds} in node order (the simulator's draws). */
  public static TestKeys drawn(int count, Random seeds) {
    List<Ed25519PrivateKeyParameters> keys = new ArrayList<>();
    for (int node = 0; node < count; node++) {
      keys.add(key(seeds));
    }
    return new TestKeys(keys);
  }

  /** One key from the next 32 bytes of {@code seeds}. */
  public static Ed25519PrivateKeyParameters key(Random seeds) {
    byte[] seed = new byte[32];
    seeds.nextBytes(seed);
    return new Ed25519PrivateKeyParameters(seed, 0);
  }

  /** These keys with node {@code node}'s replaced by {@code key} (e.g. one read from a key file). */
  public TestKeys with(int node, Ed25519PrivateKeyParameters key) {
    List<Ed25519PrivateKeyParameters> changed = new ArrayList<>(keys);
    changed.set(node, key);
    return new TestKeys(changed);
  }

  public int count() {
    return keys.size();
  }

  public Ed25519PrivateKeyParameters privateKey(int node) {
    return keys.get(node);
  }

  public Ed25519PublicKeyParameters publicKey(int node) {
    return keys.get(node).generatePublicKey();
  }

  public Signer signer(int node) {
    return Ed25519.signer(keys.get(node));
  }

  /** Every node's signer by id. */
  public Map<Integer, Signer> signers() {
    Map<Integer, Signer> out = new HashMap<>();
    for (int node = 0; node < keys.size(); node++) {
      out.put(node, signer(node));
    }
    return out;
  }

  /** Every node's public key by id. */
  public Map<Integer, Ed25519PublicKeyParameters> publicKeys() {
    Map<Integer, Ed25519PublicKeyParameters> out = new HashMap<>();
    for (int node = 0; node < keys.size(); node++) {
      out.put(node, publicKey(node));
    }
    return out;
  }

  /** Replica {@code replica}'s authenticators in a group of replicas 0..n−1 (MAC authentication). */
  public Authenticators authenticators(int replica, int n) {
    Map<Integer, Ed25519PublicKeyParameters> replicas = new HashMap<>();
    for (int i = 0; i < n; i++) {
      replicas.put(i, publicKey(i));
    }
    return new Authenticators(replica, keys.get(replica), replicas);
  }

  /** The verifier of every node's signatures. */
  public Verifier verifier() {
    return Ed25519.verifier(publicKeys());
  }
}
