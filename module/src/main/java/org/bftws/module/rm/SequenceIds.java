package org.bftws.module.rm;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.core.message.SequenceOwner;

/**
 * The WS-RM sequence id of a replica group's sequence (paper §3.3.1.1): a function of what the client's
 * CreateSequence carries (its UUID and its client id), of the group endpoint and, with WS-Security, of the
 * certificate that signed the CreateSequence, so every replica's Sandesha2 names the sequence alike and the
 * client can use the one id with all of them.
 *
 * <p>The id names the client ({@link SequenceOwner}): core then never executes another client's request on
 * it, even one ordered before the owner's first (learning the UUID, which every replica and anyone on the
 * path sees, is not enough to take the sequence over). With WS-Security the creator's certificate is part of
 * the hash, so a CreateSequence replayed under another certificate makes a different sequence instead of
 * claiming this one for that certificate.
 */
public final class SequenceIds {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The last birth time {@link #newBornSequence} gave. */
    private static final AtomicLong LAST_BIRTH = new AtomicLong();

    private SequenceIds() {
    }

    /**
     * {@link SequenceOwner#bind}(client, a name-based UUID): RFC 9562 version 8 from the first 128 bits of
     * SHA-256(group endpoint LF client LF client UUID [LF SHA-256 of the creator's DER certificate, hex]),
     * version and variant bits set; for a client UUID of version 7 ({@link #newClientUuid}) version 7 instead,
     * its first 48 bits the client UUID's (the birth time). {@code creator} is null without WS-Security.
     */
    public static String derive(UUID clientUuid, int client, URI groupEndpoint, X509Certificate creator) {
        String input = groupEndpoint + "\n" + client + "\n" + clientUuid;
        if (creator != null) {
            try {
                input += "\n" + HexFormat.of().formatHex(sha256(creator.getEncoded()));
            } catch (CertificateEncodingException e) {
                throw new IllegalArgumentException("the CreateSequence signer's certificate has no DER form", e);
            }
        }
        ByteBuffer h = ByteBuffer.wrap(sha256(input.getBytes(StandardCharsets.UTF_8)));
        long msb = (h.getLong() & ~0xF000L) | 0x8000L;
        long lsb = (h.getLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        if (clientUuid.version() == 7) {
            // keeps the client's birth time (its first 48 bits): core's client table prunes by it
            msb = (clientUuid.getMostSignificantBits() & 0xFFFFFFFFFFFF0000L) | 0x7000L | (msb & 0x0FFFL);
        }
        return SequenceOwner.bind(client, new UUID(msb, lsb).toString());
    }

    /**
     * A fresh client UUID for a CreateSequence: RFC 9562 version 7, this JVM's clock in its first 48 bits and
     * 74 random bits. The sequence id derived from it carries the clock reading as the sequence's birth time
     * ({@link SequenceOwner#birth}), which lets the replicas prune the sequence once terminated and still refuse
     * its replays (Castro-Liskov §4.1's timestamps).
     */
    public static UUID newClientUuid() {
        return newClientUuid(System.currentTimeMillis());
    }

    private static UUID newClientUuid(long millis) {
        byte[] r = new byte[10];
        RANDOM.nextBytes(r);
        ByteBuffer b = ByteBuffer.wrap(r);
        long msb = (millis << 16) | 0x7000L | (b.getShort() & 0x0FFFL);
        long lsb = (b.getLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /**
     * A fresh sequence id of {@code client} with a birth time: {@link SequenceOwner#bind}(client, a version 7
     * UUID), for a sequence a replica itself opens (its reserved operations), which core's client table prunes
     * like a client's once idle for the retention. The birth times this JVM gives are strictly increasing (the
     * clock, or one ms past the last one given): a sequence opened after one that was pruned is never taken for
     * an old one (born at or before its client's mark) when both fall in one ms.
     */
    public static String newBornSequence(int client) {
        long millis = LAST_BIRTH.updateAndGet(last -> Math.max(last + 1, System.currentTimeMillis()));
        return SequenceOwner.bind(client, newClientUuid(millis).toString());
    }

    private static byte[] sha256(byte[] b) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
