package org.bftws.client.group;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.GroupClients;
import org.bftws.client.embedded.Axis2Server;

/**
 * Many short-lived clients of a running group in one JVM, {@code parallel} at a time (scripts/bench-clients): each a new
 * {@link ServiceClient} with bftws engaged, so a new WS-RM sequence with a fresh client UUID (its own identity
 * and message numbers at the replicas), making {@code calls} echo calls and terminating its sequence; then its
 * ServiceClient is cleaned up, so nothing of it stays on the client side. Every {@code per-instance} clients the
 * client's Axis2 instance (its reply listener on a new loopback port) is closed and a new one made, so the
 * replicas see new reply addresses as a stream of separate client processes would show them. With
 * {@code --parallel K} the clients of an instance run K at a time (each still its own sequence and identity), so
 * an ordering mode whose latency bounds one client at a time (asynchronous agreement) serves many per batch.
 *
 * <p>Before the first client and after every {@code every} clients it prints {@code served N} and, with
 * {@code --pause true}, waits for a line on standard input before going on: the caller samples the replicas (and
 * this JVM) meanwhile. Last line:
 * {@code done N failed F}. Exit status 0 iff every voted reply equalled its request.
 *
 * <pre>
 *   ShortLivedClients --group FILE --keys DIR --dir DIR --artifacts DIR --conf DIR [--ordering pbft|async]
 *                     [--clients 10000] [--calls 2] [--every 250] [--per-instance 100] [--parallel 1]
 *                     [--pause false]
 * </pre>
 */
public final class ShortLivedClients {
    private static final long TIMEOUT_MS = 20_000;

    private final int[] ports;
    private final GroupLauncher.Layout layout;
    private final Path dir;
    private final String parameters;
    private final int parallel;
    private final AtomicInteger failed = new AtomicInteger();

    private ShortLivedClients(int[] ports, GroupLauncher.Layout layout, Path dir, String parameters, int parallel) {
        this.ports = ports;
        this.layout = layout;
        this.dir = dir;
        this.parameters = parameters;
        this.parallel = parallel;
    }

    /**
     * Serves clients {@code from}..{@code to} (inclusive) with one client Axis2 instance, {@code parallel} at a
     * time, then closes it once every one of them has ended.
     */
    private void instance(int from, int to, int calls) throws IOException, InterruptedException {
        Path home = dir.resolve("instance-" + from);
        try (Axis2Server listener = DemoClient.clientInstance(GroupLauncher.Container.AXIS2, ports, layout, home,
                GroupSecurity.NONE, parameters, 1)) {
            failed.addAndGet(serve(listener.context(), from, to, calls, parallel));
        } finally {
            delete(home);
        }
    }

    /**
     * Serves clients {@code from}..{@code to} (inclusive) of the group's echo service through {@code context} (a
     * client Axis2 instance with bftws engaged), {@code parallel} at a time: each a new sequence with a fresh client
     * UUID, {@code calls} echo calls and its terminate. Returns how many failed (a call not answered with its own
     * text, or an exception); every client has ended when it returns.
     */
    public static int serve(ConfigurationContext context, int from, int to, int calls, int parallel)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(parallel);
        AtomicInteger failures = new AtomicInteger();
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = from; c <= to; c++) {
                int number = c;
                clients.add(pool.submit(() -> {
                    if (!client(context, number, calls)) {
                        failures.incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : clients) {
                join(f);
            }
        } finally {
            pool.shutdownNow();
        }
        return failures.get();
    }

    private static void join(Future<?> f) throws InterruptedException {
        try {
            f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("ShortLivedClients: a client thread failed", e.getCause());
        }
    }

    /** One short-lived client: a new sequence, {@code calls} echo calls, its terminate, its cleanup. */
    private static boolean client(ConfigurationContext context, int number, int calls) {
        ServiceClient sc = null;
        try {
            sc = GroupClients.create(context, GroupLauncher.GROUP_ENDPOINT, GroupLauncher.ECHO_ACTION,
                    TIMEOUT_MS);
            boolean ok = true;
            for (int k = 1; k <= calls; k++) {
                String text = "client" + number + "-call" + k;
                ok &= text.equals(echo(sc, text));
            }
            GroupClients.terminate(sc);
            return ok;
        } catch (AxisFault | RuntimeException e) {
            System.err.println("ShortLivedClients: client " + number + " failed: " + e.getMessage());
            return false;
        } finally {
            if (sc != null) {
                try {
                    sc.cleanup();
                } catch (AxisFault e) {
                    System.err.println("ShortLivedClients: client " + number + " cleanup: " + e.getMessage());
                }
            }
        }
    }

    /** The voted echo of one item, or a description of what came back instead. */
    private static String echo(ServiceClient sc, String text) throws AxisFault {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement request = f.createOMElement("echo", f.createOMNamespace(GroupLauncher.ECHO_NS, "s"));
        f.createOMElement("item", request.getNamespace(), request).setText(text);
        OMElement reply = sc.sendReceive(request);
        OMElement item = reply.getFirstElement();
        return "echoResponse".equals(reply.getLocalName()) && item != null ? item.getText()
                : "unexpected reply " + reply.getQName();
    }

    private static void delete(Path home) throws IOException {
        if (!Files.exists(home)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(home)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = GroupLauncher.options(args, 0);
        int[] ports = GroupLauncher.readGroup(Path.of(GroupLauncher.required(o, "group")));
        Path dir = Path.of(GroupLauncher.required(o, "dir"));
        Files.createDirectories(dir);
        int clients = Integer.parseInt(o.getOrDefault("clients", "10000"));
        int calls = Integer.parseInt(o.getOrDefault("calls", "2"));
        int every = Integer.parseInt(o.getOrDefault("every", "250"));
        int perInstance = Integer.parseInt(o.getOrDefault("per-instance", "100"));
        int parallel = Integer.parseInt(o.getOrDefault("parallel", "1"));
        boolean pause = Boolean.parseBoolean(o.getOrDefault("pause", "false"));
        if (clients < 1 || calls < 1 || every < 1 || perInstance < 1 || parallel < 1) {
            System.err.println(
                    "ShortLivedClients: --clients, --calls, --every, --per-instance and --parallel must be >= 1");
            System.exit(2);
        }
        ShortLivedClients driver = new ShortLivedClients(ports, GroupLauncher.layout(o), dir,
                GroupLauncher.orderingParameters(o.getOrDefault("ordering", "pbft")), parallel);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = System.out;
        report(out, in, pause, 0);
        int served = 0;
        while (served < clients) {
            // An instance serves up to perInstance clients, and never past the next report.
            int to = List.of(served + perInstance, clients, (served / every + 1) * every).stream()
                    .min(Integer::compare).orElseThrow();
            driver.instance(served + 1, to, calls);
            served = to;
            if (served % every == 0 || served == clients) {
                report(out, in, pause, served);
            }
        }
        out.println("done " + served + " failed " + driver.failed.get());
        out.flush();
        System.exit(driver.failed.get() == 0 ? 0 : 1);
    }

    private static void report(PrintStream out, BufferedReader in, boolean pause, int served) throws IOException {
        out.println("served " + served);
        out.flush();
        if (pause && in.readLine() == null) {
            throw new IOException("ShortLivedClients: standard input closed while waiting to go on");
        }
    }
}
