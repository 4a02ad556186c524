package org.bftws.client.faults;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.Test;

/**
 * The sample services' faulty variants (the fault campaign's negative control, the three-tier tests' Byzantine
 * middle replica) live only in their own archives, built from sample-services' test sources: no shipped
 * {@code .aar} carries a faulty class, and each faulty archive names its faulty class as the service class.
 */
public class FaultyArchivesTest {
    private static final Path SERVICES = Path.of(System.getProperty("bftws.test.artifacts"), "services");

    @Test
    public void noShippedArchiveCarriesAFaultyVariant() throws IOException {
        List<Path> shipped = new ArrayList<>();
        try (Stream<Path> all = Files.list(SERVICES)) {
            all.filter(p -> p.toString().endsWith(".aar") && !p.getFileName().toString().contains("-faulty"))
                    .forEach(shipped::add);
        }
        assertTrue("the sample archives were copied", shipped.size() >= 6);
        for (Path aar : shipped) {
            try (ZipFile zip = new ZipFile(aar.toFile())) {
                assertTrue(aar + " carries a faulty class", zip.stream().map(ZipEntry::getName)
                        .noneMatch(n -> n.contains("FaultyRegisterService") || n.contains("AlteringRelayService")));
            }
        }
    }

    @Test
    public void eachFaultyArchiveRunsItsFaultyClass() throws IOException {
        assertFaulty("register-faulty.aar", "org.bftws.samples.register.FaultyRegisterService");
        assertFaulty("relay-faulty.aar", "org.bftws.samples.relay.AlteringRelayService");
    }

    private static void assertFaulty(String archive, String serviceClass) throws IOException {
        try (ZipFile zip = new ZipFile(SERVICES.resolve(archive).toFile())) {
            String entry = serviceClass.replace('.', '/') + ".class";
            assertTrue(archive + " holds " + entry, zip.getEntry(entry) != null);
            String services = new String(zip.getInputStream(zip.getEntry("META-INF/services.xml")).readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(archive + " names it as the service class", 1, services.split(
                    "<parameter name=\"ServiceClass\">" + serviceClass + "</parameter>", -1).length - 1);
        }
    }
}
