package org.bftws.module.api;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * The result bytes of an executed application request, which the replicas sign in their replies and the
 * client's Voter compares: the response payload element as serialised by the replica (UTF-8, no XML
 * declaration), or no payload (one-way operations), or a fault. Only these bytes are voted on, so they hold
 * nothing replica-specific (no message ids, no host names, no stack traces).
 */
public record ApplicationResult(Kind kind, byte[] payload, String faultReason) {
    private static final int VERSION = 1;

    public enum Kind {
        /** A response payload element. */
        PAYLOAD,
        /** The operation has no response (in-only), or the service returned nothing. */
        EMPTY,
        /** The service failed; {@code faultReason} says how, alike on every correct replica. */
        FAULT
    }

    public static ApplicationResult payload(byte[] xml) {
        return new ApplicationResult(Kind.PAYLOAD, xml, "");
    }

    public static ApplicationResult empty() {
        return new ApplicationResult(Kind.EMPTY, new byte[0], "");
    }

    public static ApplicationResult fault(String reason) {
        return new ApplicationResult(Kind.FAULT, new byte[0], reason == null ? "" : reason);
    }

    public byte[] encode() {
        return new ByteWriter(payload.length + faultReason.length() + 16).u8(VERSION).u8(kind.ordinal())
                .bytes(payload).str(faultReason).toBytes();
    }

    /** @throws DecodeException if the bytes are not a result of this format */
    public static ApplicationResult decode(byte[] bytes) {
        ByteReader r = new ByteReader(bytes);
        int version = r.u8();
        if (version != VERSION) {
            throw new DecodeException("application result version " + version);
        }
        int k = r.u8();
        if (k >= Kind.values().length) {
            throw new DecodeException("application result kind " + k);
        }
        ApplicationResult a = new ApplicationResult(Kind.values()[k], r.bytes(), r.str());
        r.end();
        return a;
    }
}
