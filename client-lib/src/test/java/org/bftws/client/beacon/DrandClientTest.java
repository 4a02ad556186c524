package org.bftws.client.beacon;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bftws.client.group.LaunchedGroup;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.testing.Conditions;
import org.bftws.samples.beacon.DrandChain;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.TestRule;

/**
 * drand's own client library ({@code drand-client} from npm, run by node) against the beacon of four loopback
 * replicas with a threshold BLS key: given one replica's {@code /beacon} base URL and the chain's hash and
 * public key as its root of trust, it fetches the current round and verifies it; every replica serves the
 * same round; under another group's key it refuses the chain.
 */
public class DrandClientTest {
    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP = new LaunchedGroup(TMP).scheme("bls").randomness("ct");
    private static final Pattern ROUND = Pattern.compile("\"round\":([0-9]+),\"randomness\":\"([0-9a-f]{64})\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path js;
    private static String publicKey;
    private static String chainHash;

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(TMP).around(GROUP);

    @BeforeClass
    public static void startGroupAndInstallDrandClient() throws Exception {
        js = DrandClientInstall.ensure();
        GROUP.start();
        byte[] key = KeyFiles.readGroup(GROUP.layout().keys().resolve(KeyFiles.GROUP_FILE)).threshold().commonEncoding();
        publicKey = HexFormat.of().formatHex(key);
        chainHash = DrandChain.ofGroup(key, 3, 1_700_000_000L, "bftws").hashHex();
        Conditions.await("every replica serves /beacon/info", 60_000, () -> {
            for (int r = 0; r < LaunchedGroup.N; r++) {
                if (get(r, "/beacon/info").statusCode() != 200) {
                    return false;
                }
            }
            return true;
        });
    }

    private static String base(int replica) throws IOException {
        return "http://127.0.0.1:" + GROUP.ports()[replica] + "/beacon";
    }

    private static HttpResponse<String> get(int replica, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + GROUP.ports()[replica] + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Runs the node script; its exit status and output. */
    private static String[] drandClient(String baseUrl, String hash, String key, String... round) throws Exception {
        String[] full = new String[5 + round.length];
        System.arraycopy(new String[] {"node", js.resolve("fetch-round.mjs").toString(), baseUrl, hash, key}, 0, full, 0, 5);
        System.arraycopy(round, 0, full, 5, round.length);
        Process p = new ProcessBuilder(full).directory(js.toFile()).redirectErrorStream(true).start();
        boolean done = p.waitFor(90, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!done) {
            p.destroyForcibly();
            throw new AssertionError("drand-client did not finish: " + out);
        }
        return new String[] {String.valueOf(p.exitValue()), out};
    }

    @Test
    public void drandClientFetchesAndVerifiesTheCurrentRoundFromAnyReplica() throws Exception {
        for (int r : new int[] {0, 3}) {
            String[] res = drandClient(base(r), chainHash, publicKey);
            assertEquals(res[1], "0", res[0]);
            Matcher m = ROUND.matcher(res[1]);
            assertTrue(res[1], m.find());
            assertTrue(res[1], res[1].contains("\"hash\":\"" + chainHash + "\""));
            String round = m.group(1);
            for (int other = 0; other < LaunchedGroup.N; other++) {
                HttpResponse<String> served = get(other, "/beacon/" + chainHash + "/public/" + round);
                assertEquals(served.body(), 200, served.statusCode());
                assertTrue("replica " + other + " serves the same round", served.body().contains(m.group(2)));
            }
        }
    }

    @Test
    public void drandClientVerifiesAnOlderRoundAndTheLatestEndpointServesADueRound() throws Exception {
        String[] res = drandClient(base(1) + "/" + chainHash, chainHash, publicKey, "12345");
        assertEquals(res[1], "0", res[0]);
        assertTrue(res[1], res[1].contains("\"round\":12345,"));
        HttpResponse<String> latest = get(2, "/beacon/public/latest");
        assertEquals(latest.body(), 200, latest.statusCode());
        assertTrue(latest.body(), ROUND.matcher(latest.body()).find());
        assertEquals(404, get(2, "/beacon/public/99999999999").statusCode());
    }

    @Test
    public void everyBeaconAnswerIsReadableFromAnyOriginAndItsPreflightIsAnswered() throws Exception {
        for (String path : new String[] {"/beacon/info", "/beacon/public/latest", "/beacon/" + chainHash + "/info",
            "/beacon/public/99999999999"}) {
            HttpResponse<String> r = get(3, path);
            assertEquals(path, "*", r.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        }
        HttpResponse<String> preflight = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + GROUP.ports()[1] + "/beacon/public/latest")).header("Origin", "https://example.org")
                .header("Access-Control-Request-Method", "GET").method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, preflight.statusCode());
        assertEquals("*", preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        assertEquals("GET, OPTIONS", preflight.headers().firstValue("Access-Control-Allow-Methods").orElse(""));
    }

    @Test
    public void drandClientRefusesTheChainUnderAnotherGroupsKey() throws Exception {
        Path other = TMP.newFolder("other-keys").toPath();
        assertEquals(0, KeyGen.run(new String[] {"--out", other.toString(), "--replicas", "4", "--scheme", "bls"},
                new SecureRandom(), new PrintStream(OutputStream.nullOutputStream()), System.err));
        byte[] otherKey = KeyFiles.readGroup(other.resolve(KeyFiles.GROUP_FILE)).threshold().commonEncoding();
        String[] res = drandClient(base(0), DrandChain.ofGroup(otherKey, 3, 1_700_000_000L, "bftws").hashHex(),
                HexFormat.of().formatHex(otherKey));
        assertNotEquals(res[1], "0", res[0]);
    }
}
