package org.bftws.client.embedded;

import java.io.IOException;
import java.nio.file.Path;

import org.bftws.client.group.GroupLauncher;

/**
 * Repositories of single servers for the end-to-end tests, assembled from what the Maven build copied into
 * {@code target/axis2-artifacts} (bftws.mar, addressing.mar, echo.aar) and from {@code conf/}. A replica group
 * is a {@link org.bftws.client.group.LaunchedGroup}.
 */
final class TestRepositories {
    private TestRepositories() {
    }

    static Path artifacts() {
        return Path.of(required("bftws.test.artifacts"));
    }

    static Path conf() {
        return Path.of(required("bftws.conf"));
    }

    /** A replica: conf/axis2-replica.xml (bftws engaged globally), both modules, the echo service. */
    static Axis2Repository replica(Path dir) throws IOException {
        return replica(dir, conf().resolve("axis2-replica.xml"));
    }

    /** A replica with the given axis2.xml: both modules, the echo service. */
    static Axis2Repository replica(Path dir, Path axis2Xml) throws IOException {
        return Axis2Repository.at(dir)
                .axis2Xml(axis2Xml)
                .module(artifacts().resolve("modules/bftws.mar"))
                .module(artifacts().resolve("modules/addressing.mar"))
                .service(artifacts().resolve("services/echo.aar"))
                .build();
    }

    /** A client: conf/axis2-client.xml and both modules (bftws is engaged per ServiceClient). */
    static Axis2Repository client(Path dir) throws IOException {
        return Axis2Repository.at(dir)
                .axis2Xml(conf().resolve("axis2-client.xml"))
                .module(artifacts().resolve("modules/bftws.mar"))
                .module(artifacts().resolve("modules/addressing.mar"))
                .build();
    }

    /**
     * A client that also listens (conf/axis2-client.xml plus an HTTP transport receiver): a BFT-WS client
     * receives the replicas' replies on its own control port.
     */
    static Axis2Repository listeningClient(Path dir) throws IOException {
        Path conf = GroupLauncher.withParameters(conf().resolve("axis2-client.xml"),
                dir.resolve("conf/axis2-client-listening.xml"), GroupLauncher.httpReceiver(0));
        return Axis2Repository.at(dir.resolve("repository"))
                .axis2Xml(conf)
                .module(artifacts().resolve("modules/bftws.mar"))
                .module(artifacts().resolve("modules/addressing.mar"))
                .build();
    }

    /** conf/axis2-replica.xml with {@code extra} inserted before the first phaseOrder. */
    static Path replicaXmlWith(Path dir, String extra) throws IOException {
        return GroupLauncher.withParameters(conf().resolve("axis2-replica.xml"), dir.resolve("axis2-custom.xml"),
                extra);
    }

    private static String required(String property) {
        String v = System.getProperty(property);
        if (v == null) {
            throw new IllegalStateException("system property " + property + " is not set (run through Maven)");
        }
        return v;
    }
}
