package org.bftws.sim.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bftws.core.crypto.threshold.CksCoin;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * Benchmark (a tool, not part of the protocol: it reads the clock): the per-operation cost of each threshold
 * scheme — share (with proof), verify one share, combine k shares (optimistic, including the checks each
 * scheme needs), verify a combined value — for n = 4 and k = 2, 3, plus Ed25519 and HMAC-SHA256 for
 * comparison (integrity paper §7 Table 1 measured the same operations), and the paper's Table 1 rows as it
 * states them ({@link Table1Bench}, ops {@code table1_*}), and the TDH2 cryptosystem of confidential requests
 * (SINTRA §2.6: encrypt 1 KiB, check a ciphertext's validity proof, decryption share, verify one share,
 * combine k shares into the plaintext). Writes CSV {@code scheme,key_bits,n,k,op,mean_us,p50_us}.
 *
 * <pre>ThresholdBench [OUT.csv] [--rsa-bits 1024,2048,3072] [--table1-only] [--only GROUP,...]</pre>
 * {@code --table1-only} measures only the Table 1 rows and replaces those of OUT.csv, keeping its other rows;
 * {@code --only} does the same for the named groups of rows: cks, tdh2, bls, rsa, ed25519, hmac, table1.
 */
public final class ThresholdBench {
  private static final String HEADER = "scheme,key_bits,n,k,op,mean_us,p50_us";
  private final List<String> rows = new ArrayList<>();
  final SecureRandom random = new SecureRandom();

  private ThresholdBench() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of("perf/results/crypto.csv");
    int[] rsaBits = {1024, 2048, 3072};
    Set<String> only = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--table1-only")) {
        only = Set.of("table1");
      } else if (args[i].equals("--only")) {
        only = Set.of(args[++i].split(","));
      } else if (args[i].equals("--rsa-bits")) {
        rsaBits = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
      } else {
        out = Path.of(args[i]);
      }
    }
    ThresholdBench b = new ThresholdBench();
    System.out.println(HEADER);
    if (only != null) {
      b.keepOtherRows(out, only);
    }
    if (only == null || only.contains("cks")) {
      b.scheme("cks", 256, Thresholds.scheme(SchemeId.CKS), 400);
      b.cksHashToCurve(1000);
    }
    if (only == null || only.contains("tdh2")) {
      new Tdh2Bench(b, b.random).measure(300);
    }
    if (only == null || only.contains("bls")) {
      b.scheme("bls12-381", 255, Thresholds.scheme(SchemeId.BLS), 300);
    }
    if (only == null || only.contains("rsa")) {
      for (int bits : rsaBits) {
        b.scheme("rsa-shoup", bits, new ShoupRsa(bits), bits <= 1024 ? 200 : bits <= 2048 ? 60 : 25);
      }
    }
    if (only == null || only.contains("ed25519")) {
      b.ed25519(3000);
    }
    if (only == null || only.contains("hmac")) {
      b.hmac(30000);
    }
    if (only == null || only.contains("table1")) {
      b.table1();
    }
    b.write(out);
  }

  /** The group of rows a CSV line belongs to, as {@code --only} names them. */
  private static String group(String line) {
    String[] f = line.split(",");
    if (f[4].startsWith("table1_")) {
      return "table1";
    }
    return f[0].startsWith("bls") ? "bls" : f[0].startsWith("rsa") ? "rsa" : f[0].startsWith("hmac") ? "hmac" : f[0];
  }

  /** The integrity paper's Table 1 rows (ops {@code table1_*}), see {@link Table1Bench}. */
  private void table1() throws Exception {
    Table1Bench t1 = new Table1Bench(this, random);
    t1.macs(2000);
    for (int bits : new int[] {512, 1024}) {
      t1.ct("rsa-shoup", bits, new ShoupRsa(bits), bits <= 512 ? 200 : 100);
    }
    t1.ct("cks", 256, Thresholds.scheme(SchemeId.CKS), 300);
    t1.ct("bls12-381", 255, Thresholds.scheme(SchemeId.BLS), 200);
  }

  /** The rows of an earlier run outside the groups measured now, kept ahead of the new ones. */
  private void keepOtherRows(Path out, Set<String> measured) throws IOException {
    if (Files.exists(out)) {
      for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
        if (!line.equals(HEADER) && !measured.contains(group(line))) {
          rows.add(line);
        }
      }
    }
  }

  private void scheme(String name, int bits, ThresholdScheme s, int iterations) throws ThresholdException {
    for (int k = 2; k <= 3; k++) {
      ThresholdParams p = new ThresholdParams(4, k, 1);
      long t0 = System.nanoTime();
      Dealt d = s.deal(p, random);
      record(name, bits, p, "deal", new long[] {System.nanoTime() - t0});
      new SchemeRun(s, d, iterations).measure(this, name, bits);
    }
  }

  /** Timings of the four threshold operations on fresh messages (like one CT round per message). */
  private record SchemeRun(ThresholdScheme s, Dealt d, int iterations) {
    void measure(ThresholdBench b, String name, int bits) throws ThresholdException {
      int warm = Math.max(5, iterations / 5);
      int total = warm + iterations;
      long[] share = new long[total];
      long[] verify = new long[total];
      long[] combine = new long[total];
      long[] verifyCombined = new long[total];
      int k = d.group().params().k();
      for (int m = 0; m < total; m++) {
        byte[] msg = ("bench;group=g;n=" + m + ";d=" + name).getBytes(StandardCharsets.US_ASCII);
        List<SignatureShare> shares = new ArrayList<>();
        long t0 = System.nanoTime();
        shares.add(s.share(d.group(), d.share(1), msg));
        share[m] = System.nanoTime() - t0;
        for (int i = 2; i <= k; i++) {
          shares.add(s.share(d.group(), d.share(i), msg));
        }
        t0 = System.nanoTime();
        boolean ok = s.verifyShare(d.group(), msg, shares.get(k - 1));
        verify[m] = System.nanoTime() - t0;
        t0 = System.nanoTime();
        GroupValue v = s.combine(d.group(), msg, shares);
        combine[m] = System.nanoTime() - t0;
        t0 = System.nanoTime();
        ok &= s.verifyCombined(d.group(), msg, v);
        verifyCombined[m] = System.nanoTime() - t0;
        if (!ok) {
          throw new IllegalStateException(name + ": verification failed during benchmark");
        }
      }
      ThresholdParams p = d.group().params();
      b.record(name, bits, p, "share", tail(share, warm));
      b.record(name, bits, p, "verify_share", tail(verify, warm));
      b.record(name, bits, p, "combine", tail(combine, warm));
      b.record(name, bits, p, "verify_combined", tail(verifyCombined, warm));
    }
  }

  /**
   * CKS hashes each coin name once per thread (the last g̃ is kept), so its verify_share and combine rows
   * exclude it; this row is that one-off cost, paid inside share or the first check of a coin.
   */
  private void cksHashToCurve(int iterations) {
    long[] t = new long[iterations];
    for (int i = 0; i < iterations; i++) {
      byte[] name = ("bench;h2c;n=" + i).getBytes(StandardCharsets.US_ASCII);
      long t0 = System.nanoTime();
      CksCoin.hashToCurve(name);
      t[i] = System.nanoTime() - t0;
    }
    record("cks", 256, null, "hash_to_curve", tail(t, iterations / 5));
  }

  private void ed25519(int iterations) {
    Ed25519PrivateKeyParameters sk = new Ed25519PrivateKeyParameters(random);
    Ed25519PublicKeyParameters pk = sk.generatePublicKey();
    byte[] msg = new byte[256];
    long[] sign = new long[iterations];
    long[] verify = new long[iterations];
    for (int i = 0; i < iterations; i++) {
      msg[0] = (byte) i;
      Ed25519Signer signer = new Ed25519Signer();
      long t0 = System.nanoTime();
      signer.init(true, sk);
      signer.update(msg, 0, msg.length);
      byte[] sig = signer.generateSignature();
      sign[i] = System.nanoTime() - t0;
      Ed25519Signer verifier = new Ed25519Signer();
      t0 = System.nanoTime();
      verifier.init(false, pk);
      verifier.update(msg, 0, msg.length);
      if (!verifier.verifySignature(sig)) {
        throw new IllegalStateException("ed25519 verification failed");
      }
      verify[i] = System.nanoTime() - t0;
    }
    record("ed25519", 256, null, "sign_256B", tail(sign, iterations / 5));
    record("ed25519", 256, null, "verify_256B", tail(verify, iterations / 5));
  }

  private void hmac(int iterations) {
    byte[] key = new byte[32];
    random.nextBytes(key);
    byte[] msg = new byte[1024];
    byte[] out = new byte[32];
    HMac mac = new HMac(new SHA256Digest());
    mac.init(new KeyParameter(key));
    long[] t = new long[iterations];
    for (int i = 0; i < iterations; i++) {
      msg[0] = (byte) i;
      long t0 = System.nanoTime();
      mac.update(msg, 0, msg.length);
      mac.doFinal(out, 0);
      t[i] = System.nanoTime() - t0;
    }
    record("hmac-sha256-bc", 256, null, "mac_1KiB", tail(t, iterations / 5));
    record("hmac-sha256-jdk", 256, null, "mac_1KiB", jdkHmac(key, msg, iterations));
  }

  /** The JDK's HmacSHA256 (SHA-256 intrinsics where the CPU has them), for comparison with BC's. */
  private static long[] jdkHmac(byte[] key, byte[] msg, int iterations) {
    try {
      javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
      mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
      long[] t = new long[iterations];
      for (int i = 0; i < iterations; i++) {
        msg[0] = (byte) i;
        long t0 = System.nanoTime();
        mac.doFinal(msg);
        t[i] = System.nanoTime() - t0;
      }
      return tail(t, iterations / 5);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static long[] tail(long[] samples, int skip) {
    return Arrays.copyOfRange(samples, skip, samples.length);
  }

  void record(String scheme, int bits, ThresholdParams p, String op, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double mean = Arrays.stream(sorted).average().orElse(0) / 1000.0;
    double p50 = sorted[sorted.length / 2] / 1000.0;
    String row = String.format(Locale.ROOT, "%s,%d,%s,%s,%s,%.1f,%.1f", scheme, bits,
        p == null ? "" : p.n(), p == null ? "" : p.k(), op, mean, p50);
    rows.add(row);
    System.out.println(row);
  }

  private void write(Path out) throws IOException {
    if (out.toAbsolutePath().getParent() != null) {
      Files.createDirectories(out.toAbsolutePath().getParent());
    }
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    lines.addAll(rows);
    Files.write(out, lines, StandardCharsets.UTF_8);
  }
}
