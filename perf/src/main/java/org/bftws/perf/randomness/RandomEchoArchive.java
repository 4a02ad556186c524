package org.bftws.perf.randomness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * {@code random-echo.aar} for {@link RandomEchoService}, as the recovery experiment packages its service: a
 * services.xml (the class comes from the driver's class path) plus {@code META-INF/RandomEcho.wsdl}, where the
 * module reads which operations are randomized (docs/randomness.md, "Randomized operations through the module").
 */
public final class RandomEchoArchive {
    public static final String SERVICE = "RandomEcho";
    public static final String ECHO_ACTION = "urn:bftws:perf:random:echo";
    public static final String RANDOM_ACTION = "urn:bftws:perf:random:echoRandom";

    private RandomEchoArchive() {
    }

    /** Writes the archive into {@code dir} and returns it. */
    public static Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path aar = dir.resolve("random-echo.aar");
        try (OutputStream out = Files.newOutputStream(aar); ZipOutputStream zip = new ZipOutputStream(out)) {
            entry(zip, "META-INF/services.xml", servicesXml().getBytes(StandardCharsets.UTF_8));
            try (InputStream wsdl = RandomEchoArchive.class.getResourceAsStream(SERVICE + ".wsdl")) {
                if (wsdl == null) {
                    throw new IOException(SERVICE + ".wsdl is missing from the perf jar");
                }
                entry(zip, "META-INF/" + SERVICE + ".wsdl", wsdl.readAllBytes());
            }
        }
        return aar;
    }

    private static String servicesXml() {
        return "<service name=\"" + SERVICE + "\">\n"
                + "  <parameter name=\"ServiceClass\">" + RandomEchoService.class.getName() + "</parameter>\n"
                + operation("echo", ECHO_ACTION) + operation("echoRandom", RANDOM_ACTION)
                + "</service>\n";
    }

    private static String operation(String name, String action) {
        return "  <operation name=\"" + name + "\">\n"
                + "    <messageReceiver class=\"org.apache.axis2.receivers.RawXMLINOutMessageReceiver\"/>\n"
                + "    <actionMapping>" + action + "</actionMapping>\n"
                + "  </operation>\n";
    }

    private static void entry(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(bytes);
        zip.closeEntry();
    }
}
