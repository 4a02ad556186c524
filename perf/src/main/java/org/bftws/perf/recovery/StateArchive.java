package org.bftws.perf.recovery;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * {@code state.aar} for {@link StateService}: only META-INF/services.xml (the class comes from the driver's
 * class path, which the archive's class loader delegates to) with the state size as a service parameter.
 */
final class StateArchive {
    static final String SERVICE = "State";

    private StateArchive() {
    }

    /** Writes the archive for a state of {@code stateBytes} bytes into {@code dir}. */
    static Path write(Path dir, int stateBytes) throws IOException {
        String xml = "<service name=\"" + SERVICE + "\">\n"
                + "  <parameter name=\"ServiceClass\">" + StateService.class.getName() + "</parameter>\n"
                + "  <parameter name=\"" + StateService.STATE_BYTES_PARAMETER + "\">" + stateBytes + "</parameter>\n"
                + "  <operation name=\"update\">\n"
                + "    <messageReceiver class=\"org.apache.axis2.receivers.RawXMLINOutMessageReceiver\"/>\n"
                + "    <actionMapping>" + StateService.ACTION + "</actionMapping>\n"
                + "  </operation>\n"
                + "</service>\n";
        Files.createDirectories(dir);
        Path aar = dir.resolve("state.aar");
        try (OutputStream out = Files.newOutputStream(aar); ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("META-INF/services.xml"));
            zip.write(xml.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return aar;
    }
}
