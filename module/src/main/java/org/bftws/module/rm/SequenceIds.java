package org.bftws.module.rm;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * The WS-RM sequence id of a replica group's sequence (paper §3.3.1.1): a function of the client's UUID
 * (carried in CreateSequence) and the group endpoint only, so every replica's Sandesha2 names the sequence
 * alike and the client can use the one id with all of them.
 */
public final class SequenceIds {
    private SequenceIds() {
    }

    /**
     * {@code urn:uuid:} + a name-based UUID (RFC 9562 version 8, SHA-256): the first 128 bits of
     * SHA-256(group endpoint, LF, client UUID), with the version and variant bits set.
     */
    public static String derive(UUID clientUuid, URI groupEndpoint) {
        ByteBuffer h = ByteBuffer.wrap(sha256(groupEndpoint.toString() + "\n" + clientUuid));
        long msb = (h.getLong() & ~0xF000L) | 0x8000L;
        long lsb = (h.getLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return "urn:uuid:" + new UUID(msb, lsb);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
