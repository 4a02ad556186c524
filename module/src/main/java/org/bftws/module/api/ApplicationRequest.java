package org.bftws.module.api;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * The operation bytes of a core {@code Request} that carries a SOAP application request: the action that
 * selects the service operation and the SOAP body's payload element exactly as the client serialised it
 * (UTF-8, no XML declaration). The client signs these bytes; every replica executes what they say, never
 * what some copy of the envelope it happened to receive says.
 *
 * @param soap12 whether the client spoke SOAP 1.2 (the reply envelope is rebuilt in the same version)
 */
public record ApplicationRequest(String action, boolean soap12, byte[] payload) {
    private static final int VERSION = 1;

    public byte[] encode() {
        return new ByteWriter(payload.length + action.length() + 16).u8(VERSION).str(action).bool(soap12)
                .bytes(payload).toBytes();
    }

    /** @throws DecodeException if the bytes are not an application request */
    public static ApplicationRequest decode(byte[] operation) {
        ByteReader r = new ByteReader(operation);
        int version = r.u8();
        if (version != VERSION) {
            throw new DecodeException("application request version " + version);
        }
        ApplicationRequest q = new ApplicationRequest(r.str(), r.bool(), r.bytes());
        r.end();
        return q;
    }

    @Override
    public String toString() {
        return "ApplicationRequest[" + action + ", " + payload.length + " bytes]";
    }
}
