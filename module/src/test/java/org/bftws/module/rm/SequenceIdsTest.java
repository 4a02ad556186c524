package org.bftws.module.rm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.bftws.core.message.SequenceOwner;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Paper §3.3.1.1: the sequence id is derived from the client's UUID and the group endpoint, deterministically;
 * BFT-WS adds the client id (the id names its owner) and, with WS-Security, the creator's certificate.
 */
public class SequenceIdsTest {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();
    private static final URI GROUP = URI.create("http://echo.group.example/axis2/services/Echo");

    @Test
    public void sameInputsSameIdOtherwiseDifferent() throws Exception {
        UUID u = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
        String id = SequenceIds.derive(u, 4, GROUP, null);
        assertEquals(id, SequenceIds.derive(UUID.fromString(u.toString().toUpperCase()), 4, GROUP, null));
        assertNotEquals(id, SequenceIds.derive(UUID.randomUUID(), 4, GROUP, null));
        assertNotEquals(id, SequenceIds.derive(u, 4, URI.create("http://other.example/axis2/services/Echo"), null));
        assertNotEquals(id, SequenceIds.derive(u, 5, GROUP, null));
        X509Certificate[] certs = twoCertificates();
        String signed = SequenceIds.derive(u, 4, GROUP, certs[0]);
        assertNotEquals(id, signed);
        assertEquals(signed, SequenceIds.derive(u, 4, GROUP, certs[0]));
        assertNotEquals("a replay under another certificate is another sequence", signed,
                SequenceIds.derive(u, 4, GROUP, certs[1]));
    }

    /**
     * A client UUID of version 7 (what group clients send) gives an id whose UUID is version 7 with the client
     * UUID's 48-bit clock reading: the birth time core's client table prunes by; the rest stays name-based.
     */
    @Test
    public void aVersionSevenClientUuidGivesAnIdCarryingItsBirthTime() {
        long before = System.currentTimeMillis();
        UUID client = SequenceIds.newClientUuid();
        long after = System.currentTimeMillis();
        assertEquals(7, client.version());
        assertEquals(2, client.variant());
        String id = SequenceIds.derive(client, 4, GROUP, null);
        assertEquals(id, SequenceIds.derive(client, 4, GROUP, null));
        long birth = SequenceOwner.birth(id);
        assertTrue(before + " <= " + birth + " <= " + after, before <= birth && birth <= after);
        assertEquals(4, SequenceOwner.of(id));
        assertNotEquals(id, SequenceIds.derive(SequenceIds.newClientUuid(), 4, GROUP, null));
    }

    /** A WS-RM Identifier is an absolute URI; this one names its client, then a name-based (v8) UUID. */
    @Test
    public void theIdNamesItsClientThenAVersionEightUuid() {
        String id = SequenceIds.derive(UUID.randomUUID(), 4, GROUP, null);
        assertEquals(4, SequenceOwner.of(id));
        String prefix = SequenceOwner.bind(4, "x").replace("x", "");
        assertTrue(id, id.startsWith(prefix));
        String uuid = id.substring(prefix.length());
        assertTrue(id, uuid.matches("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
        UUID parsed = UUID.fromString(uuid);
        assertEquals(8, parsed.version());
        assertEquals(2, parsed.variant());
    }

    /** Two self-signed certificates from the JDK's keytool (the JDK has no API that makes one). */
    private X509Certificate[] twoCertificates() throws Exception {
        X509Certificate[] out = new X509Certificate[2];
        for (int i = 0; i < 2; i++) {
            File store = new File(tmp.getRoot(), "client" + i + ".p12");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                    "-genkeypair", "-alias", "c", "-keyalg", "EC", "-dname", "CN=client" + i, "-storetype", "PKCS12",
                    "-keystore", store.toString(), "-storepass", "changeit", "-noprompt")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertTrue("keytool finished", p.waitFor(60, TimeUnit.SECONDS));
            assertEquals("keytool's exit status", 0, p.exitValue());
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = new FileInputStream(store)) {
                ks.load(in, "changeit".toCharArray());
            }
            out[i] = (X509Certificate) ks.getCertificate("c");
        }
        return out;
    }
}
