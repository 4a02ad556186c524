package org.bftws.samples.beacon;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A drand chain in the unchained quicknet layout ({@code bls-unchained-g1-rfc9380}): round r's signature is the
 * BLS signature (G1, RFC 9380 DST {@code BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_}) of SHA-256(r as 8 bytes
 * big-endian) under the group key (G2), its randomness SHA-256(signature); round 1 is at the genesis time and
 * round r at genesis + (r − 1) × period, as drand's clients compute it ({@code roundAt}, {@code roundTime}).
 *
 * <p>The chain hash is drand's {@code chain.Info.Hash}: SHA-256 of the period in seconds (4 bytes big-endian),
 * the genesis time (8 bytes big-endian), the group public key, the genesis seed, and the beacon id (a
 * non-default one). drand's genesis seed is its group file's hash; a replica group's ({@link #ofGroup}) is
 * SHA-256 of the group public key.
 */
public record DrandChain(byte[] publicKey, long periodSeconds, long genesisSeconds, byte[] genesisSeed,
        String beaconId) {
    public static final String SCHEME = "bls-unchained-g1-rfc9380";

    public DrandChain {
        if (publicKey.length != 96) {
            throw new IllegalArgumentException("a drand quicknet key is a compressed G2 point (96 bytes)");
        }
        if (periodSeconds < 1 || periodSeconds > 3600 || genesisSeconds < 0) {
            throw new IllegalArgumentException("period must be 1..3600 s and genesis a time after 1970");
        }
        if (genesisSeed.length != 32 || beaconId.isEmpty() || beaconId.equals("default")
                || !beaconId.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("a 32-byte genesis seed and a beacon id of letters, digits, - and _");
        }
        publicKey = publicKey.clone();
        genesisSeed = genesisSeed.clone();
    }

    /** The chain of a replica group's threshold BLS key: genesis seed SHA-256(key). */
    public static DrandChain ofGroup(byte[] publicKey, long periodSeconds, long genesisSeconds, String beaconId) {
        return new DrandChain(publicKey, periodSeconds, genesisSeconds, sha256(publicKey), beaconId);
    }

    @Override
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** The genesis seed (drand's {@code groupHash} / {@code genesis_seed}). */
    @Override
    public byte[] genesisSeed() {
        return genesisSeed.clone();
    }

    /** drand's chain hash. */
    public byte[] hash() {
        ByteBuffer b = ByteBuffer.allocate(4 + 8);
        b.putInt((int) periodSeconds).putLong(genesisSeconds);
        return sha256(b.array(), publicKey, genesisSeed, beaconId.getBytes(StandardCharsets.UTF_8));
    }

    public String hashHex() {
        return HexFormat.of().formatHex(hash());
    }

    /** The round current at {@code millis} (0 before the genesis). */
    public long roundAt(long millis) {
        long sinceGenesis = millis - genesisSeconds * 1000;
        return sinceGenesis < 0 ? 0 : sinceGenesis / (periodSeconds * 1000) + 1;
    }

    /** When round r (≥ 1) is due, in epoch milliseconds. */
    public long roundTimeMillis(long round) {
        return (genesisSeconds + (round - 1) * periodSeconds) * 1000;
    }

    /** What the group signs for round r: SHA-256(r as 8 bytes big-endian). */
    public static byte[] message(long round) {
        return sha256(ByteBuffer.allocate(8).putLong(round).array());
    }

    /** drand's v1 {@code /info} JSON. */
    public String infoJson() {
        HexFormat hex = HexFormat.of();
        return "{\"public_key\":\"" + hex.formatHex(publicKey) + "\",\"period\":" + periodSeconds
                + ",\"genesis_time\":" + genesisSeconds + ",\"hash\":\"" + hashHex() + "\",\"groupHash\":\""
                + hex.formatHex(genesisSeed) + "\",\"schemeID\":\"" + SCHEME + "\",\"metadata\":{\"beaconID\":\""
                + beaconId + "\"}}";
    }

    /** drand's v1 beacon JSON of round r with this signature. */
    public static String roundJson(long round, byte[] signature) {
        HexFormat hex = HexFormat.of();
        return "{\"round\":" + round + ",\"randomness\":\"" + hex.formatHex(sha256(signature)) + "\",\"signature\":\""
                + hex.formatHex(signature) + "\"}";
    }

    static byte[] sha256(byte[]... parts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                d.update(p);
            }
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
