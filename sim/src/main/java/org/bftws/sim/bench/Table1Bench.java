package org.bftws.sim.bench;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;

/**
 * The rows of the integrity paper's Table 1 (§7.1), measured the way the paper states them so our figures sit
 * next to its: on the paper's 1 KB messages, a MAC (generation; verification recomputes it), an
 * authenticator (Castro-Liskov: n−1 = 3 MACs over the message digest; a receiver checks its own one), and
 * CT&lt;k&gt;-&lt;bits&gt;: signing = one threshold share, verification/combination = checking k shares and
 * combining them — with Shoup RSA at the paper's key labels (read as modulus bits; ours refuses moduli
 * below {@link ShoupRsa#MIN_MODULUS_BITS}, so CT-64/128/256 are not measured), and with our 128-bit default
 * (CKS on P-256) and BLS12-381 for comparison. Op names start with {@code table1_}. Times are the thread's CPU
 * time (the other rows of {@code crypto.csv} are wall time), so a loaded machine does not inflate them.
 */
final class Table1Bench {
  private static final int MESSAGE_BYTES = 1024;
  private static final int N = 4;
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();
  private final ThresholdBench out;
  private final SecureRandom random;

  Table1Bench(ThresholdBench out, SecureRandom random) {
    this.out = out;
    this.random = random;
  }

  /** Thread CPU time: on a shared, loaded machine wall time measures the neighbours too. */
  private static long cpu() {
    return THREADS.getCurrentThreadCpuTime();
  }

  /** CPU ns per call of {@code op}, one sample per {@code per} calls (sub-µs operations need the chunking). */
  private static long[] perCall(int samples, int per, Runnable op) {
    long[] t = new long[samples];
    for (int i = 0; i < samples; i++) {
      long t0 = cpu();
      for (int j = 0; j < per; j++) {
        op.run();
      }
      t[i] = (cpu() - t0) / per;
    }
    return ThresholdBench.tail(t, samples / 5);
  }

  void macs(int samples) throws GeneralSecurityException {
    byte[] key = new byte[32];
    random.nextBytes(key);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    byte[] msg = new byte[MESSAGE_BYTES];
    byte[] tag = mac.doFinal(msg);
    byte[][] authenticator = new byte[N - 1][];
    Runnable macVerify = () -> check(MessageDigest.isEqual(tag, mac.doFinal(msg)));
    Runnable authGenerate = () -> {
      byte[] d = sha.digest(msg);
      for (int j = 0; j < N - 1; j++) {
        authenticator[j] = mac.doFinal(d); // one key per receiver in PBFT: the same cost
      }
    };
    authGenerate.run();
    Runnable authVerify = () -> check(MessageDigest.isEqual(authenticator[0], mac.doFinal(sha.digest(msg))));
    out.record("hmac-sha256-jdk", 256, null, "table1_mac_generate_1KiB", perCall(samples, 100, () -> mac.doFinal(msg)));
    out.record("hmac-sha256-jdk", 256, null, "table1_mac_verify_1KiB", perCall(samples, 100, macVerify));
    out.record("authenticator-hmac-sha256", 256, null, "table1_authenticator_generate_1KiB", perCall(samples, 100, authGenerate));
    out.record("authenticator-hmac-sha256", 256, null, "table1_authenticator_verify_1KiB", perCall(samples, 100, authVerify));
  }

  private static void check(boolean ok) {
    if (!ok) {
      throw new IllegalStateException("MAC check failed during benchmark");
    }
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
        long t0 = cpu();
        shares.add(s.share(d.group(), d.share(1), msg));
        sign[m] = cpu() - t0;
        for (int i = 2; i <= k; i++) {
          shares.add(s.share(d.group(), d.share(i), msg));
        }
        t0 = cpu();
        boolean ok = true;
        for (SignatureShare sh : shares) {
          ok &= s.verifyShare(d.group(), msg, sh);
        }
        s.combine(d.group(), msg, shares);
        combine[m] = cpu() - t0;
        if (!ok) {
          throw new IllegalStateException(name + ": share verification failed during benchmark");
        }
      }
      out.record(name, bits, p, "table1_sign", ThresholdBench.tail(sign, warm));
      out.record(name, bits, p, "table1_verify_combine", ThresholdBench.tail(combine, warm));
    }
  }
}
