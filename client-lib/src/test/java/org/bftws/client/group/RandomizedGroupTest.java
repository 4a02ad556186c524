package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.axis2.AxisFault;
import org.bftws.client.random.RandomVerifier;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.module.testing.Conditions;
import org.bftws.core.message.Request;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.invoker.GroupServices;
import org.bftws.module.random.DeclaredOperations;
import org.bftws.samples.dealer.Deck;
import org.bftws.samples.dealer.RandomStream;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;

/**
 * Randomized operations through the Axis2 module (integrity paper §4 BA, §5 CT; all correct
 * replicas deliver the same random number): the four replicas of a {@link LaunchedGroup} on loopback HTTP with
 * echo, dealer and id generator deployed, keys from keygen, and {@link DemoClient}'s ServiceClients. The
 * dealer's and id generator's operations are declared randomized in their WSDLs; echo's is not.
 */
public class RandomizedGroupTest {
    private static final int N = LaunchedGroup.N;
    private static final long WAIT_MS = 30_000;

    private final TemporaryFolder tmp = new TemporaryFolder();
    private final LaunchedGroup group = new LaunchedGroup(tmp);

    @Rule
    public final RuleChain rules = RuleChain.outerRule(tmp).around(group);

    @Rule
    public final Timeout timeout = Timeout.seconds(150);

    private final RandomProbe[] dealerProbes = new RandomProbe[N];
    private final RandomProbe[] idgenProbes = new RandomProbe[N];
    private final RandomProbe[] echoProbes = new RandomProbe[N];
    private DemoClient client;

    /** CT (threshold coin, CKS): dealer and id generator get one agreed number each call; echo gets none. */
    @Test
    public void withThresholdCoinsDealerAndIdGeneratorGetAgreedNumbersAndEchoNone() throws Exception {
        start("ct");
        List<String> randoms = dealsChecked(4);
        for (int i = 0; i < 2; i++) {
            DemoClient.RandomCall id = client.nextId();
            assertTrue(id.voted() + " / " + id.random(), id.correct());
            assertEquals(id.random().substring(0, 32), id.voted().get(0));
            randoms.add(id.random());
        }
        assertEquals("every call drew a fresh number", randoms.size(), new HashSet<>(randoms).size());
        awaitSameNumbersEverywhere(idgenProbes, 2);
        assertEveryCapturedHeaderRefused(dealerProbes[0], "a cks coin is not publicly verifiable");
        RandomVerifier cks = RandomVerifier.of(group.layout().keys().resolve(KeyFiles.GROUP_FILE));
        DemoClient.RandomCall id = client.nextId();
        assertTrue(id.correct());
        assertFalse(cks.verifyCaptured(id.proof()).valid());

        DemoClient.Call echo = client.echo(List.of("not", "randomized"));
        assertEquals(echo.sent(), echo.voted());
        assertEquals("no random number on echo's voted reply", "", echo.random());
        await("echo executed everywhere", () -> RandomProbe.allSeen(echoProbes, 1));
        for (int r = 0; r < N; r++) {
            for (RandomProbe.Seen s : echoProbes[r].seen().values()) {
                assertEquals("replica " + r + ": echo got no header", "", s.header());
                assertEquals("replica " + r + ": echo got no number", "", s.property());
            }
        }
    }

    /**
     * The module's answer to core's "is this request randomized?" on a running replica: from the
     * {@code <bftws:Randomized/>} assertions in the deployed archives' WSDLs, by service and action.
     */
    @Test
    public void theDeployedWsdlsDecideWhichRequestsAreRandomized() throws Exception {
        start("ct");
        DeclaredOperations ops = new DeclaredOperations(
                new GroupServices(group.replica(1).context().getAxisConfiguration(), "Echo"));
        assertTrue(ops.isRandomized(request("Dealer", GroupLauncher.DEALER_ACTION)));
        assertEquals(256, ops.bits(request("Dealer", GroupLauncher.DEALER_ACTION)));
        assertEquals(128, ops.bits(request("IdGenerator", GroupLauncher.IDGEN_ACTION)));
        assertFalse(ops.isRandomized(request("", GroupLauncher.ECHO_ACTION)));
        assertFalse(ops.isRandomized(request("Echo", GroupLauncher.ECHO_ACTION)));
        assertFalse("action of another service", ops.isRandomized(request("Echo", GroupLauncher.DEALER_ACTION)));
        assertFalse("not deployed", ops.isRandomized(request("Casino", GroupLauncher.DEALER_ACTION)));
        assertFalse("the control port", ops.isRandomized(request("BftwsControl", GroupLauncher.DEALER_ACTION)));
        assertFalse("not an application request", ops.isRandomized(new Request(4, "s", 1, true, new byte[] {7})));
    }

    /** Without a randomness algorithm the dealer gets no number and says so in a fault; echo still works. */
    @Test
    public void withoutRandomnessTheDealerFaultsAndEchoWorks() throws Exception {
        start("none");
        try {
            client.deal();
            fail("dealt without a random number");
        } catch (AxisFault expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains("no collective random number"));
        }
        DemoClient.Call echo = client.echo(List.of("still", "served"));
        assertEquals(echo.sent(), echo.voted());
    }

    private static Request request(String service, String action) {
        byte[] payload = "<x xmlns=\"urn:x\"/>".getBytes(StandardCharsets.UTF_8);
        return new Request(4, "urn:bftws:sequence:t", 1, false,
                new ApplicationRequest(service, action, false, payload).encode());
    }

    /** BA (contributions agreed before prepare): the dealer works the same way. */
    @Test
    public void withByzantineAgreementTheDealerGetsAgreedNumbers() throws Exception {
        start("ba");
        List<String> randoms = dealsChecked(4);
        assertEquals(randoms.size(), new HashSet<>(randoms).size());
        assertEveryCapturedHeaderRefused(dealerProbes[0], "the ba algorithm's numbers are not publicly verifiable");
    }

    /**
     * CT with threshold BLS: the header the service gets carries the signed message, the combined signature
     * and the group key's id, and anyone holding group.pub checks a captured header; a tampered signature,
     * number or message, or another group's key, is refused with the reason.
     */
    @Test
    public void withThresholdBlsACapturedHeaderIsVerifiedWithTheGroupKeyAndATamperedOneRefused() throws Exception {
        group.scheme("bls");
        start("ct");
        List<String> randoms = dealsChecked(3);
        RandomVerifier verifier = RandomVerifier.of(group.layout().keys().resolve(KeyFiles.GROUP_FILE));
        for (RandomProbe.Seen seen : dealerProbes[N - 1].seen().values()) {
            String captured = seen.captured();
            RandomVerifier.Verdict ok = verifier.verifyCaptured(captured);
            assertTrue(ok.toString(), ok.valid());
            assertTrue(ok.reason(), ok.reason().contains("of group " + GroupLauncher.GROUP_ENDPOINT));
            assertTrue("a voted number", randoms.contains(seen.header()));

            String signature = between(captured, "Signature>", "<");
            String message = between(captured, "Message>", "<");
            assertRefused(verifier, captured.replace(signature, flipLastDigit(signature)), "");
            assertRefused(verifier, captured.replace(seen.header(), flipLastDigit(seen.header())),
                    "not SHA-256 of the signature");
            assertRefused(verifier, captured.replace(message, flipLastDigit(message)), "does not verify");
            assertRefused(verifier, captured.replaceAll("<[^>]*Signature>[0-9a-f]*</[^>]*Signature>", ""),
                    "no combined signature");
        }
        DemoClient.RandomCall id = client.nextId();
        assertTrue(id.voted() + " / " + id.random(), id.correct());
        RandomVerifier.Verdict fromReply = verifier.verifyCaptured(id.proof());
        assertTrue("the id generator's voted proof: " + fromReply, fromReply.valid());
        assertTrue(id.proof(), id.proof().contains(id.random()));

        Path other = tmp.newFolder("other-keys").toPath();
        assertEquals(0, KeyGen.run(new String[] {"--out", other.toString(), "--replicas", "4", "--scheme", "bls"},
                new SecureRandom(), new PrintStream(OutputStream.nullOutputStream()), System.err));
        String captured = dealerProbes[0].seen().values().iterator().next().captured();
        assertRefused(RandomVerifier.of(other.resolve(KeyFiles.GROUP_FILE)), captured, "this group.pub holds");
    }

    private static void assertRefused(RandomVerifier verifier, String captured, String reason) {
        RandomVerifier.Verdict v = verifier.verifyCaptured(captured);
        assertFalse(v.toString(), v.valid());
        assertTrue(v.toString(), v.reason().contains(reason));
    }

    /** Every number the probe saw is refused by a verifier of the group's keys, with this reason. */
    private void assertEveryCapturedHeaderRefused(RandomProbe probe, String reason) throws Exception {
        RandomVerifier verifier = RandomVerifier.of(group.layout().keys().resolve(KeyFiles.GROUP_FILE));
        assertFalse(probe.seen().isEmpty());
        for (RandomProbe.Seen seen : probe.seen().values()) {
            assertRefused(verifier, seen.captured(), reason);
        }
    }

    private static String between(String s, String start, String end) {
        int from = s.indexOf(start) + start.length();
        return s.substring(from, s.indexOf(end, from));
    }

    private static String flipLastDigit(String hex) {
        char last = hex.charAt(hex.length() - 1);
        return hex.substring(0, hex.length() - 1) + (last == '0' ? '1' : '0');
    }

    /** {@code count} deals: each deck is the shuffle of the voted number, and every replica used that number. */
    private List<String> dealsChecked(int count) throws Exception {
        List<String> randoms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            DemoClient.RandomCall deal = client.deal();
            assertTrue(deal.voted() + " / " + deal.random(), deal.correct());
            assertEquals("the deck is the shuffle of the voted random number",
                    List.of(Deck.shuffled(new RandomStream(HexFormat.of().parseHex(deal.random())))), deal.voted());
            randoms.add(deal.random());
        }
        Set<String> executed = awaitSameNumbersEverywhere(dealerProbes, count);
        assertEquals("the replicas' numbers are the client's", Set.copyOf(randoms), executed);
        return randoms;
    }

    /**
     * Waits until every replica executed {@code count} requests of the probed operation, then checks that
     * each request came with the same number (header and API alike) on every replica; returns the numbers.
     */
    private Set<String> awaitSameNumbersEverywhere(RandomProbe[] probes, int count) throws InterruptedException {
        await("every replica executed " + count + " randomized requests", () -> RandomProbe.allSeen(probes, count));
        Map<String, RandomProbe.Seen> first = probes[0].seen();
        Set<String> numbers = new HashSet<>();
        for (Map.Entry<String, RandomProbe.Seen> e : first.entrySet()) {
            assertEquals("header and API agree", e.getValue().header(), e.getValue().property());
            assertEquals("a 256-bit number", 64, e.getValue().header().length());
            numbers.add(e.getValue().header());
        }
        for (int r = 1; r < N; r++) {
            assertEquals("replica " + r + " delivered the same number with the same request", first, probes[r].seen());
        }
        return numbers;
    }

    private void start(String randomness) throws Exception {
        group.randomness(randomness).start();
        for (int r = 0; r < N; r++) {
            var axis = group.replica(r).context().getAxisConfiguration();
            dealerProbes[r] = RandomProbe.on(axis, "Dealer", "deal");
            idgenProbes[r] = RandomProbe.on(axis, "IdGenerator", "next");
            echoProbes[r] = RandomProbe.on(axis, "Echo", "echo");
        }
        client = group.client("client");
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Conditions.await(what, WAIT_MS, condition);
    }
}
