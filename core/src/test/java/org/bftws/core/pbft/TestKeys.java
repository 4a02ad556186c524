package org.bftws.core.pbft;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/** Ed25519 keys for nodes 0..count−1 drawn from a seed, for the in-memory groups of the unit tests. */
public final class TestKeys {
  private TestKeys() {}

  /** Fills {@code signers} with each node's signer and returns the verifier of all of them. */
  public static Verifier ed25519(int count, long seed, Map<Integer, Signer> signers) {
    Random seeds = new Random(seed);
    Map<Integer, Ed25519PublicKeyParameters> keys = new HashMap<>();
    for (int node = 0; node < count; node++) {
      byte[] s = new byte[32];
      seeds.nextBytes(s);
      Ed25519PrivateKeyParameters k = new Ed25519PrivateKeyParameters(s, 0);
      keys.put(node, k.generatePublicKey());
      signers.put(node, Ed25519.signer(k));
    }
    return Ed25519.verifier(keys);
  }
}
