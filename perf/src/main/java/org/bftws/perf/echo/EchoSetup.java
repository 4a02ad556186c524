package org.bftws.perf.echo;

import java.io.IOException;
import java.nio.file.Files;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;

import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.perf.wan.DelayForwarder;

/**
 * Where the modes find what the build produced: {@code bftws.mar}, {@code addressing.mar} and
 * {@code echo.aar} (perf/target/perf-artifacts, which scripts/perf fills from this checkout's build) and the
 * project's {@code conf/} axis2.xml files. Repositories are assembled from them the way docs/installing.md says.
 * With a WAN delay set, every listener a mode advertises is reached through a {@link DelayForwarder}, so each
 * hop pays the one-way delay (docs/performance.md, "Emulated WAN").
 */
public final class EchoSetup {
    private final Path artifacts;
    private final Path conf;
    private final long wanDelayMillis;
    /** {@code bftws.authentication} of the replica groups; null: the group default. */
    private final String authentication;

    public EchoSetup(Path artifacts, Path conf) {
        this(artifacts, conf, 0, null);
    }

    private EchoSetup(Path artifacts, Path conf, long wanDelayMillis, String authentication) {
        this.artifacts = artifacts;
        this.conf = conf;
        this.wanDelayMillis = wanDelayMillis;
        this.authentication = authentication;
    }

    /** The same set-up with every advertised listener behind a one-way delay of {@code millis} (0: none). */
    public EchoSetup withWanDelay(long millis) {
        return new EchoSetup(artifacts, conf, millis, authentication);
    }

    /** The same set-up with replica groups of {@code bftws.authentication} = {@code value} (null: default). */
    public EchoSetup withAuthentication(String value) {
        return new EchoSetup(artifacts, conf, wanDelayMillis, value);
    }

    /** The replica groups' {@code bftws.authentication}, or null for the group default. */
    public String authentication() {
        return authentication;
    }

    /** The emulated one-way link delay, 0 on the LAN. */
    public long wanDelayMillis() {
        return wanDelayMillis;
    }

    /**
     * The port peers must use to reach a listener on loopback {@code port}: the port itself on the LAN, else a
     * new {@link DelayForwarder}'s (closed by {@code closer}).
     */
    int reachablePort(Closer closer, int port) throws IOException {
        if (wanDelayMillis == 0) {
            return port;
        }
        return closer.register(DelayForwarder.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                wanDelayMillis)).port();
    }

    /** {@code server}'s URL of service {@code name} as peers reach it (through a forwarder on a WAN). */
    String serviceUrl(Closer closer, EmbeddedAxis2Server server, String name) throws IOException {
        return "http://" + EmbeddedAxis2Server.LOOPBACK + ":" + reachablePort(closer, server.port())
                + "/axis2/services/" + name;
    }

    /** From the system properties {@code bftws.perf.artifacts} and {@code bftws.conf} (scripts/perf sets them). */
    public static EchoSetup fromSystemProperties() {
        return new EchoSetup(Path.of(required("bftws.perf.artifacts")), Path.of(required("bftws.conf")));
    }

    public Path conf() {
        return conf;
    }

    /** Where bftws.mar, addressing.mar and the .aar files are (modules/, services/). */
    public Path artifacts() {
        return artifacts;
    }

    /**
     * A server repository: the given axis2.xml, the modules (bftws, addressing, and rampart, which only the
     * signed modes engage), the echo service.
     */
    public Axis2Repository server(Path dir, Path axis2Xml) throws IOException {
        return server(dir, axis2Xml, echoAar());
    }

    /** A server repository: the given axis2.xml, both modules, the service archive {@code aar}. */
    public Axis2Repository server(Path dir, Path axis2Xml, Path aar) throws IOException {
        return Axis2Repository.at(dir)
                .axis2Xml(axis2Xml)
                .module(artifacts.resolve("modules/bftws.mar"))
                .module(artifacts.resolve("modules/addressing.mar"))
                .module(artifacts.resolve("modules/rampart.mar"))
                .service(aar)
                .build();
    }

    /** The echo service archive the build produced. */
    public Path echoAar() {
        return artifacts.resolve("services/echo.aar");
    }

    /** A client repository: the given axis2.xml and the modules (engaged per ServiceClient). */
    public Axis2Repository client(Path dir, Path axis2Xml) throws IOException {
        return Axis2Repository.at(dir)
                .axis2Xml(axis2Xml)
                .module(artifacts.resolve("modules/bftws.mar"))
                .module(artifacts.resolve("modules/addressing.mar"))
                .module(artifacts.resolve("modules/rampart.mar"))
                .build();
    }

    /**
     * {@code conf/NAME} rewritten into {@code dir}: {@code extra} inserted before the first phaseOrder, and
     * each of {@code remove} deleted (e.g. {@code <module ref="bftws"/>} for a server without the module).
     */
    public Path axis2Xml(Path dir, String name, String extra, String... remove) throws IOException {
        String xml = Files.readString(conf.resolve(name));
        for (String r : remove) {
            if (!xml.contains(r)) {
                throw new IOException(conf.resolve(name) + " no longer contains " + r);
            }
            xml = xml.replace(r, "");
        }
        int at = xml.indexOf("<phaseOrder");
        Files.createDirectories(dir);
        Path out = dir.resolve(name);
        Files.writeString(out, xml.substring(0, at) + extra + "\n    " + xml.substring(at));
        return out;
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null) {
            throw new IllegalStateException("system property " + property + " is not set (use scripts/perf)");
        }
        return v;
    }
}
