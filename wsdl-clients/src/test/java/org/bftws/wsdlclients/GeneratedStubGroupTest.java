package org.bftws.wsdlclients;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;

import javax.xml.parsers.DocumentBuilderFactory;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.client.Stub;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.GroupClients;
import org.bftws.client.group.DemoClient;
import org.bftws.client.group.GroupLauncher;
import org.bftws.client.group.LaunchedGroup;
import org.bftws.wsdlclients.counter.CounterStub;
import org.bftws.wsdlclients.dealer.DealerStub;
import org.bftws.wsdlclients.echo.EchoStub;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TemporaryFolder;
import org.w3c.dom.Element;

/**
 * Clients no one here wrote: the ADB stubs Axis2's wsdl2java generated from wsdl/echo.wsdl, dealer.wsdl and
 * counter.wsdl (this module's build), calling the demo group of four replicas over HTTP with bftws engaged, as
 * docs/wsdl-clients.md tells a client developer to. Each stub is aimed at the address the replicas' own
 * {@code ?wsdl} publishes (the group address, BFT-WS paper §3.3.1.2), its replies are the ones f+1 replicas
 * voted, and the dealer's deck comes with the collective random number it was shuffled with (integrity paper
 * §4–§5).
 */
public class GeneratedStubGroupTest {
    private static final long TIMEOUT_MS = 20_000;
    private static final TemporaryFolder TMP = new TemporaryFolder();
    private static final LaunchedGroup GROUP = new LaunchedGroup(TMP);

    @ClassRule
    public static final RuleChain RULES = RuleChain.outerRule(TMP).around(GROUP);

    /** Supplies the group client's Axis2 context (bftws configured for this group, its reply listener); closed by GROUP. */
    private static DemoClient client;

    @BeforeClass
    public static void startGroup() throws Exception {
        GROUP.start();
        client = GROUP.client("client");
    }

    @Test
    public void echoStubAimedAtThePublishedAddressGetsTheVotedEcho() throws Exception {
        String address = publishedAddress("Echo");
        assertEquals(GroupLauncher.GROUP_ENDPOINT, address);
        EchoStub echo = groupStub(new EchoStub(context(), address));
        EchoStub.Items items = new EchoStub.Items();
        items.setItem(new String[] {"alpha", "beta", "gamma"});
        EchoStub.Echo request = new EchoStub.Echo();
        request.setEcho(items);
        for (int call = 0; call < 3; call++) {
            EchoStub.EchoResponse reply = echo.echo(request);
            assertArrayEquals(items.getItem(), reply.getEchoResponse().getItem());
        }
        GroupClients.terminate(echo._getServiceClient());
    }

    @Test
    public void dealerStubGetsADeckShuffledWithTheCollectiveRandomNumber() throws Exception {
        DealerStub dealer = groupStub(new DealerStub(context(), publishedAddress("Dealer")));
        // deal is declared <bftws:Randomized/>: the client flags its calls, the replicas check the flag
        GroupClients.randomized(dealer._getServiceClient(), true);
        String[] cards = dealer.deal(new DealerStub.Deal()).getCard();
        assertEquals(52, cards.length);
        assertEquals("a deck: 52 different cards", 52, Set.of(cards).size());
        byte[] random = GroupClients.lastRandom(dealer._getServiceClient());
        assertNotNull("the voted reply carries the collective random number", random);
        assertEquals(32, random.length);
        GroupClients.terminate(dealer._getServiceClient());
    }

    @Test
    public void counterStubIncrementsAndReadsTheReplicatedValue() throws Exception {
        CounterStub counter = groupStub(new CounterStub(context(), publishedAddress("Counter")));
        long before = read(counter);
        assertEquals(before + 5, increment(counter, 5));
        assertEquals(before + 12, increment(counter, 7));
        assertEquals(before + 12, read(counter));
        GroupClients.terminate(counter._getServiceClient());
    }

    private static long increment(CounterStub counter, long amount) throws Exception {
        CounterStub.Amount_type1 a = new CounterStub.Amount_type1();
        a.setAmount_type0(amount);
        CounterStub.Increment request = new CounterStub.Increment();
        request.setAmount(a);
        return counter.increment(request).getIncrementResponse().getValue().getValue();
    }

    private static long read(CounterStub counter) throws Exception {
        return counter.read(new CounterStub.Read()).getReadResponse().getValue().getValue();
    }

    private static ConfigurationContext context() {
        return client.context();
    }

    /** Engages bftws on the stub's ServiceClient, the one step a group client adds to a generated stub. */
    private static <S extends Stub> S groupStub(S stub) throws Exception {
        ServiceClient sc = stub._getServiceClient();
        sc.engageModule("bftws");
        sc.getOptions().setTimeOutInMilliSeconds(TIMEOUT_MS);
        return stub;
    }

    /** The soap:address of {@code GET .../services/SERVICE?wsdl} on replica 0: where a client calls. */
    private static String publishedAddress(String service) throws Exception {
        URI uri = URI.create(GroupLauncher.serviceUrl(GROUP.ports()[0], service) + "?wsdl");
        HttpResponse<byte[]> wsdl = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, wsdl.statusCode());
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Element address = (Element) f.newDocumentBuilder().parse(new ByteArrayInputStream(wsdl.body()))
                .getElementsByTagNameNS("http://schemas.xmlsoap.org/wsdl/soap/", "address").item(0);
        assertNotNull(new String(wsdl.body(), StandardCharsets.UTF_8), address);
        return address.getAttribute("location");
    }
}
