package org.bftws.core.crypto.threshold;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The rows of the integrity paper's Table 1 (§7.1), measured the way the paper states them so our figures sit
 * next to its: on the paper's 1 KB messages, a MAC (generation; verification recomputes it), an
 * authenticator (Castro-Liskov: n−1 = 3 MACs over the message digest; a receiver checks its own one), and
 * CT&lt;k&gt;-&lt;bits&gt;: signing = one threshold share, verification/combination = checking k shares and
 * combining them — with Shoup RSA at the paper's key labels (read as modulus bits; ours refuses moduli
 * below {@link ShoupRsa#MIN_MODULUS_BITS}, so CT-64/128/256 are not measured), and with our 128-bit default
 * (CKS on P-256) and BLS12-381 for comparison. Op names start with {@code table1_}.
 */
final class Table1Bench {
  private static final int MESSAGE_BYTES = 1024;
  private static final int N = 4;
  private final ThresholdBench out;
  private final SecureRandom random;

  Table1Bench(ThresholdBench out, SecureRandom random) {
    this.out = out;
    this.random = random;
  }

  void macs(int iterations) throws GeneralSecurityException {
    byte[] key = new byte[32];
    random.nextBytes(key);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    byte[] msg = new byte[MESSAGE_BYTES];
    byte[] expected = mac.doFinal(msg);
    long[] gen = new long[iterations];
    long[] ver = new long[iterations];
    long[] authGen = new long[iterations];
    long[] authVer = new long[iterations];
    for (int i = 0; i < iterations; i++) {
      msg[0] = (byte) i;
      long t0 = System.nanoTime();
      byte[] tag = mac.doFinal(msg);
      gen[i] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      boolean ok = MessageDigest.isEqual(tag, mac.doFinal(msg));
      ver[i] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      byte[] d = sha.digest(msg);
      List<byte[]> authenticator = new ArrayList<>(N - 1);
      for (int j = 0; j < N - 1; j++) {
        authenticator.add(mac.doFinal(d)); // one key per receiver in PBFT: same cost
      }
      authGen[i] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      ok &= MessageDigest.isEqual(authenticator.get(0), mac.doFinal(sha.digest(msg)));
      authVer[i] = System.nanoTime() - t0;
      if (!ok || expected.length != tag.length) {
        throw new IllegalStateException("MAC check failed during benchmark");
      }
    }
    int skip = iterations / 5;
    out.record("hmac-sha256-jdk", 256, null, "table1_mac_generate_1KiB", ThresholdBench.tail(gen, skip));
    out.record("hmac-sha256-jdk", 256, null, "table1_mac_verify_1KiB", ThresholdBench.tail(ver, skip));
    out.record("authenticator-hmac-sha256", 256, null, "table1_authenticator_generate_1KiB", ThresholdBench.tail(authGen, skip));
    out.record("authenticator-hmac-sha256", 256, null, "table1_authenticator_verify_1KiB", ThresholdBench.tail(authVer, skip));
  }

  /** CT&lt;k&gt; for k = 2, 3: one share; then k shares checked and combined (the paper's pessimistic way). */
  void ct(String name, int bits, ThresholdScheme s, int iterations) throws ThresholdException {
    for (int k = 2; k <= 3; k++) {
      ThresholdParams p = new ThresholdParams(N, k, 1);
      Dealt d = s.deal(p, random);
      int warm = Math.max(3, iterations / 5);
      long[] sign = new long[warm + iterations];
      long[] combine = new long[warm + iterations];
      for (int m = 0; m < sign.length; m++) {
        byte[] msg = ("table1;n=" + m + ";" + name).getBytes(StandardCharsets.US_ASCII);
        List<SignatureShare> shares = new ArrayList<>();
        long t0 = System.nanoTime();
        shares.add(s.share(d.group(), d.share(1), msg));
        sign[m] = System.nanoTime() - t0;
        for (int i = 2; i <= k; i++) {
          shares.add(s.share(d.group(), d.share(i), msg));
        }
        t0 = System.nanoTime();
        boolean ok = true;
        for (SignatureShare sh : shares) {
          ok &= s.verifyShare(d.group(), msg, sh);
        }
        s.combine(d.group(), msg, shares);
        combine[m] = System.nanoTime() - t0;
        if (!ok) {
          throw new IllegalStateException(name + ": share verification failed during benchmark");
        }
      }
      out.record(name, bits, p, "table1_sign", ThresholdBench.tail(sign, warm));
      out.record(name, bits, p, "table1_verify_combine", ThresholdBench.tail(combine, warm));
    }
  }
}
