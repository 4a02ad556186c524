package org.bftws.module.transport;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.junit.Test;

/** The bounded stream under the SOAP builder: everything up to the limit reads, the byte beyond it fails. */
public class BoundedSoapBuilderTest {
    @Test
    public void readsUpToTheLimitInAnyMixOfCalls() throws IOException {
        try (InputStream in = new BoundedSoapBuilder.Bounded(new ByteArrayInputStream(new byte[10]), 10)) {
            assertEquals(0, in.read());
            assertEquals(5, in.read(new byte[5], 0, 5));
            assertEquals(2, in.skip(2));
            assertEquals(2, in.read(new byte[8], 0, 8));
            assertEquals(-1, in.read());
            assertFalse("a reset would count bytes twice", in.markSupported());
        }
    }

    @Test
    public void theReadThatCrossesTheLimitFailsNamingTheKey() throws IOException {
        assertCrossing(in -> in.read(new byte[11], 0, 11));
        assertCrossing(in -> {
            in.skip(10);
            in.read();
        });
    }

    private interface Reading {
        void run(InputStream in) throws IOException;
    }

    private static void assertCrossing(Reading reading) throws IOException {
        try (InputStream in = new BoundedSoapBuilder.Bounded(new ByteArrayInputStream(new byte[11]), 10)) {
            reading.run(in);
            fail("read past the limit");
        } catch (IOException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("bftws.http.maxRequestBytes (10)"));
        }
    }
}
