package org.bftws.module.api;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;

import org.bftws.core.codec.DecodeException;
import org.junit.Test;

/** The operation bytes a client signs and the result bytes replicas sign: exact round trips, strict decoding. */
public class ApplicationCodecTest {
    @Test
    public void requestRoundTrip() {
        byte[] payload = "<e:echo xmlns:e=\"urn:x\"><e:item>1</e:item></e:echo>".getBytes(StandardCharsets.UTF_8);
        ApplicationRequest q = new ApplicationRequest("urn:x:echo", true, payload);
        ApplicationRequest back = ApplicationRequest.decode(q.encode());
        assertEquals("urn:x:echo", back.action());
        assertEquals(true, back.soap12());
        assertArrayEquals(payload, back.payload());
    }

    @Test
    public void requestForAnotherServiceOfTheGroupRoundTripsAndVersion1MeansTheMainService() {
        byte[] payload = "<d:deal xmlns:d=\"urn:d\"/>".getBytes(StandardCharsets.UTF_8);
        ApplicationRequest back = ApplicationRequest.decode(
                new ApplicationRequest("Dealer", "urn:d:deal", false, payload).encode());
        assertEquals("Dealer", back.service());
        assertEquals("urn:d:deal", back.action());
        assertArrayEquals(payload, back.payload());
        byte[] v1 = new org.bftws.core.codec.ByteWriter(32).u8(1).str("urn:x:echo").bool(false).bytes(payload)
                .toBytes();
        assertEquals("", ApplicationRequest.decode(v1).service());
        assertEquals("urn:x:echo", ApplicationRequest.decode(v1).action());
    }

    @Test
    public void aSealedRequestRoundTripsAndOpensToAPlainOne() {
        byte[] ciphertext = {9, 8, 7};
        ApplicationRequest back = ApplicationRequest.decode(
                new ApplicationRequest("Echo", "urn:x:echo", false, ciphertext, true).encode());
        assertEquals(true, back.sealed());
        assertArrayEquals(ciphertext, back.payload());
        byte[] plain = "<x/>".getBytes(StandardCharsets.UTF_8);
        ApplicationRequest opened = ApplicationRequest.decode(back.opened(plain).encode());
        assertEquals(false, opened.sealed());
        assertEquals("Echo", opened.service());
        assertArrayEquals(plain, opened.payload());
        byte[] v2 = new org.bftws.core.codec.ByteWriter(32).u8(2).str("").str("urn:x:echo").bool(false).bytes(plain)
                .toBytes();
        assertEquals("version 2 is never sealed", false, ApplicationRequest.decode(v2).sealed());
    }

    @Test
    public void resultRoundTripOfEachKind() {
        byte[] xml = "<r/>".getBytes(StandardCharsets.UTF_8);
        ApplicationResult p = ApplicationResult.decode(ApplicationResult.payload(xml).encode());
        assertEquals(ApplicationResult.Kind.PAYLOAD, p.kind());
        assertArrayEquals(xml, p.payload());
        assertEquals(ApplicationResult.Kind.EMPTY, ApplicationResult.decode(ApplicationResult.empty().encode()).kind());
        ApplicationResult f = ApplicationResult.decode(ApplicationResult.fault("no such operation").encode());
        assertEquals(ApplicationResult.Kind.FAULT, f.kind());
        assertEquals("no such operation", f.faultReason());
    }

    @Test
    public void trailingBytesUnknownVersionsAndKindsAreRefused() {
        byte[] ok = new ApplicationRequest("a", false, new byte[] {1}).encode();
        byte[] longer = java.util.Arrays.copyOf(ok, ok.length + 1);
        refused(() -> ApplicationRequest.decode(longer));
        byte[] version = ok.clone();
        version[0] = 9;
        refused(() -> ApplicationRequest.decode(version));
        byte[] kind = ApplicationResult.empty().encode();
        kind[1] = 7;
        refused(() -> ApplicationResult.decode(kind));
        // the engine's own failure marker (TotalOrderManager) is not a result either
        refused(() -> ApplicationResult.decode("fault:java.lang.Error".getBytes(StandardCharsets.UTF_8)));
    }

    private static void refused(Runnable decode) {
        try {
            decode.run();
            fail("decoded");
        } catch (DecodeException expected) {
            // the bytes are not of this format
        }
    }
}
