package org.bftws.module.api;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * The operation bytes of a core {@code Request} that carries a SOAP application request: the service of
 * the group it is for, the action that selects the service operation and the SOAP body's payload element
 * exactly as the client serialised it (UTF-8, no XML declaration). The client signs these bytes; every
 * replica executes what they say, never what some copy of the envelope it happened to receive says.
 *
 * @param service the group's service the client addressed ({@code GROUP/.../services/NAME}); "" for the
 *                group's main service, the one its replicas' endpoints name
 * @param soap12  whether the client spoke SOAP 1.2 (the reply envelope is rebuilt in the same version)
 * @param sealed  whether {@code payload} is the TDH2 ciphertext of a confidential operation's payload element
 *                (SINTRA §2.6; it travels base64 in a {@code <bftws:Sealed>} body element, {@link ConfidentialCalls})
 *                rather than the element itself
 */
public record ApplicationRequest(String service, String action, boolean soap12, byte[] payload, boolean sealed) {
    /** Version 1 had no service (always the main one); version 2 names it; version 3 says whether it is sealed. */
    private static final int VERSION = 3;

    public ApplicationRequest {
        if (service == null || action == null || payload == null) {
            throw new IllegalArgumentException("service, action and payload are required");
        }
    }

    /** A request whose payload is the element itself (not sealed). */
    public ApplicationRequest(String service, String action, boolean soap12, byte[] payload) {
        this(service, action, soap12, payload, false);
    }

    /** A request for the group's main service. */
    public ApplicationRequest(String action, boolean soap12, byte[] payload) {
        this("", action, soap12, payload);
    }

    /** The same request with {@code plaintext} in place of its sealed payload. */
    public ApplicationRequest opened(byte[] plaintext) {
        return new ApplicationRequest(service, action, soap12, plaintext, false);
    }

    public byte[] encode() {
        return new ByteWriter(payload.length + action.length() + service.length() + 16).u8(VERSION).str(service)
                .str(action).bool(soap12).bool(sealed).bytes(payload).toBytes();
    }

    /** @throws DecodeException if the bytes are not an application request */
    public static ApplicationRequest decode(byte[] operation) {
        ByteReader r = new ByteReader(operation);
        int version = r.u8();
        if (version < 1 || version > VERSION) {
            throw new DecodeException("application request version " + version);
        }
        String service = version == 1 ? "" : r.str();
        String action = r.str();
        boolean soap12 = r.bool();
        boolean sealed = version == VERSION && r.bool();
        ApplicationRequest q = new ApplicationRequest(service, action, soap12, r.bytes(), sealed);
        r.end();
        return q;
    }

    @Override
    public String toString() {
        return "ApplicationRequest[" + (service.isEmpty() ? "" : service + ", ") + action + ", " + payload.length
                + " bytes" + (sealed ? ", sealed" : "") + "]";
    }
}
