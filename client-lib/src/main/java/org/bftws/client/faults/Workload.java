package org.bftws.client.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.client.GroupClients;
import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.embedded.EmbeddedAxis2Server;
import org.bftws.client.group.GroupLauncher;
import org.bftws.module.config.BftwsKeys;

/**
 * The fault campaign's clients (scripts/faults): {@code --clients} threads, each a process in the history's sense,
 * calling the group's counter (increment by 1..5, read) and register (write, read, compare-and-set on a few keys,
 * values 0..4 so compare-and-set succeeds often) through bftws for {@code --seconds}, every operation recorded in
 * the {@link History}. A call that times out or fails is recorded as {@code info} (it may or may not have taken
 * effect) and its process is retired: the thread goes on as a new process with fresh ServiceClients (a new
 * sequence), as a Jepsen client does after an indefinite result. Then one last process reads the counter and
 * every key, retrying until {@code --final-seconds} have passed, so the history ends with reads after the heal.
 *
 * <pre>
 *   Workload --group FILE --keys DIR --artifacts DIR --conf DIR --dir DIR --host ADDRESS --port P --history FILE
 *            [--clients 4] [--seconds 30] [--seed 1] [--timeout-ms 8000] [--registers 3] [--final-seconds 60]
 *            [--read-only false] [--ordering pbft|async|hybrid]
 * </pre>
 * {@code --host}/{@code --port}: where this client listens for the replicas' replies (its namespace's address).
 * {@code --read-only true} sends counter reads with PBFT's read-only optimisation (Castro-Liskov §5.1.3).
 */
public final class Workload {
    static final String COUNTER_ENDPOINT = GroupLauncher.COUNTER_ENDPOINT;
    static final String REGISTER_ENDPOINT = "http://echo.group.example/axis2/services/Register";
    static final String REGISTER_NS = "urn:bftws:samples:register";
    static final String REGISTER_ACTION = "urn:bftws:samples:register:";

    private final ConfigurationContext context;
    private final History history;
    private final long timeoutMillis;
    private final int registers;
    private final boolean readOnly;

    private Workload(ConfigurationContext context, History history, long timeoutMillis, int registers,
            boolean readOnly) {
        this.context = context;
        this.history = history;
        this.timeoutMillis = timeoutMillis;
        this.registers = registers;
        this.readOnly = readOnly;
    }

    /** One process: its two ServiceClients (counter, register), each with a sequence of its own. */
    private final class Process implements AutoCloseable {
        final int id;
        final ServiceClient counter;
        final ServiceClient register;

        Process(int id) throws AxisFault {
            this.id = id;
            counter = GroupClients.create(context, COUNTER_ENDPOINT, GroupLauncher.COUNTER_INCREMENT, timeoutMillis);
            register = GroupClients.create(context, REGISTER_ENDPOINT, REGISTER_ACTION + "read", timeoutMillis);
        }

        /** Runs {@code op}, records it; false if its outcome is unknown (the process must retire). */
        boolean run(History.Op op) throws IOException {
            history.invoke(op);
            try {
                OMElement reply = call(op);
                history.ok(op, Long.parseLong(text(reply, "value")), !"false".equals(text(reply, "ok")));
                return true;
            } catch (AxisFault | RuntimeException e) {
                history.info(op, e.getClass().getSimpleName() + ": " + e.getMessage());
                return false;
            }
        }

        private OMElement call(History.Op op) throws AxisFault {
            if (op.key().equals("counter")) {
                boolean read = op.f().equals("read");
                counter.getOptions().setAction(read ? GroupLauncher.COUNTER_READ : GroupLauncher.COUNTER_INCREMENT);
                GroupClients.readOnly(counter, read && readOnly);
                OMElement request = element(GroupLauncher.COUNTER_NS, read ? "read" : "increment");
                if (!read) {
                    child(request, "amount", op.arg());
                }
                return counter.sendReceive(request);
            }
            register.getOptions().setAction(REGISTER_ACTION + op.f());
            OMElement request = element(REGISTER_NS, op.f());
            request.getOMFactory().createOMElement("key", request.getNamespace(), request).setText(op.key());
            if (op.f().equals("write")) {
                child(request, "value", op.arg());
            } else if (op.f().equals("cas")) {
                child(request, "expected", op.arg());
                child(request, "value", op.arg2());
            }
            return register.sendReceive(request);
        }

        @Override
        public void close() {
            try {
                counter.cleanup();
                register.cleanup();
            } catch (AxisFault e) {
                // a retired process: nothing of it is used again
            }
        }
    }

    /** The next operation of a process, drawn from {@code random}. */
    History.Op next(int process, Random random) {
        if (random.nextBoolean()) {
            return random.nextInt(10) < 7 ? new History.Op(process, "inc", "counter", 1 + random.nextInt(5), 0)
                    : new History.Op(process, "read", "counter", 0, 0);
        }
        String key = "k" + random.nextInt(registers);
        int kind = random.nextInt(10);
        return kind < 4 ? new History.Op(process, "read", key, 0, 0)
                : kind < 7 ? new History.Op(process, "write", key, random.nextInt(5), 0)
                : new History.Op(process, "cas", key, random.nextInt(5), random.nextInt(5));
    }

    /** One client thread's life: processes client, client + clients, ... until the deadline. */
    void client(int client, int clients, long seed, long deadlineNanos) {
        Random random = new Random(seed * 1_000_003L + client);
        int process = client;
        while (System.nanoTime() < deadlineNanos) {
            try (Process p = new Process(process)) {
                while (System.nanoTime() < deadlineNanos && p.run(next(p.id, random))) {
                    // next operation of the same process
                }
            } catch (IOException e) {
                throw new IllegalStateException("history: " + e, e);
            }
            process += clients;
        }
    }

    /** The last process: reads the counter and every key, each retried until it completes or time is up. */
    void finalReads(int process, long deadlineNanos) throws IOException {
        List<String> keys = new ArrayList<>(List.of("counter"));
        for (int k = 0; k < registers; k++) {
            keys.add("k" + k);
        }
        for (String key : keys) {
            boolean done = false;
            while (!done && System.nanoTime() < deadlineNanos) {
                try (Process p = new Process(process++)) {
                    done = p.run(new History.Op(p.id, "read", key, 0, 0));
                }
            }
        }
    }

    private static OMElement element(String ns, String name) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace n = f.createOMNamespace(ns, "s");
        return f.createOMElement(name, n);
    }

    private static void child(OMElement parent, String name, long value) {
        parent.getOMFactory().createOMElement(name, parent.getNamespace(), parent).setText(Long.toString(value));
    }

    /** The text of the reply's child {@code name}, or null. */
    private static String text(OMElement reply, String name) {
        Iterator<OMElement> it = reply.getChildElements();
        while (it.hasNext()) {
            OMElement c = it.next();
            if (c.getLocalName().equals(name)) {
                return c.getText();
            }
        }
        return null;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = GroupLauncher.options(args, 0);
        Testbed testbed = Testbed.read(Path.of(GroupLauncher.required(o, "group")));
        GroupLauncher.Layout layout = GroupLauncher.layout(o);
        Path dir = Path.of(GroupLauncher.required(o, "dir"));
        Files.createDirectories(dir);
        int port = Integer.parseInt(GroupLauncher.required(o, "port"));
        String reply = "http://" + GroupLauncher.required(o, "host") + ":" + port + "/axis2/services/BftwsControl";
        String parameters = testbed.groupParameters(layout.keys()) + GroupLauncher.clientParameters(1, layout.keys())
                + GroupLauncher.param(BftwsKeys.CLIENT_REPLY_ENDPOINT.name(), reply) + GroupLauncher.httpReceiver(0)
                + GroupLauncher.orderingParameters(o.getOrDefault("ordering", "pbft"));
        Axis2Repository repository = GroupLauncher.clientRepository(layout, dir, parameters);
        int clients = Integer.parseInt(o.getOrDefault("clients", "4"));
        long seed = Long.parseLong(o.getOrDefault("seed", "1"));
        long deadline = System.nanoTime() + (long) (Double.parseDouble(o.getOrDefault("seconds", "30")) * 1e9);
        try (EmbeddedAxis2Server listener = EmbeddedAxis2Server.start(repository, port);
                History history = new History(Path.of(GroupLauncher.required(o, "history")))) {
            Workload w = new Workload(listener.context(), history,
                    Long.parseLong(o.getOrDefault("timeout-ms", "8000")),
                    Integer.parseInt(o.getOrDefault("registers", "3")),
                    Boolean.parseBoolean(o.getOrDefault("read-only", "false")));
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                Thread t = new Thread(() -> w.client(client, clients, seed, deadline), "client-" + c);
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            w.finalReads(1_000_000, System.nanoTime()
                    + (long) (Double.parseDouble(o.getOrDefault("final-seconds", "60")) * 1e9));
        }
        System.out.println("workload: done");
        System.exit(0);
    }
}
