package org.bftws.client.group;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.embedded.Axis2Server;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.embedded.TomcatAxis2Server;
import org.bftws.core.keys.KeyFiles;

/**
 * A plain Axis2 {@link ServiceClient} with bftws engaged, aimed at the group endpoint: calls echo and prints
 * each voted reply and the time the call took. It listens on a loopback port of its own, where the replicas
 * send their replies.
 *
 * <pre>
 *   DemoClient --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR [--calls 5] [--items 3] [--label x]
 * </pre>
 * Exit status 0 when every voted reply equals what was sent, 1 otherwise.
 */
public final class DemoClient implements AutoCloseable {
    private static final long TIMEOUT_MS = 20_000;

    private final Axis2Server listener;
    private final ServiceClient client;

    /** A voted echo call: what was sent, what the Voter returned, how long it took. */
    public record Call(List<String> sent, List<String> voted, long micros) {
        public boolean correct() {
            return sent.equals(voted);
        }
    }

    private DemoClient(Axis2Server listener, ServiceClient client) {
        this.listener = listener;
        this.client = client;
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
        String group = GroupLauncher.groupParameters(ports, layout.keys()) + GroupLauncher.param("bftws.role", "client")
                + GroupLauncher.param("bftws.keys.private", layout.keys().resolve(KeyFiles.clientFileName(1)).toString());
        Path source = layout.conf().resolve("axis2-client.xml");
        Path xml = dir.resolve("conf/axis2.xml");
        Axis2Server listener;
        if (container == GroupLauncher.Container.AXIS2) {
            GroupLauncher.withParameters(source, xml, group + "<transportReceiver name=\"http\""
                    + " class=\"org.apache.axis2.transport.http.SimpleHTTPServer\"/>");
            listener = EmbeddedAxis2Server.start(GroupLauncher.withModules(
                    Axis2Repository.at(dir.resolve("repository")).axis2Xml(xml), layout).build());
        } else {
            int port = GroupLauncher.freePorts(1)[0];
            GroupLauncher.withParameters(source, xml, group + GroupLauncher.param("bftws.client.replyEndpoint",
                    GroupLauncher.serviceUrl(port, "BftwsControl")));
            GroupLauncher.withModules(TomcatAxis2Server.webApplication(dir.resolve("webapp"), xml), layout).build();
            listener = TomcatAxis2Server.start(dir.resolve("webapp"), port, dir.resolve("tomcat"));
        }
        try {
            ServiceClient client = new ServiceClient(listener.context(), null);
            client.engageModule("bftws");
            Options options = client.getOptions();
            options.setTo(new EndpointReference(GroupLauncher.GROUP_ENDPOINT));
            options.setAction(GroupLauncher.ECHO_ACTION);
            options.setTimeOutInMilliSeconds(TIMEOUT_MS);
            return new DemoClient(listener, client);
        } catch (AxisFault | RuntimeException e) {
            listener.close();
            throw e;
        }
    }

    /** One echo call with the given items; returns the voted reply's items. */
    public Call echo(List<String> items) throws AxisFault {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace ns = f.createOMNamespace(GroupLauncher.ECHO_NS, "e");
        OMElement request = f.createOMElement("echo", ns);
        for (String text : items) {
            OMElement item = f.createOMElement("item", ns);
            item.setText(text);
            request.addChild(item);
        }
        long start = System.nanoTime();
        OMElement reply = client.sendReceive(request);
        long micros = (System.nanoTime() - start) / 1_000;
        List<String> got = new ArrayList<>();
        if ("echoResponse".equals(reply.getLocalName())
                && GroupLauncher.ECHO_NS.equals(reply.getNamespace().getNamespaceURI())) {
            Iterator<OMElement> it = reply.getChildElements();
            while (it.hasNext()) {
                got.add(it.next().getText());
            }
        } else {
            got.add("unexpected reply element " + reply.getQName());
        }
        return new Call(List.copyOf(items), got, micros);
    }

    /** {@code calls} echo calls of {@code items} items each, one line printed per call. */
    public List<Call> run(String label, int calls, int items, PrintStream out) throws AxisFault {
        List<Call> done = new ArrayList<>();
        for (int c = 1; c <= calls; c++) {
            List<String> texts = new ArrayList<>();
            for (int k = 0; k < items; k++) {
                texts.add(label + "-call" + c + "-item" + k);
            }
            Call call = echo(texts);
            done.add(call);
            out.printf("  echo %d: voted reply %s  %s  (%.1f ms)%n", c, call.voted(),
                    call.correct() ? "= request" : "!= request " + call.sent(), call.micros() / 1000.0);
        }
        return done;
    }

    @Override
    public void close() throws AxisFault {
        try {
            client.cleanup();
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
        boolean ok;
        try (DemoClient client = connect(ports, GroupLauncher.layout(o), dir)) {
            System.out.println("client: group endpoint " + GroupLauncher.GROUP_ENDPOINT + ", " + ports.length
                    + " replicas; replies arrive at " + client.listener.serviceUrl("BftwsControl"));
            ok = client.run(o.getOrDefault("label", "demo"), calls, items, System.out).stream()
                    .allMatch(Call::correct);
        } catch (AxisFault e) {
            System.out.println("client: call failed: " + e.getMessage());
            ok = false;
        }
        System.out.println(ok ? "client: every voted reply equals its request" : "client: FAILED");
        System.exit(ok ? 0 : 1);
    }
}
