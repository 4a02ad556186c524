package org.bftws.client.group;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.GroupClients;
import org.bftws.module.client.GroupClientRuntime;
import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.embedded.Axis2Server;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.embedded.TomcatAxis2Server;
import org.bftws.module.api.CollectiveRandom;
import org.bftws.module.config.BftwsKeys;

/**
 * A plain Axis2 {@link ServiceClient} with bftws engaged, aimed at a service of the demo group: calls echo,
 * dealer, the id generator or the counter and prints each voted reply (with the collective random number, for
 * the randomized dealer and id generator) and the time the call took. It listens on a loopback port of its
 * own, where the replicas send their replies.
 *
 * <pre>
 *   DemoClient --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR [--service echo|echo-confidential|dealer|idgen|counter]
 *              [--calls 5] [--items 3] [--label x] [--from V] [--security none|rampart] [--config I|II|III]
 *              [--ordering pbft|async|hybrid]
 * </pre>
 * The counter client reads the value, then increments it by 1, 2, ..., {@code calls}. Exit status 0 when every
 * voted reply is right (echo: equals the request; dealer: 52 distinct cards and a 256-bit random number; id
 * generator: the number's first 128 bits; counter: the value read is {@code --from} if given, and each
 * increment returns the previous value plus its amount), 1 otherwise. {@code --security} and {@code --config}
 * must be the group's (in configuration II the client counts only the executing replicas' replies).
 */
public final class DemoClient implements AutoCloseable {
    private static final long TIMEOUT_MS = 20_000;
    /** The services a demo client calls, by their --service name. */
    private static final Map<String, String> ENDPOINTS = Map.of("echo", GroupLauncher.GROUP_ENDPOINT,
            "echo-confidential", GroupLauncher.GROUP_ENDPOINT, "dealer", GroupLauncher.DEALER_ENDPOINT,
            "idgen", GroupLauncher.IDGEN_ENDPOINT, "counter", GroupLauncher.COUNTER_ENDPOINT);

    private final Axis2Server listener;
    private final ServiceClient client;
    /** The confidential echo's client, its calls sealed under the group's TDH2 key; made on first use. */
    private ServiceClient sealed;
    private final ServiceClient dealer;
    private final ServiceClient idgen;
    private final ServiceClient counter;

    /**
     * A voted echo call: what was sent, what the Voter returned, the random number that came with it (hex;
     * "" for echo, which is not randomized), how long it took.
     */
    public record Call(List<String> sent, List<String> voted, String random, long micros) {
        public boolean correct() {
            return sent.equals(voted);
        }
    }

    /**
     * A voted call of a randomized operation: the reply's values, the collective random number (hex), and the
     * proof the service returned with it (the id generator's {@code <proof>} element, "" without one).
     */
    public record RandomCall(List<String> voted, String random, long micros, boolean correct, String proof) {
    }

    /** A voted counter call: the operation, the amount added (0 for read), the voted value, its time. */
    public record CounterCall(String operation, long amount, long value, long micros) {
    }

    private DemoClient(Axis2Server listener, ServiceClient client, ServiceClient dealer,
            ServiceClient idgen, ServiceClient counter) {
        this.listener = listener;
        this.client = client;
        this.dealer = dealer;
        this.idgen = idgen;
        this.counter = counter;
    }

    /** A client of the group in {@code ports}, with client-1's key, its repository under {@code dir}. */
    public static DemoClient connect(int[] ports, GroupLauncher.Layout layout, Path dir) throws IOException {
        return connect(GroupLauncher.Container.AXIS2, ports, layout, dir);
    }

    /**
     * As {@link #connect(int[], GroupLauncher.Layout, Path)}, listening in {@code container}. In Tomcat the
     * client is an Axis2 web application like a replica, and {@code bftws.client.replyEndpoint} names its
     * control port: under the servlet nothing tells the module where it is reachable.
     */
    public static DemoClient connect(GroupLauncher.Container container, int[] ports, GroupLauncher.Layout layout,
            Path dir) throws IOException {
        return connect(container, ports, layout, dir, GroupSecurity.NONE);
    }

    /** As above, signing its CreateSequence as the group's {@code security} requires (policy under {@code dir}). */
    public static DemoClient connect(GroupLauncher.Container container, int[] ports, GroupLauncher.Layout layout,
            Path dir, GroupSecurity security) throws IOException {
        return connect(container, ports, layout, dir, security, "");
    }

    /** As above, with {@code extra} axis2.xml {@code <parameter>}s (e.g. the client's retransmission timeout). */
    public static DemoClient connect(GroupLauncher.Container container, int[] ports, GroupLauncher.Layout layout,
            Path dir, GroupSecurity security, String extra) throws IOException {
        return connect(container, ports, layout, dir, security, extra, 1);
    }

    /** As above, signing with {@code client-J.key} for J = {@code clientKey}. */
    public static DemoClient connect(GroupLauncher.Container container, int[] ports, GroupLauncher.Layout layout,
            Path dir, GroupSecurity security, String extra, int clientKey) throws IOException {
        return connect(container, ports, layout, dir, security, extra, clientKey, GroupLauncher.Configuration.I);
    }

    /** As above, {@code ports} the members of a group in {@code configuration} (whose f it votes with). */
    public static DemoClient connect(GroupLauncher.Container container, int[] ports, GroupLauncher.Layout layout,
            Path dir, GroupSecurity security, String extra, int clientKey, GroupLauncher.Configuration configuration)
            throws IOException {
        Axis2Server listener = clientInstance(container, ports, layout, dir, security, extra, clientKey,
                configuration);
        try {
            ServiceClient client = GroupClients.create(listener.context(), GroupLauncher.GROUP_ENDPOINT,
                    GroupLauncher.ECHO_ACTION, TIMEOUT_MS);
            ServiceClient dealer = GroupClients.create(listener.context(), GroupLauncher.DEALER_ENDPOINT,
                    GroupLauncher.DEALER_ACTION, TIMEOUT_MS);
            GroupClients.randomized(dealer, true);
            ServiceClient idgen = GroupClients.create(listener.context(), GroupLauncher.IDGEN_ENDPOINT,
                    GroupLauncher.IDGEN_ACTION, TIMEOUT_MS);
            GroupClients.randomized(idgen, true);
            ServiceClient counter = GroupClients.create(listener.context(), GroupLauncher.COUNTER_ENDPOINT,
                    GroupLauncher.COUNTER_INCREMENT, TIMEOUT_MS);
            return new DemoClient(listener, client, dealer, idgen, counter);
        } catch (AxisFault | RuntimeException e) {
            listener.close();
            throw e;
        }
    }

    /**
     * A group client's Axis2 instance under {@code dir}, started: conf/axis2-client.xml with the group's
     * parameters, client key {@code clientKey} and {@code extra}, listening where the replicas send their
     * replies; its context makes ServiceClients of the group ({@link GroupClients#create}).
     */
    public static Axis2Server clientInstance(GroupLauncher.Container container, int[] ports,
            GroupLauncher.Layout layout, Path dir, GroupSecurity security, String extra, int clientKey)
            throws IOException {
        return clientInstance(container, ports, layout, dir, security, extra, clientKey,
                GroupLauncher.Configuration.I);
    }

    /** As above, {@code ports} the members of a group in {@code configuration}. */
    public static Axis2Server clientInstance(GroupLauncher.Container container, int[] ports,
            GroupLauncher.Layout layout, Path dir, GroupSecurity security, String extra, int clientKey,
            GroupLauncher.Configuration configuration) throws IOException {
        String group = GroupLauncher.groupParameters(ports, layout.keys(), configuration)
                + GroupLauncher.clientParameters(clientKey, layout.keys())
                + security.clientParameters(layout.keys(), ports.length, dir.resolve("conf")) + extra;
        Path source = layout.conf().resolve("axis2-client.xml");
        Path xml = dir.resolve("conf/axis2.xml");
        Axis2Server listener;
        if (container == GroupLauncher.Container.AXIS2) {
            GroupLauncher.withParameters(source, xml, group + "<transportReceiver name=\"http\""
                    + " class=\"org.bftws.module.http.RoutingHttpServer\"/>");
            listener = EmbeddedAxis2Server.start(security.withModule(GroupLauncher.withModules(
                    Axis2Repository.at(dir.resolve("repository")).axis2Xml(xml), layout), layout).build());
        } else {
            int port = GroupLauncher.freePorts(1)[0];
            GroupLauncher.withParameters(source, xml, group + GroupLauncher.param(
                    BftwsKeys.CLIENT_REPLY_ENDPOINT.name(), GroupLauncher.serviceUrl(port, "BftwsControl")));
            security.withModule(GroupLauncher.withModules(TomcatAxis2Server.webApplication(dir.resolve("webapp"),
                    xml), layout), layout).build();
            listener = TomcatAxis2Server.start(dir.resolve("webapp"), port, dir.resolve("tomcat"));
        }
        return listener;
    }

    /** The listening client's Axis2 context (bftws configured as a group client), for further ServiceClients. */
    public ConfigurationContext context() {
        return listener.context();
    }

    /** One echo call with the given items; returns the voted reply's items. */
    public Call echo(List<String> items) throws AxisFault {
        return echo(client, "echo", items);
    }

    /**
     * One call of the confidential echo ({@code <bftws:Confidential/>} in wsdl/echo.wsdl, SINTRA §2.6): its
     * payload sealed by the client's Out Handler, ordered as ciphertext, opened by the replicas before execution.
     */
    public Call echoConfidential(List<String> items) throws AxisFault {
        if (sealed == null) {
            sealed = GroupClients.create(listener.context(), GroupLauncher.GROUP_ENDPOINT,
                    GroupLauncher.ECHO_NS + ":echoConfidential", TIMEOUT_MS);
            GroupClients.confidential(sealed, true);
        }
        return echo(sealed, "echoConfidential", items);
    }

    private Call echo(ServiceClient sc, String operation, List<String> items) throws AxisFault {
        OMElement request = request(GroupLauncher.ECHO_NS, operation);
        OMFactory f = request.getOMFactory();
        for (String text : items) {
            f.createOMElement("item", request.getNamespace(), request).setText(text);
        }
        long start = System.nanoTime();
        OMElement reply = sc.sendReceive(request);
        long micros = (System.nanoTime() - start) / 1_000;
        return new Call(List.copyOf(items), texts(reply, "echoResponse", GroupLauncher.ECHO_NS),
                CollectiveRandom.hex(GroupClients.lastRandom(client)), micros);
    }

    /** One deal: the voted deck (52 cards) and the random number it was shuffled with. */
    public RandomCall deal() throws AxisFault {
        long start = System.nanoTime();
        OMElement reply = dealer.sendReceive(request(GroupLauncher.DEALER_NS, "deal"));
        long micros = (System.nanoTime() - start) / 1_000;
        List<String> cards = texts(reply, "dealResponse", GroupLauncher.DEALER_NS);
        byte[] random = GroupClients.lastRandom(dealer);
        boolean ok = cards.size() == 52 && Set.copyOf(cards).size() == 52 && random != null && random.length == 32;
        return new RandomCall(cards, CollectiveRandom.hex(random), micros, ok, "");
    }

    /** One id: the voted id and the random number it was taken from (its first 128 bits). */
    public RandomCall nextId() throws AxisFault {
        long start = System.nanoTime();
        OMElement reply = idgen.sendReceive(request(GroupLauncher.IDGEN_NS, "next"));
        long micros = (System.nanoTime() - start) / 1_000;
        List<String> id = texts(reply, "nextResponse", GroupLauncher.IDGEN_NS);
        OMElement proof = reply.getFirstChildWithName(new QName(GroupLauncher.IDGEN_NS, "proof"));
        if (proof != null) {
            id = id.subList(0, id.size() - 1);
        }
        String random = CollectiveRandom.hex(GroupClients.lastRandom(idgen));
        boolean ok = id.size() == 1 && id.get(0).length() == 32 && random.startsWith(id.get(0));
        return new RandomCall(id, random, micros, ok, proof == null ? "" : proof.toString());
    }

    /** Adds {@code amount} (1..1000000) to the group's counter; returns the voted new value. */
    public CounterCall increment(long amount) throws AxisFault {
        OMElement request = request(GroupLauncher.COUNTER_NS, "increment");
        request.getOMFactory().createOMElement("amount", request.getNamespace(), request)
                .setText(Long.toString(amount));
        return counterCall("increment", GroupLauncher.COUNTER_INCREMENT, amount, request);
    }

    /** The group's counter value, voted (the read is ordered like any request). */
    public CounterCall readCounter() throws AxisFault {
        return counterCall("read", GroupLauncher.COUNTER_READ, 0, request(GroupLauncher.COUNTER_NS, "read"));
    }

    private CounterCall counterCall(String operation, String action, long amount, OMElement request)
            throws AxisFault {
        counter.getOptions().setAction(action);
        long start = System.nanoTime();
        OMElement reply = counter.sendReceive(request);
        long micros = (System.nanoTime() - start) / 1_000;
        List<String> value = texts(reply, operation + "Response", GroupLauncher.COUNTER_NS);
        if (value.size() != 1 || !value.get(0).matches("[0-9]{1,19}")) {
            throw new AxisFault("counter: unexpected voted reply " + value);
        }
        return new CounterCall(operation, amount, Long.parseLong(value.get(0)), micros);
    }

    /**
     * Reads the counter, then increments it by 1, 2, ..., {@code calls}, one line printed per call. Right when
     * the value read is {@code from} (if not null) and each increment returned the previous value plus its
     * amount: no increment was lost, none applied twice.
     */
    public boolean runCounter(int calls, Long from, PrintStream out) throws AxisFault {
        CounterCall read = readCounter();
        boolean ok = from == null || read.value() == from;
        out.printf("  counter read: voted value %d  %s  (%.1f ms)%n", read.value(),
                ok ? (from == null ? "" : "= where the last client left it") : "!= " + from + " where the last"
                        + " client left it", read.micros() / 1000.0);
        long expected = read.value();
        for (int c = 1; c <= calls; c++) {
            CounterCall call = increment(c);
            expected += c;
            ok &= call.value() == expected;
            out.printf("  counter increment %d by %d: voted value %d  %s  (%.1f ms)%n", c, c, call.value(),
                    call.value() == expected ? "ok" : "WRONG (expected " + expected + ")", call.micros() / 1000.0);
        }
        out.println("client: counter now " + expected);
        return ok;
    }

    private static OMElement request(String ns, String name) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        return f.createOMElement(name, f.createOMNamespace(ns, "s"));
    }

    /** The texts of the reply's child elements, or one complaint if the reply is not {@code ns:name}. */
    private static List<String> texts(OMElement reply, String name, String ns) {
        List<String> got = new ArrayList<>();
        if (!name.equals(reply.getLocalName()) || !ns.equals(reply.getNamespace().getNamespaceURI())) {
            got.add("unexpected reply element " + reply.getQName());
            return got;
        }
        Iterator<OMElement> it = reply.getChildElements();
        while (it.hasNext()) {
            got.add(it.next().getText());
        }
        return got;
    }

    /** {@code calls} deals or ids ({@code service} dealer or idgen), one line printed per call. */
    public List<RandomCall> runRandomized(String service, int calls, PrintStream out) throws AxisFault {
        return runRandomized(service, calls, out, null);
    }

    /**
     * As above; with {@code captureDir}, each id's proof is written to {@code captureDir/random-N.xml} for
     * scripts/verify-random.
     */
    public List<RandomCall> runRandomized(String service, int calls, PrintStream out, Path captureDir)
            throws AxisFault {
        List<RandomCall> done = new ArrayList<>();
        for (int c = 1; c <= calls; c++) {
            RandomCall call = service.equals("dealer") ? deal() : nextId();
            done.add(call);
            String shown = service.equals("dealer") ? "deck " + String.join(" ", call.voted().subList(0,
                    Math.min(13, call.voted().size()))) + " ..." : "id " + call.voted();
            out.printf("  %s %d: voted %s%n      random %s  %s  (%.1f ms)%n", service, c, shown, call.random(),
                    call.correct() ? "ok" : "WRONG", call.micros() / 1000.0);
            if (captureDir != null && !call.proof().isEmpty()) {
                Path file = captureDir.resolve("random-" + c + ".xml");
                try {
                    Files.writeString(file, call.proof());
                    out.printf("      proof %s%n", file);
                } catch (IOException e) {
                    out.printf("      proof not written to %s: %s%n", file, e.getMessage());
                }
            }
        }
        return done;
    }

    /** {@code calls} echo calls of {@code items} items each, one line printed per call. */
    public List<Call> run(String label, int calls, int items, PrintStream out) throws AxisFault {
        return run(label, calls, items, false, out);
    }

    /** As {@link #run(String, int, int, PrintStream)}, of the confidential echo when {@code confidential}. */
    public List<Call> run(String label, int calls, int items, boolean confidential, PrintStream out)
            throws AxisFault {
        List<Call> done = new ArrayList<>();
        for (int c = 1; c <= calls; c++) {
            List<String> texts = new ArrayList<>();
            for (int k = 0; k < items; k++) {
                texts.add(label + "-call" + c + "-item" + k);
            }
            Call call = confidential ? echoConfidential(texts) : echo(texts);
            done.add(call);
            out.printf("  " + (confidential ? "confidential echo" : "echo") + " %d: voted reply %s  %s  (%.1f ms)%n", c, call.voted(),
                    call.correct() ? "= request" : "!= request " + call.sent(), call.micros() / 1000.0);
        }
        return done;
    }

    /** Ends every sequence this client opened (BFT-WS paper §3.3.1.1), one line printed each. */
    public void terminate(PrintStream out) throws AxisFault {
        List<ServiceClient> clients = new ArrayList<>(List.of(client, dealer, idgen, counter));
        if (sealed != null) {
            clients.add(sealed);
        }
        for (ServiceClient c : clients) {
            String sequence = GroupClientRuntime.sequenceId(c.getServiceContext());
            if (sequence != null) {
                long start = System.nanoTime();
                GroupClients.terminate(c);
                out.printf("  sequence %s terminated: f+1 replicas confirmed  (%.1f ms)%n", sequence,
                        (System.nanoTime() - start) / 1e6);
            }
        }
    }

    @Override
    public void close() throws AxisFault {
        try {
            client.cleanup();
            if (sealed != null) {
                sealed.cleanup();
            }
            dealer.cleanup();
            idgen.cleanup();
            counter.cleanup();
        } finally {
            listener.close();
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = GroupLauncher.options(args, 0);
        int[] ports = GroupLauncher.readGroup(Path.of(GroupLauncher.required(o, "group")));
        Path dir = Path.of(GroupLauncher.required(o, "dir"));
        Files.createDirectories(dir);
        int calls = Integer.parseInt(o.getOrDefault("calls", "5"));
        int items = Integer.parseInt(o.getOrDefault("items", "3"));
        String service = o.getOrDefault("service", "echo");
        if (!ENDPOINTS.containsKey(service)) {
            System.err.println("DemoClient: --service must be echo, echo-confidential, dealer, idgen or counter, got " + service);
            System.exit(2);
        }
        GroupSecurity security = GroupSecurity.parse(o.getOrDefault("security", "none"));
        GroupLauncher.Configuration configuration = GroupLauncher.Configuration.parse(o.getOrDefault("config", "I"));
        Long from = o.containsKey("from") ? Long.valueOf(o.get("from")) : null;
        boolean ok;
        try (DemoClient client = connect(GroupLauncher.Container.AXIS2, ports, GroupLauncher.layout(o), dir,
                security, configuration.parameters(ports.length)
                        + GroupLauncher.orderingParameters(o.getOrDefault("ordering", "pbft"))
                        + GroupLauncher.maxReplicasParameters(o, configuration),
                configuration.clientKey(ports.length), configuration)) {
            System.out.println("client: " + service + " at " + ENDPOINTS.get(service) + " (group of "
                    + ports.length + (configuration == GroupLauncher.Configuration.III ? " members" : " replicas")
                    + ", configuration " + configuration + ", security " + security.value() + "); replies arrive at "
                    + client.listener.serviceUrl("BftwsControl"));
            ok = switch (service) {
                case "echo", "echo-confidential" -> client.run(o.getOrDefault("label", "demo"), calls, items,
                        service.equals("echo-confidential"), System.out).stream().allMatch(Call::correct);
                case "counter" -> client.runCounter(calls, from, System.out);
                default -> client.runRandomized(service, calls, System.out, dir).stream()
                        .allMatch(RandomCall::correct);
            };
            client.terminate(System.out);
        } catch (AxisFault e) {
            System.out.println("client: call failed: " + e.getMessage());
            ok = false;
        }
        System.out.println(ok ? "client: every voted reply is right" : "client: FAILED");
        System.exit(ok ? 0 : 1);
    }
}
