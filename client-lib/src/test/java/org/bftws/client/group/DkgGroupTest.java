package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.time.Duration;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMFactory;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.MemberFiles;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.testing.Conditions;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * A group without a trusted dealer over loopback HTTP: four replicas with their own keys only
 * ({@code keygen --replica}, members.pub) and {@code bftws.keys.mode=dkg} run the distributed key generation over
 * their PBFT ordering at first start; every one writes the same group.pub with a certificate of 2f+1
 * signatures that checks against the replicas' public keys; a client with that group.pub gets plain calls
 * answered and randomized ones refused ("keys not yet generated") until the replicas restart, after which
 * the demo's randomized dealer and id generator and the confidential echo work with the generated keys.
 */
public class DkgGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 240_000;
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp).withoutDealer().journaled("os");

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(600);

    /** The dealer's randomized deal at replica {@code r}: a SOAP fault that says why, nothing ordered. */
    private void refusedBeforeRestart(int r, Signer signer) throws Exception {
        OMFactory f = OMAbstractFactory.getOMFactory();
        byte[] payload = f.createOMElement("deal", f.createOMNamespace(GroupLauncher.DEALER_NS, "d")).toString()
                .getBytes(StandardCharsets.UTF_8);
        Request q = new Request(N, "urn:bftws:sequence:before-restart", 1, true,
                new ApplicationRequest("Dealer", GroupLauncher.DEALER_ACTION, false, payload, false).encode());
        Signed signed = Signed.sign(Kind.REQUEST, N, q.encode(), signer);
        byte[] envelope = ApplicationMessage.of(signed, URI.create(GroupLauncher.DEALER_ENDPOINT),
                URI.create("http://127.0.0.1:1/control")).envelope();
        HttpResponse<String> rsp = HTTP.send(HttpRequest.newBuilder(URI.create(group.replica(r).serviceUrl("Dealer")))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + GroupLauncher.DEALER_ACTION + "\"")
                .POST(HttpRequest.BodyPublishers.ofByteArray(envelope)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertEquals("replica " + r + ": " + rsp.body(), 500, rsp.statusCode());
        assertTrue("replica " + r + ": " + rsp.body(), rsp.body().contains("keys not yet generated"));
    }

    @Test
    public void theGroupGeneratesItsKeysAndServesRandomizedAndConfidentialCallsWithThem() throws Exception {
        group.start();
        Conditions.await("every replica certified its generated group.pub", WAIT_MS, () -> {
            for (int r = 0; r < N; r++) {
                if (!Files.exists(group.dataDir(r).resolve(GroupCertificate.FILE))) {
                    return false;
                }
            }
            return true;
        });
        Path keys = group.layout().keys();
        GroupMembers members = MemberFiles.readMembers(keys.resolve(MemberFiles.MEMBERS_FILE));
        Set<String> texts = new HashSet<>();
        for (int r = 0; r < N; r++) {
            Path pub = group.dataDir(r).resolve(KeyFiles.GROUP_FILE);
            texts.add(Files.readString(pub));
            GroupKeys checked = GroupCertificate.verify(pub, group.dataDir(r).resolve(GroupCertificate.FILE),
                    members.replicaKeys(), members.f());
            assertEquals(members.scheme(), checked.scheme());
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    group.dataDir(r).resolve(KeyFiles.replicaFileName(r + 1)))));
            assertNull(group.manager(r).failure());
        }
        assertEquals("every replica wrote the same group.pub", 1, texts.size());
        // a client takes group.pub from any one replica once its certificate checks
        Files.copy(group.dataDir(2).resolve(KeyFiles.GROUP_FILE), keys.resolve(KeyFiles.GROUP_FILE));
        DemoClient before = group.client("client-before");
        assertEquals(List.of("plain"), before.echo(List.of("plain")).voted());
        GroupKeys groupKeys = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        Signer signer = Ed25519.signer(KeyFiles.readClient(keys.resolve(KeyFiles.clientFileName(1)), groupKeys)
                .signingKey());
        for (int r = 0; r < N; r++) {
            refusedBeforeRestart(r, signer);
        }
        for (int r = 0; r < N; r++) {
            group.stop(r);
        }
        for (int r = 0; r < N; r++) {
            group.start(r, "replica" + r + "-restarted");
        }
        DemoClient after = group.client("client-after");
        for (int i = 0; i < 2; i++) {
            DemoClient.RandomCall deal = after.deal();
            assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
            DemoClient.RandomCall id = after.nextId();
            assertTrue(id.voted() + " / " + id.random(), id.correct());
        }
        assertEquals(List.of("sealed-bid", "7"), after.echoConfidential(List.of("sealed-bid", "7")).voted());
        assertEquals(List.of("plain"), after.echo(List.of("plain")).voted());
    }
}
