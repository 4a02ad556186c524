package org.bftws.module.order;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.module.RateLimitedLog;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.engine.Effect;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.KeySet;
import org.bftws.core.engine.Ready;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.module.Threads;
import org.bftws.module.api.RandomProof;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.http.PostRefusal;
import org.bftws.module.journal.JournalStore;
import org.bftws.module.metrics.OrderingMetrics;
import org.bftws.module.metrics.OrderingTrace;
import org.bftws.module.metrics.PhaseTrace;
import org.bftws.module.random.RandomProofs;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlSink;
import org.bftws.module.transport.MulticastSender;

/**
 * The Total Order Manager (paper §3.3.1.8): the one thread that owns this replica's ordering state machine,
 * core's {@link Engine} that {@link EngineOptions} builds: PBFT's replica or, with {@code bftws.ordering=async},
 * SINTRA's atomic broadcast (DSN 2002 §2.5), or configuration III's execution node; all are stepped alike here. Everything that can
 * change that state arrives on one queue — control messages from the control port, ticks every
 * {@code bftws.tickMillis}, execution results and captured states — and is applied in arrival order, so the
 * replica needs no locks and behaves as in the simulator. Control messages wait there by sender, each sender's
 * queue bounded and the queues served in turn ({@link ControlIntake}, Aardvark's defences against a flooding
 * replica): the one queue holds a token for each, and the ordering thread takes the next message in turn.
 *
 * <p>Each step's {@link Ready} is performed as its contract says: messages go to the {@link MulticastSender}
 * (which never blocks this thread); effects go, in list order, to one execution thread that calls the
 * {@link ReplicatedService} and posts results and captured states back onto the queue, in the same order.
 * The ordering thread therefore keeps processing agreement messages while the application executes,
 * which is what the paper's split between Total Order Manager and Total Order Invoker is for (§3.3.1.7).
 * Checkpoints need no extra care: core pauses execution until {@code get_state} returns (§3.3.1.8).
 *
 * <p>With a {@link JournalStore} ({@code bftws.dataDir}), each step's {@link Ready#persist} records are
 * appended to it before that step's messages are sent, and a replica whose journal holds records starts with
 * core's {@code recover} step instead of empty (Castro-Liskov TOCS 2002 §4.3).
 */
public final class TotalOrderManager implements ControlSink, AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(TotalOrderManager.class);

    private sealed interface Input permits Received, Arrived, Tick, Executed, ReadOnlyExecuted, Captured, InstallKeys,
            StateSet, Failed, Stop {}

    /** {@code arrived}: nanoTime at delivery; {@code verified}: after pre-verification, 0 unless tracing. */
    private record Received(ControlMessage message, long arrived, long verified) implements Input {}

    /** One received message waits in {@link #received}: the ordering thread takes the next in turn. */
    private record Arrived() implements Input {}

    private record Tick() implements Input {}

    /** Results of an Execute effect dispatched in install generation {@code generation}. */
    private record Executed(long generation, long seq, List<byte[]> results) implements Input {}

    /** The result of a read-only request, executed without ordering (Castro-Liskov §5.1.3). */
    private record ReadOnlyExecuted(Request request, byte[] result) implements Input {}

    private record Captured(long generation, long seq, byte[] state) implements Input {}

    /** Keys delivered by the batch at seq: queued before that batch's results, as the engine needs. */
    private record InstallKeys(long generation, long seq, KeySet keys) implements Input {}

    /**
     * The service took the state of the InstallState at seq (install generation {@code generation}), and with it
     * any keys it delivered: core may release coin and decryption shares above seq ({@link Engine#stateInstalled}).
     */
    private record StateSet(long generation, long seq) implements Input {}

    /** The application failed in get_state or set_state: this replica cannot go on. */
    private record Failed(RuntimeException cause) implements Input {}

    private record Stop() implements Input {}

    private static final Tick TICK = new Tick();
    private static final Arrived ARRIVED = new Arrived();
    /** What a remote party can trigger (evidence, a request the service fails on): one line per cause and interval. */
    private static final RateLimitedLog REMOTE_LOG = new RateLimitedLog(LOG);

    private final int id;
    private final int n;
    /** The first client node id ({@code bftws.maxReplicas}, n when not given). */
    private final int clientBase;
    /** The ordering engine; the ordering thread's alone once started. */
    private final Engine engine;
    /** Signatures checked on the receiving HTTP workers, so the ordering thread need not (see PreVerifier). */
    private final PreVerifier preVerifier;
    private final List<URI> replicaControl;
    private final List<URI> peers;
    private final ReplicatedService service;
    private final MulticastSender sender;
    private final int tickMillis;
    private final int maxMessageBytes;
    private final String randomness;
    /** Replaced on the execution thread when new coin keys are installed. */
    private volatile RandomProofs proofs;
    /** The batch the execution thread runs (seq, and the generation it was dispatched in); -1: none. */
    private volatile long executingSeq = -1;
    private volatile long executingGeneration;
    private final String orderingMode;

    private final LinkedBlockingQueue<Input> inbox = new LinkedBlockingQueue<>();
    /** Received control messages by sender, served in turn, with Aardvark's defences (see ControlIntake). */
    private final ControlIntake<Received> received;
    private final AtomicBoolean tickQueued = new AtomicBoolean();
    private final AtomicLong readOnlyExecuted = new AtomicLong();
    private final EvidenceCounts evidence = new EvidenceCounts();
    private final OrderingMetrics metrics = new OrderingMetrics();
    /** Client id → where its replies go, learned from its authentic requests. Ordering thread only. */
    private final Map<Integer, URI> clientReplyTo = new ConcurrentHashMap<>();
    /** Per client id with a known reply endpoint, so bounded like {@link #clientReplyTo}. */
    private final Map<Integer, AtomicLong> repliesSent = new ConcurrentHashMap<>();
    private final Thread orderingThread;
    private final ExecutorService execution;
    private final ScheduledExecutorService ticker;

    /**
     * Bumped (ordering thread only) whenever state is installed: results of executions dispatched before
     * a set_state describe a state core has already replaced, and core must not see them.
     */
    private long generation;
    /** Published by the ordering thread after each step: other threads read the replica's state only here. */
    private volatile ReplicaSnapshot snapshot = ReplicaSnapshot.initial(System.nanoTime());
    private volatile Throwable failure;
    private volatile boolean stopping;
    /** Null, or the WS-Security signer of the replies (control messages to clients) with bftws.security=rampart. */
    private volatile UnaryOperator<byte[]> replySigner;
    /** Null, or the confidential requests' material (SINTRA §2.6), for the In Handler's checks. */
    private volatile ConfidentialConfig confidential;
    /** Null, or this replica's journal; the starting thread's, then the ordering thread's alone. */
    private final JournalStore journal;
    /** Null, or what this replica restarted from: its journal's stable checkpoint and record count. */
    private volatile JournalRecovery recovered;
    /** Stable checkpoints installed from peers by state transfer (a journal's own not counted). */
    private final AtomicLong statesTransferred = new AtomicLong();
    /** Execution node id → control port (configuration III), empty otherwise. */
    private volatile Map<Integer, URI> executionControl = Map.of();

    /**
     * @param engine          the ordering engine and what it is built with (its journal, if any, too)
     * @param replicaControl  control-port URL of every replica, indexed by replica id (0..n-1)
     * @param inboundCapacity received messages queued before further ones are dropped (retransmitted later),
     *                        shared equally by the queues of the n replicas and of all other senders
     * @param maxMessageBytes largest control message sent; peers refuse bigger ones anyway
     */
    public TotalOrderManager(EngineOptions engine, List<URI> replicaControl, ReplicatedService service,
            MulticastSender sender, int tickMillis, int inboundCapacity, int maxMessageBytes) {
        int id = engine.id();
        if (replicaControl.size() != engine.cfg().n()) {
            throw new IllegalArgumentException(engine.cfg().n() + " replica endpoints needed, got " + replicaControl.size());
        }
        this.id = id;
        this.n = engine.cfg().n();
        this.clientBase = engine.cfg().clientBase();
        this.preVerifier = engine.preVerifier();
        this.engine = engine.build(preVerifier);
        this.journal = engine.journal();
        this.confidential = engine.confidential();
        this.replicaControl = List.copyOf(replicaControl);
        List<URI> others = new ArrayList<>(replicaControl);
        if (id < n) {
            others.remove(id);
        }
        this.peers = List.copyOf(others);
        this.service = service;
        this.sender = sender;
        this.tickMillis = tickMillis;
        SenderAddresses addresses = SenderAddresses.of(replicaControl);
        LOG.info("replica {}: intake queues by {}", id, addresses.checking()
                ? "the sending replica's network address (a message claiming a replica from another address shares"
                        + " the clients' queue; a replica proven faulty is refused at the HTTP server)"
                : "the sender each message claims (replicas share network addresses)");
        this.received = new ControlIntake<>(id, n, inboundCapacity, preVerifier, addresses);
        this.maxMessageBytes = maxMessageBytes;
        this.randomness = engine.randomness().algorithm().toString();
        this.proofs = new RandomProofs(engine.randomness());
        this.orderingMode = engine.describe();
        this.orderingThread = daemon(this::run, "bftws-order-r" + id);
        this.execution = Executors.newSingleThreadExecutor(r -> daemon(r, "bftws-exec-r" + id));
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "bftws-tick-r" + id));
    }

    /**
     * Replies to clients get a WS-Security header from {@code signer} (paper §3.3.1), built by the Multicast
     * Sender's thread with the envelope, never here on the ordering thread; messages to replicas stay
     * Ed25519-signed only.
     */
    public void signRepliesWith(UnaryOperator<byte[]> signer) {
        this.replySigner = signer;
    }

    /**
     * Configuration III (BFT-WS §3.3.3): the control ports of the execution nodes by node id, where agreement
     * replicas hand out ordered batches and execution nodes exchange checkpoints and state; before {@link #start}.
     */
    public void executionNodeControl(Map<Integer, URI> control) {
        this.executionControl = Map.copyOf(control);
    }

    public void start() {
        recoverFromJournal();
        orderingThread.start();
        ticker.scheduleAtFixedRate(this::tick, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
        LOG.info("replica {} of {}: total order manager started, tick {} ms, randomness {}", id, n, tickMillis,
                randomness);
    }

    /**
     * Core's first step of a restarted replica, on the starting thread before the ordering thread exists
     * (Thread.start orders it before every later step): a journal core refuses as damaged stops start-up here,
     * with core's reason, rather than leaving a replica that may have forgotten its votes.
     */
    private void recoverFromJournal() {
        if (journal == null) {
            return;
        }
        List<Journal.Record> records = journal.load();
        if (records.isEmpty()) {
            LOG.info("replica {}: journal {} is empty, starting from the initial state", id, journal.file());
            return;
        }
        JournalRecovery from = JournalRecovery.of(records);
        perform(engine.recover(records), true);
        snapshot = ReplicaSnapshot.of(engine, n, System.nanoTime());
        recovered = from;
        LOG.info("replica {}: recovered from journal at stable checkpoint {} with {} records", id,
                from.stableCheckpoint(), from.records());
    }

    /**
     * From the control port (an HTTP worker thread): into its sender's queue, its signature checked, or dropped
     * before any check (see {@link ControlIntake}).
     */
    @Override
    public void deliver(ControlMessage message) {
        if (stopping) {
            return;
        }
        long arrived = System.nanoTime();
        int lane = received.admit(message, arrived);
        if (lane >= 0) {
            received.add(lane, new Received(message, arrived, PhaseTrace.on() ? System.nanoTime() : 0));
            inbox.add(ARRIVED);
        }
    }

    /**
     * Ticks are coalesced: while one is queued the next is skipped, so an overloaded replica's logical time
     * slows down instead of its queue growing, and it does not suspect the primary for its own backlog.
     */
    private void tick() {
        if (tickQueued.compareAndSet(false, true)) {
            inbox.add(TICK);
        }
    }

    // ---------------------------------------------------------------- the ordering thread

    private void run() {
        try {
            for (Input in = inbox.take(); !stopping; in = inbox.take()) {
                if (in instanceof Arrived) {
                    in = received.poll(); // one message queued per ARRIVED
                    if (in == null) {
                        continue;
                    }
                }
                long dequeued = System.nanoTime();
                Ready r = step(in, dequeued);
                long stepped = System.nanoTime();
                metrics.stepped(stepped - dequeued);
                if (r != null) {
                    if (PhaseTrace.on()) {
                        trace(in, dequeued, r);
                    }
                    perform(r, false);
                }
                snapshot = ReplicaSnapshot.of(engine, n, System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            // Only our own broken state gets here (core turns peers' lies into evidence): stop, as a crashed
            // replica, which the group tolerates, rather than go on from a state we cannot trust.
            failure = e;
            LOG.error("replica {}: ordering stopped on an internal error in state {}", id, engine.describe(), e);
        }
    }

    private Ready step(Input in, long dequeued) {
        if (in instanceof Received rc) {
            metrics.dequeued(dequeued - rc.arrived());
            learnReplyTo(rc.message());
            return engine.receive(rc.message().signedBytes());
        } else if (in instanceof Tick) {
            tickQueued.set(false);
            return engine.tick();
        } else if (in instanceof Executed ex) {
            return ex.generation() == generation ? engine.executed(ex.seq(), ex.results()) : null;
        } else if (in instanceof ReadOnlyExecuted ro) {
            return engine.executedReadOnly(ro.request(), ro.result());
        } else if (in instanceof Captured c) {
            return c.generation() == generation ? engine.stateCaptured(c.seq(), c.state()) : null;
        } else if (in instanceof InstallKeys k) {
            return k.generation() == generation ? engine.installKeys(k.seq(), k.keys()) : null;
        } else if (in instanceof StateSet st) {
            return st.generation() == generation ? engine.stateInstalled(st.seq()) : null;
        } else if (in instanceof Failed fl) {
            throw new IllegalStateException("the replicated service failed to capture or install state", fl.cause());
        }
        throw new IllegalStateException("unexpected input " + in);
    }

    /** The latency breakdown's points of this step (only while {@link PhaseTrace#on()}). */
    private void trace(Input in, long dequeued, Ready r) {
        if (in instanceof Received rc) {
            OrderingTrace.afterStep(id, n, rc.message().signedBytes(), rc.arrived(), rc.verified(), dequeued, -1, r);
        } else {
            OrderingTrace.afterStep(id, n, null, 0, 0, dequeued, in instanceof Executed ex ? ex.seq() : -1, r);
        }
    }

    /**
     * A client request names where replies go, outside the signed bytes; believe it only with a valid
     * client signature, else anyone could divert a client's replies. Checked once per new address, through
     * the pre-verifier's memory: {@link #deliver} has verified these exact bytes already, and core's own check
     * of them in this step is answered from that memory too.
     */
    private void learnReplyTo(ControlMessage m) {
        URI to = m.replyTo();
        if (to == null) {
            return;
        }
        try {
            Signed s = Signed.decode(m.signedBytes());
            if (s.kind().fromClient() && s.sender() >= clientBase && !to.equals(clientReplyTo.get(s.sender()))
                    && s.verify(preVerifier.remembering())) {
                clientReplyTo.put(s.sender(), to);
            }
        } catch (DecodeException e) {
            // core records the malformed envelope as evidence
        }
    }

    /** {@code recovering}: the Ready of core's recover step, whose state installation is no state transfer. */
    private void perform(Ready r, boolean recovering) {
        if (journal != null) {
            journal.append(r.persist); // before the messages these records cover leave this replica
        }
        for (Ready.Outbound o : r.messages) {
            route(o);
        }
        long now = r.events.isEmpty() ? 0 : System.nanoTime();
        for (Event e : r.events) {
            if (e instanceof Event.StateInstalled && !recovering) {
                statesTransferred.incrementAndGet();
            }
            metrics.onEvent(e, now);
            log(e, recovering);
            notifyListeners(e);
        }
        for (Effect e : r.effects) {
            dispatch(e);
        }
    }

    private void route(Ready.Outbound o) {
        if (o.bytes().length > maxMessageBytes) {
            LOG.warn("replica {}: not sending a {}-byte message, above {}", id, o.bytes().length,
                    BftwsKeys.CONTROL_MAX_BYTES.name());
            return;
        }
        ControlMessage m = new ControlMessage(o.bytes(), null);
        if (o.to() == Ready.ALL_REPLICAS) {
            sender.send(peers, m);
        } else if (o.to() >= 0 && o.to() < n) {
            sender.send(replicaControl.get(o.to()), m);
        } else if (executionControl.containsKey(o.to())) {
            sender.send(executionControl.get(o.to()), m);
        } else {
            URI client = clientReplyTo.get(o.to());
            if (client != null) {
                sender.send(client, replySigner == null ? m : new ControlMessage(o.bytes(), null, replySigner));
                repliesSent.computeIfAbsent(o.to(), k -> new AtomicLong()).incrementAndGet();
            } else {
                LOG.debug("replica {}: no reply endpoint known for client {}", id, o.to());
            }
        }
    }

    /**
     * New threshold keys delivered by the batch the execution thread runs now (a key generation's last ordered
     * message): they serve every request ordered after that batch at every correct replica ({@link
     * Engine#installKeys}); the proofs of the random numbers and the In Handler's ciphertext checks use them from
     * the next batch on. Called on the execution thread, by a service executing that batch.
     *
     * @return the seq of that batch
     */
    public long installKeys(KeySet keys) {
        long seq = executingSeq;
        if (seq < 0) {
            throw new IllegalStateException("keys are installed by the batch that delivers them, on the execution"
                    + " thread");
        }
        if (keys.coins() != null) {
            proofs = new RandomProofs(RandomnessConfig.ct(keys.coins()));
        }
        if (keys.confidential() != null) {
            confidential = keys.confidential();
        }
        inbox.add(new InstallKeys(executingGeneration, seq, keys));
        return seq;
    }

    /** The seq of the batch the execution thread runs or ran last (-1: none yet); for its services. */
    public long executingSeq() {
        return executingSeq;
    }

    /** The declared confidential requests and the group's TDH2 key, or null when none are declared. */
    public ConfidentialConfig confidential() {
        return confidential;
    }

    /** Effects run in list order on the execution thread; results come back through the queue. */
    private void dispatch(Effect e) {
        long gen = generation;
        if (e instanceof Effect.Execute ex) {
            execution.execute(guarded(() -> inbox.add(new Executed(gen, ex.seq(), executeBatch(gen, ex)))));
        } else if (e instanceof Effect.ExecuteReadOnly ro) {
            // In line with the ordered executions before it: the read sees their state (§5.1.3).
            execution.execute(guarded(() -> {
                byte[] result = executeOne(-1, ro.request(), new byte[0], null);
                readOnlyExecuted.incrementAndGet();
                inbox.add(new ReadOnlyExecuted(ro.request(), result));
            }));
        } else if (e instanceof Effect.CaptureState cs) {
            execution.execute(guarded(() -> inbox.add(new Captured(gen, cs.seq(), service.getState()))));
        } else if (e instanceof Effect.InstallState is) {
            long installing = ++generation;
            execution.execute(guarded(() -> {
                service.setState(is.appState());
                inbox.add(new StateSet(installing, is.seq()));
            }));
        }
    }

    /**
     * Without get_state's answer core would wait forever, and after a failed set_state the state is
     * unknown: either stops this replica (fail-stop, which the group tolerates) instead of leaving it hung.
     */
    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException err) {
                inbox.add(new Failed(err));
            }
        };
    }

    private List<byte[]> executeBatch(long gen, Effect.Execute ex) {
        executingGeneration = gen;
        executingSeq = ex.seq();
        long start = System.nanoTime();
        if (PhaseTrace.on()) {
            PhaseTrace.mark(PhaseTrace.Point.EXECUTION_START, id, ex.seq(), start);
        }
        List<byte[]> results = executeEach(ex);
        long end = System.nanoTime();
        metrics.executed(ex.requests().size(), end - start);
        if (PhaseTrace.on()) {
            PhaseTrace.mark(PhaseTrace.Point.EXECUTION_END, id, ex.seq(), end);
        }
        return results;
    }

    private List<byte[]> executeEach(Effect.Execute ex) {
        List<byte[]> results = new ArrayList<>(ex.requests().size());
        for (int i = 0; i < ex.requests().size(); i++) {
            results.add(executeOne(ex.seq(), ex.requests().get(i), ex.randoms().get(i),
                    proofs.of(ex.randoms().get(i), ex.coins().get(i))));
        }
        return results;
    }

    /** One request; {@code seq} -1 for a read-only one. */
    private byte[] executeOne(long seq, Request request, byte[] random, RandomProof proof) {
        try {
            return service.execute(request, random, proof);
        } catch (RuntimeException err) {
            // Deterministic code fails alike on every correct replica: the failure is the result (the
            // Total Order Invoker will turn it into a SOAP fault). The class name, not the message,
            // which may carry addresses or hash codes that differ between replicas.
            REMOTE_LOG.warn("request failed", "replica {}: seq {} request {} failed: {}", id, seq, request.id(),
                    err.getClass().getName());
            return ("fault:" + err.getClass().getName()).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Evidence at WARN, view changes and state transfer at INFO; never whole messages or keys. */
    private void log(Event e, boolean recovering) {
        if (e instanceof Event.Evidence ev) {
            long count = evidence.record(ev.node(), ev.what());
            String description = "evidence against " + describeNode(ev.node()) + ": " + ev.what();
            evidence.describeLast(description);
            REMOTE_LOG.warn("evidence against " + describeNode(ev.node()), "replica {}: {} (#{} from it)", id,
                    description, count);
        } else if (e instanceof Event.ViewChangeStarted vc) {
            LOG.info("replica {}: view change to view {} started", id, vc.view());
        } else if (e instanceof Event.ViewEntered ve) {
            LOG.info("replica {}: entered view {} (primary {})", id, ve.view(), ve.view() % n);
        } else if (e instanceof Event.StateInstalled si) {
            LOG.info("replica {}: installed the stable checkpoint at seq {} {}", id, si.seq(),
                    recovering ? "from its journal" : "by state transfer");
        } else if (e instanceof Event.CheckpointStable cs) {
            LOG.debug("replica {}: checkpoint at seq {} is stable", id, cs.seq());
        } else if (e instanceof Event.Committed c) {
            LOG.trace("replica {}: committed seq {} in view {} ({} requests)", id, c.seq(), c.view(),
                    c.batch().size());
        }
    }

    /**
     * The sender of evidence as an operator finds it: a replica by id and control port, a client by id and the
     * reply endpoint it gave, or unknown (bytes that were no signed envelope name no sender).
     */
    private String describeNode(int node) {
        if (node < 0) {
            return "an unknown sender (no signed envelope)";
        } else if (node == id) {
            return "this replica itself";
        } else if (node < n) {
            return "replica " + node + " (" + replicaControl.get(node) + ")";
        } else if (executionControl.containsKey(node)) {
            return "execution node " + node + " (" + executionControl.get(node) + ")";
        }
        URI replyTo = clientReplyTo.get(node);
        return "client " + node + (replyTo == null ? "" : " (replies to " + replyTo + ")");
    }

    // ---------------------------------------------------------------- event listeners

    /**
     * Observes the engine's events as this replica's ordering thread performs them, e.g. to time checkpoints,
     * state transfer and view changes (BFT-WS paper §4.2). Called on the ordering thread, so it must return
     * quickly and must not call back into this manager's queue; whatever it throws is logged and ignored.
     */
    @FunctionalInterface
    public interface EventListener {
        /** @param nanoTime {@link System#nanoTime()} when the ordering thread performed the event */
        void onEvent(Event event, long nanoTime);
    }

    /** Registered listeners; copy-on-write because registration is rare and events are many. */
    private final List<EventListener> eventListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Adds a listener of the events performed from now on (earlier ones are not replayed). */
    public void addEventListener(EventListener listener) {
        eventListeners.add(java.util.Objects.requireNonNull(listener));
    }

    public void removeEventListener(EventListener listener) {
        eventListeners.remove(listener);
    }

    private void notifyListeners(Event e) {
        if (eventListeners.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (EventListener l : eventListeners) {
            try {
                l.onEvent(e, now);
            } catch (RuntimeException err) {
                // an observer's bug must not stop ordering
                LOG.warn("replica {}: event listener failed: {}", id, err.toString());
            }
        }
    }

    // ---------------------------------------------------------------- observers and shutdown

    public int id() {
        return id;
    }

    /** The replica's state after the ordering thread's last step (any thread). */
    public ReplicaSnapshot snapshot() {
        return snapshot;
    }

    public long lastExecuted() {
        return snapshot.lastExecuted();
    }

    public long view() {
        return snapshot.view();
    }

    /** The sequence number of the last stable checkpoint (low watermark h, Castro-Liskov §4.3). */
    public long stableCheckpoint() {
        return snapshot.stableCheckpoint();
    }

    public boolean isActive() {
        return snapshot.active();
    }

    /**
     * How this replica orders: core's protocol and role (configuration I: agreement and execution on every
     * replica, BFT-WS §3.3.2) and how randomized requests get their random numbers.
     */
    public String orderingMode() {
        return orderingMode;
    }

    /** The internal error that stopped ordering, or null. */
    public Throwable failure() {
        return failure;
    }

    /**
     * For the In Handler's check of a client's application message (any thread): verifies and remembers, so
     * that the request is not verified again here or inside the primary's pre-prepare.
     */
    public Verifier requestVerifier() {
        return preVerifier.remembering();
    }

    /** Signature checks the ordering thread was spared by the receiving threads' {@link PreVerifier}. */
    public long preVerifiedHits() {
        return preVerifier.hits();
    }

    /** Evidence events core reported so far: messages refused as forged, malformed or misdirected. */
    public long evidence() {
        return evidence.total();
    }

    /** The evidence counted per kind and per node (any thread). */
    public EvidenceCounts evidenceCounts() {
        return evidence;
    }

    /** Read-only requests executed without ordering so far (Castro-Liskov §5.1.3). */
    public long readOnlyExecuted() {
        return readOnlyExecuted.get();
    }

    /** Null, or the stable checkpoint and record count this replica restarted from (its journal's). */
    public JournalRecovery recoveredFromJournal() {
        return recovered;
    }

    /** Stable checkpoints installed from other replicas by state transfer since start (not from the journal). */
    public long statesTransferred() {
        return statesTransferred.get();
    }

    /** Received control messages dropped because their sender's queue was full, all senders. */
    public long inboundDropped() {
        return received.dropped();
    }

    /**
     * Received control messages dropped because the queue of {@code sender} was full (0..n-1: that replica's;
     * n: the queue shared by clients and any other sender).
     */
    public long inboundDropped(int sender) {
        return received.dropped(sender);
    }

    /**
     * Received control messages that claimed a replica but came from another network address, and so went to
     * the queue shared with clients ({@link SenderAddresses}).
     */
    public long inboundMisattributed() {
        return received.misattributed();
    }

    /** Received control messages dropped because they claimed a replica proven faulty ({@link ProvenFaulty}). */
    public long ignoredFromFaulty() {
        return received.ignored();
    }

    /**
     * What the control port's HTTP server refuses, unread: POSTs from the address of a replica proven faulty, where
     * addresses tell replicas apart ({@link RefusedReplicas}); any thread.
     */
    public PostRefusal transportRefusal() {
        return received.refusal();
    }

    /** POSTs to the control port refused by {@link #transportRefusal}. */
    public long inboundRefused() {
        return received.refusal().refused();
    }

    /** Received control messages waiting for the ordering thread. */
    public int inboundQueued() {
        return received.queued();
    }

    /** Requests, batches, view changes and phase latencies counted for {@code /metrics} (any thread). */
    public OrderingMetrics metrics() {
        return metrics;
    }

    /** This replica's journal, or null when it keeps none; read its counters only. */
    public JournalStore journal() {
        return journal;
    }

    /**
     * Replies handed to the sender for {@code client} so far, resent cached replies included: counted when
     * the ordering thread routes them, so a test can tell deterministically whether input it delivered earlier
     * made this replica answer, where counting at the client would race with replies still in flight.
     */
    public long repliesSent(int client) {
        AtomicLong c = repliesSent.get(client);
        return c == null ? 0 : c.get();
    }

    /** Stops ticking, lets the ordering thread finish its current step, then stops execution. */
    @Override
    public void close() {
        Threads.stop(ticker);
        stopping = true;
        inbox.add(new Stop()); // wakes the thread; whatever is still queued is abandoned
        try {
            orderingThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Threads.stop(execution);
        closeJournal();
        LOG.info("replica {}: total order manager stopped at seq {}", id, snapshot.lastExecuted());
    }

    private void closeJournal() {
        if (journal == null) {
            return;
        }
        try {
            journal.close();
        } catch (java.io.IOException e) {
            LOG.warn("replica {}: closing the journal {}: {}", id, journal.file(), e.toString());
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
