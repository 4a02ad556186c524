package org.bftws.client.embedded;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.bftws.module.http.HttpRoutes;
import org.bftws.module.http.RouteResponse;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A server from conf/axis2-replica.xml (bftws and addressing engaged, the echo service), embedded or in Tomcat,
 * serves the GET paths registered for its Axis2 instance on its own port, and its services' GETs as before.
 */
public class HttpRoutesServedTest {
    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Rule
    public final Timeout timeout = Timeout.seconds(90);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    public void theEmbeddedServerServesRegisteredPaths() throws Exception {
        try (EmbeddedAxis2Server server = EmbeddedAxis2Server.start(
                TestRepositories.replica(tmp.newFolder("replica").toPath()))) {
            assertServed(server);
        }
    }

    @Test
    public void tomcatServesRegisteredPathsInItsRootContext() throws Exception {
        Path dir = tmp.newFolder("tomcat").toPath();
        TomcatAxis2Server.webApplication(dir.resolve("webapp"), TestRepositories.conf().resolve("axis2-replica.xml"))
                .module(TestRepositories.artifacts().resolve("modules/bftws.mar"))
                .module(TestRepositories.artifacts().resolve("modules/addressing.mar"))
                .service(TestRepositories.artifacts().resolve("services/echo.aar"))
                .build();
        try (TomcatAxis2Server server = TomcatAxis2Server.start(dir.resolve("webapp"), 0, dir.resolve("base"))) {
            assertServed(server);
            assertEquals(404, get("http://127.0.0.1:" + server.port() + "/elsewhere").statusCode());
        }
    }

    private void assertServed(Axis2Server server) throws Exception {
        String base = "http://127.0.0.1:" + server.port();
        HttpRoutes.of(server.context()).register("/hello", (path, query) -> RouteResponse.ok(RouteResponse.TEXT,
                path + " " + query));
        HttpResponse<String> hello = get(base + "/hello/there?x=1");
        assertEquals(200, hello.statusCode());
        assertEquals("/hello/there x=1", hello.body());
        HttpResponse<String> wsdl = get(server.serviceUrl("Echo") + "?wsdl");
        assertEquals(200, wsdl.statusCode());
        assertTrue(wsdl.body(), wsdl.body().contains("definitions"));
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
