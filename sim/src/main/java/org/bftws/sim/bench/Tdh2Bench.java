package org.bftws.sim.bench;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdParams;

/**
 * The TDH2 rows of {@link ThresholdBench} (scheme {@code tdh2}, P-256, n = 4, k = 2 and 3): what a client pays
 * to seal a 1 KiB request (encrypt_1KiB) and what a replica pays per confidential request once it is ordered —
 * check the ciphertext's validity proof (verify_ciphertext), its decryption share with proof (share), each
 * peer's share (verify_share), and the combination of k shares, each verified, into the plaintext (combine,
 * which also checks the validity proof again and opens the AES-256-GCM payload).
 */
final class Tdh2Bench {
  private static final Tdh2 TDH2 = new Tdh2();
  private final ThresholdBench bench;
  private final SecureRandom random;

  Tdh2Bench(ThresholdBench bench, SecureRandom random) {
    this.bench = bench;
    this.random = random;
  }

  void measure(int iterations) throws ThresholdException {
    for (int k = 2; k <= 3; k++) {
      ThresholdParams p = new ThresholdParams(4, k, 1);
      long t0 = System.nanoTime();
      Dealt d = TDH2.deal(p, random);
      bench.record("tdh2", 256, p, "deal", new long[] {System.nanoTime() - t0});
      run(d, iterations);
    }
  }

  private void run(Dealt d, int iterations) throws ThresholdException {
    int warm = Math.max(5, iterations / 5);
    int total = warm + iterations;
    long[][] t = new long[5][total];
    int k = d.group().params().k();
    byte[] request = new byte[1024];
    for (int m = 0; m < total; m++) {
      Arrays.fill(request, (byte) m);
      byte[] label = ("bench;seq=s;m=" + m).getBytes(StandardCharsets.US_ASCII);
      long t0 = System.nanoTime();
      Tdh2Ciphertext c = TDH2.encrypt(d.group(), label, request, random);
      t[0][m] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      boolean ok = TDH2.isValid(c);
      t[1][m] = System.nanoTime() - t0;
      List<SignatureShare> shares = new ArrayList<>();
      t0 = System.nanoTime();
      shares.add(TDH2.share(d.group(), d.share(1), c));
      t[2][m] = System.nanoTime() - t0;
      for (int i = 2; i <= k; i++) {
        shares.add(TDH2.share(d.group(), d.share(i), c));
      }
      t0 = System.nanoTime();
      ok &= TDH2.verifyShare(d.group(), c, shares.get(k - 1));
      t[3][m] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      ok &= Arrays.equals(request, TDH2.combine(d.group(), c, shares));
      t[4][m] = System.nanoTime() - t0;
      if (!ok) {
        throw new IllegalStateException("tdh2: verification failed during benchmark");
      }
    }
    String[] ops = {"encrypt_1KiB", "verify_ciphertext", "share", "verify_share", "combine"};
    for (int i = 0; i < ops.length; i++) {
      bench.record("tdh2", 256, d.group().params(), ops[i], ThresholdBench.tail(t[i], warm));
    }
  }
}
