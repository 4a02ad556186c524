package org.bftws.client.group;

import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.apache.axiom.om.OMElement;
import org.bftws.module.api.StatefulService;

/**
 * Services written as a user of the README writes them: Java source compiled here with the JDK's compiler and
 * no options but the output directory and the class path (the bftws module's API and Axiom), packed into an
 * {@code .aar} with a {@code services.xml} that names the class and its message receivers, and no WSDL.
 */
final class UserServices {
    /** Axis2's RPC message receivers (axis2-adb): a POJO service. */
    static final String RPC = "    <messageReceiver mep=\"http://www.w3.org/ns/wsdl/in-only\""
            + " class=\"org.apache.axis2.rpc.receivers.RPCInOnlyMessageReceiver\"/>\n"
            + "    <messageReceiver mep=\"http://www.w3.org/ns/wsdl/in-out\""
            + " class=\"org.apache.axis2.rpc.receivers.RPCMessageReceiver\"/>\n";
    /** Axis2's AXIOM message receivers: operations take and return an OMElement. */
    static final String AXIOM = "    <messageReceiver mep=\"http://www.w3.org/ns/wsdl/in-only\""
            + " class=\"org.apache.axis2.receivers.RawXMLINOnlyMessageReceiver\"/>\n"
            + "    <messageReceiver mep=\"http://www.w3.org/ns/wsdl/in-out\""
            + " class=\"org.apache.axis2.receivers.RawXMLINOutMessageReceiver\"/>\n";

    private UserServices() {
    }

    /**
     * {@code dir/NAME.aar}: the classes compiled from {@code sources} (test resources under {@code
     * /user-services/}, each {@code PACKAGE/CLASS.java}), and a services.xml naming service {@code name}, its
     * class {@code className} and {@code receivers}; Axis2 makes an operation of each public method.
     */
    static Path aar(Path dir, String name, String className, List<String> sources, String receivers)
            throws IOException {
        Path classes = compile(dir.resolve("classes-" + name), sources);
        String servicesXml = "<service name=\"" + name + "\">\n"
                + "  <parameter name=\"ServiceClass\">" + className + "</parameter>\n"
                + "  <messageReceivers>\n" + receivers + "  </messageReceivers>\n"
                + "</service>\n";
        Path aar = dir.resolve(name + ".aar");
        try (OutputStream out = Files.newOutputStream(aar); ZipOutputStream zip = new ZipOutputStream(out);
                Stream<Path> files = Files.walk(classes)) {
            zip.putNextEntry(new ZipEntry("META-INF/services.xml"));
            zip.write(servicesXml.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                zip.putNextEntry(new ZipEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, zip);
                zip.closeEntry();
            }
        }
        return aar;
    }

    /** Compiles the test resources {@code sources} into {@code out} with plain javac options. */
    static Path compile(Path out, List<String> sources) throws IOException {
        List<File> files = new ArrayList<>();
        for (String source : sources) {
            Path src = out.resolveSibling(out.getFileName() + "-src").resolve(source);
            Files.createDirectories(src.getParent());
            try (InputStream in = UserServices.class.getResourceAsStream("/user-services/" + source)) {
                assertNotNull("test resource /user-services/" + source, in);
                Files.copy(in, src);
            }
            files.add(src.toFile());
        }
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter log = new StringWriter();
        boolean ok = javac.getTask(log, null, null, List.of("-d", out.toString(), "-cp",
                location(StatefulService.class) + File.pathSeparator + location(OMElement.class)), null,
                javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjectsFromFiles(files))
                .call();
        assertTrue("javac: " + log, ok);
        return out;
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
