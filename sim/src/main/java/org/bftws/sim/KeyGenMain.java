package org.bftws.sim;

import java.security.SecureRandom;
import org.bftws.core.keys.KeyGen;

/**
 * The command line of the trusted dealer ({@code scripts/keygen}): {@link KeyGen} with a fresh
 * {@link SecureRandom} and the console. The dealing itself stays in the core, which prints nothing.
 */
public final class KeyGenMain {
  private KeyGenMain() {}

  public static void main(String[] args) {
    System.exit(KeyGen.run(args, new SecureRandom(), System.out, System.err));
  }
}
