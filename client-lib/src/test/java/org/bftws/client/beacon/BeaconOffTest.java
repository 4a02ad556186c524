package org.bftws.client.beacon;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.module.testing.Conditions;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;

/**
 * Four loopback replicas dealt CKS keys, with the beacon archive deployed: each says at start-up, before anyone
 * asks for a round, that its beacon is off and why (one WARN line naming bftws.keys.public and the cks scheme);
 * the beacon's endpoints answer 501 with that reason, readable from any origin, and asking again logs nothing more.
 */
public class BeaconOffTest {
    private static final String LOGGER = "org.bftws.samples.beacon.BeaconLifeCycle";
    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP = new LaunchedGroup(TMP).scheme("cks").randomness("ct");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
    private static AbstractAppender appender;

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(TMP).around(GROUP);

    @BeforeClass
    public static void captureTheBeaconsLogAndStart() throws Exception {
        appender = new AbstractAppender("beacon-off", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLevel() == Level.WARN) {
                    WARNINGS.add(event.getMessage().getFormattedMessage());
                }
            }
        };
        appender.start();
        ((Logger) LogManager.getLogger(LOGGER)).addAppender(appender);
        GROUP.start();
    }

    @AfterClass
    public static void release() {
        ((Logger) LogManager.getLogger(LOGGER)).removeAppender(appender);
        appender.stop();
    }

    private static HttpResponse<String> send(int replica, String path, String method) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + GROUP.ports()[replica] + path))
                .timeout(Duration.ofSeconds(10)).header("Origin", "https://example.org");
        if (method.equals("OPTIONS")) {
            b.header("Access-Control-Request-Method", "GET").method("OPTIONS", HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long offLines(int replica) {
        return WARNINGS.stream().filter(w -> w.startsWith("beacon off on replica " + replica + ":")).count();
    }

    private static void awaitEveryReplicasStartUpLine() throws InterruptedException {
        Conditions.await("every replica's start-up line", 60_000, () -> {
            for (int r = 0; r < LaunchedGroup.N; r++) {
                if (offLines(r) == 0) {
                    return false;
                }
            }
            return true;
        });
    }

    @Test
    public void eachReplicaSaysAtStartUpThatItsBeaconIsOffNamingTheKeyAndScheme() throws Exception {
        awaitEveryReplicasStartUpLine();
        for (String w : WARNINGS) {
            assertTrue(w, w.contains("bftws.keys.public holds a cks group key"));
            assertTrue(w, w.contains("scripts/keygen --scheme bls"));
            assertTrue(w, w.contains("bftws.keys.public = " + GROUP.layout().keys()));
        }
    }

    @Test
    public void theBeaconsEndpointsAnswer501WithTheReasonToAnyOriginAndLogNothingMore() throws Exception {
        awaitEveryReplicasStartUpLine();
        for (int r = 0; r < LaunchedGroup.N; r++) {
            for (String path : new String[] {"/beacon/info", "/beacon/public/latest", "/beacon/public/7"}) {
                HttpResponse<String> answer = send(r, path, "GET");
                assertEquals(path + ": " + answer.body(), 501, answer.statusCode());
                assertEquals("application/json", answer.headers().firstValue("Content-Type").orElse(""));
                assertTrue(answer.body(), answer.body().startsWith("{\"error\":\"the beacon is off on this replica: "));
                assertTrue(answer.body(), answer.body().contains("bftws.keys.public holds a cks group key"));
                assertEquals("*", answer.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
            }
            HttpResponse<String> preflight = send(r, "/beacon/public/latest", "OPTIONS");
            assertEquals(200, preflight.statusCode());
            assertEquals("*", preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
            assertEquals(1, offLines(r));
        }
    }
}
