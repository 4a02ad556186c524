package org.bftws.perf.stats;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.bftws.core.crypto.threshold.BlsThreshold;
import org.bftws.core.crypto.threshold.CksCoin;
import org.bftws.core.pbft.BaRandomness;
import org.bftws.core.replication.CoinConfig;
import org.bftws.samples.beacon.DrandChain;
import supranational.blst.P1;

/**
 * The group's random output in volume, for statistical tests (NIST SP 800-22, dieharder): each source's
 * values concatenated into {@code DIR/SOURCE.bin}, computed in-process with the functions the replicas use.
 *
 * <ul>
 *   <li>{@code beacon}: drand rounds 1, 2, ...: randomness = SHA-256(σ_r), σ_r = H(SHA-256(r as 8 bytes))^x
 *   on G1 with quicknet's DST;</li>
 *   <li>{@code ct-bls}: CT coins with threshold BLS: SHA-256(H(CoinMessage(group, n, D(request_n)))^x);</li>
 *   <li>{@code ct-cks}: CT coins with the CKS coin: SHA-256(g̃^x), g̃ the RFC 9380 hash of the same message
 *   to P-256;</li>
 *   <li>{@code ba}: the BA algorithm's numbers: the XOR of 2f+1 = 3 replicas' contributions (SecureRandom),
 *   each hashed with its contributor's id ({@link BaRandomness#combine}).</li>
 * </ul>
 *
 * Threshold values are computed with the group secret x itself: the unique value that any k valid shares
 * combine to (Lagrange interpolation in the exponent), without the share exchange, which adds no randomness.
 *
 * <pre>RandomnessStreams DIR BYTES [SOURCE...]</pre>
 */
public final class RandomnessStreams {
    static final List<String> SOURCES = List.of("beacon", "ct-bls", "ct-cks", "ba");
    private static final byte[] GROUP_ID = "http://echo.group.example/axis2/services/Echo".getBytes(StandardCharsets.UTF_8);
    private static final BigInteger BLS_ORDER =
            new BigInteger("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    private static final BigInteger P256_ORDER =
            new BigInteger("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16);

    private RandomnessStreams() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: RandomnessStreams DIR BYTES [beacon|ct-bls|ct-cks|ba ...]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        long bytes = Long.parseLong(args[1]);
        List<String> sources = args.length > 2 ? List.of(args).subList(2, args.length) : SOURCES;
        Files.createDirectories(dir);
        int values = (int) ((bytes + 31) / 32);
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (String source : sources) {
                long start = System.nanoTime();
                write(dir.resolve(source + ".bin"), values, source, pool, threads);
                System.out.printf("%s: %d values (%d bytes) in %.1f s%n", source, values, values * 32L,
                        (System.nanoTime() - start) / 1e9);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Values 0..count-1 of the source, computed in slices on the pool, written in order. */
    private static void write(Path file, int count, String source, ExecutorService pool, int threads)
            throws Exception {
        SecureRandom random = new SecureRandom();
        BigInteger blsSecret = new BigInteger(255, random).mod(BLS_ORDER);
        BigInteger cksSecret = new BigInteger(256, random).mod(P256_ORDER);
        int slice = 4096;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (int from = 0; from < count; from += slice * threads) {
                List<Future<byte[]>> parts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int lo = from + t * slice;
                    int hi = Math.min(count, lo + slice);
                    if (lo < hi) {
                        parts.add(pool.submit(() -> values(source, lo, hi, blsSecret, cksSecret)));
                    }
                }
                for (Future<byte[]> p : parts) {
                    out.write(p.get());
                }
            }
        }
    }

    private static byte[] values(String source, int lo, int hi, BigInteger blsSecret, BigInteger cksSecret)
            throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        SecureRandom entropy = new SecureRandom();
        ByteBuffer out = ByteBuffer.allocate((hi - lo) * 32);
        for (int i = lo; i < hi; i++) {
            byte[] value = switch (source) {
                case "beacon" -> sha.digest(new P1().hash_to(DrandChain.message(i + 1L), BlsThreshold.DST)
                        .mult(blsSecret).compress());
                case "ct-bls" -> sha.digest(new P1().hash_to(coinMessage(sha, i), BlsThreshold.DST).mult(blsSecret).compress());
                case "ct-cks" -> sha.digest(CksCoin.hashToCurve(coinMessage(sha, i)).multiply(cksSecret).normalize()
                        .getEncoded(true));
                case "ba" -> ba(entropy);
                default -> throw new IllegalArgumentException("unknown source " + source);
            };
            out.put(value);
        }
        return out.array();
    }

    /** CoinMessage(group, n = i + 1, D(request)) for a distinct request body per value. */
    private static byte[] coinMessage(MessageDigest sha, int i) {
        byte[] request = ("request " + i).getBytes(StandardCharsets.US_ASCII);
        return CoinConfig.requestCoinMessage(GROUP_ID, i + 1L, request);
    }

    /** One BA number: 2f+1 = 3 contributions of 32 random bytes, combined as the replicas combine them. */
    private static byte[] ba(SecureRandom entropy) {
        Map<Integer, List<byte[]>> contributions = new java.util.TreeMap<>();
        for (int replica = 0; replica < 3; replica++) {
            byte[] r = new byte[32];
            entropy.nextBytes(r);
            contributions.put(replica, List.of(r));
        }
        return BaRandomness.combine(contributions, 1).get(0);
    }
}
