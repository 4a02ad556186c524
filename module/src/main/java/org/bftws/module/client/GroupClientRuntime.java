package org.bftws.module.client;

import java.lang.ref.WeakReference;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ServiceContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.neethi.Policy;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.core.voter.ClientCore;
import org.bftws.module.Threads;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.Ordering;
import org.bftws.module.config.ReplicaEndpoint;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.random.RandomnessSetup;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.rm.SequenceIds;
import org.bftws.module.rm.TerminateMessage;
import org.bftws.module.security.ApplicationMessageSigner;
import org.bftws.module.transport.ControlGuard;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlPort;
import org.bftws.module.transport.MulticastSender;

/**
 * The client side of BFT-WS in one Axis2 instance ({@code bftws.role=client}): the Multicast Sender that
 * sends each signed request to every replica's service endpoint as a WS-RM application message (paper
 * §3.3.1.2, {@link ApplicationMessage}), this instance's own control
 * port where the replicas' replies arrive, one {@link GroupSequence} (a WS-RM sequence established with
 * every replica by {@link SequenceEstablishment}) (with its Voter, §3.3.1.5) per
 * ServiceClient, and the ticker that drives the sequences' retransmissions.
 *
 * <p>Replies come back as one-way messages to {@link #replyTo}, not on the request's HTTP response: a replica
 * replies only after ordering and execution, maybe after a view change, and may answer a retransmission it
 * never saw the first copy of. The client therefore needs an HTTP listener: {@code bftws.client.replyEndpoint}
 * names it, or the embedding sets {@link #LISTENER_BASE_PROPERTY}.
 */
public final class GroupClientRuntime implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(GroupClientRuntime.class);

    /**
     * ConfigurationContext property: the base URL (ending in {@code /}) under which this Axis2 instance's HTTP
     * listener serves services, e.g. {@code http://127.0.0.1:PORT/axis2/services/}. Set by an embedding that
     * starts the listener itself (client-lib's EmbeddedAxis2Server); used when
     * {@code bftws.client.replyEndpoint} is not configured.
     */
    public static final String LISTENER_BASE_PROPERTY = "org.bftws.listener.base";
    /**
     * Options property (a String): the name of a sequence this client shares with the other members of its
     * replicated client ({@code bftws.replicatedClients}; BFT-WS paper §3.4), instead of the ServiceClient's
     * own sequence. Requires {@link #MESSAGE_NUMBER_PROPERTY}.
     */
    public static final String SHARED_SEQUENCE_PROPERTY = "org.bftws.client.sharedSequence";
    /**
     * Options property (a Long): the call's message number on the shared sequence, which every member derives
     * alike from its deterministic execution (the middle tier's total order); a retry reuses it.
     */
    public static final String MESSAGE_NUMBER_PROPERTY = "org.bftws.client.messageNumber";
    /** ServiceContext property holding the ServiceClient's {@link GroupSequence}. */
    private static final String SEQUENCE_PROPERTY = "org.bftws.client.sequence";
    /** Send queue per replica; the client retransmits, so dropping the oldest is harmless. */
    private static final int SEND_QUEUE_CAPACITY = 256;
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(2);

    private final BftwsConfig config;
    private final ConfigurationContext context;
    private final GroupKeyMaterial keys;
    private static final SecureRandom SEAL_RANDOM = new SecureRandom();
    private final URI replyTo;
    /** Every replica's control port, where read-only requests go. */
    private final List<URI> controlPorts;
    /** Configuration III: every execution node's control port, where each request goes too; else empty. */
    private final List<URI> executionPorts;
    private final MulticastSender sender;
    /** Puts the WS-Security header on an application message ({@code bftws.security=rampart}); else null. */
    private final UnaryOperator<byte[]> wsSecurity;
    /** Null with bftws.security=none; else the check of the replicas' WS-Security signatures on replies. */
    private final SignedReplyGuard replyGuard;
    private final ControlPort port;
    private final ScheduledExecutorService ticker;
    /**
     * Sequence id → sequence, for routing replies. Weak: a sequence lives as long as its ServiceClient's
     * ServiceContext holds it; entries of collected ones are pruned when a new sequence starts.
     */
    private final Map<String, WeakReference<GroupSequence>> sequences = new ConcurrentHashMap<>();
    private final Set<GroupSequence> active = ConcurrentHashMap.newKeySet();
    /** Shared sequences of this member of a replicated client, by name ({@link #SHARED_SEQUENCE_PROPERTY}). */
    private final Map<String, GroupSequence> shared = new ConcurrentHashMap<>();

    private GroupClientRuntime(ConfigurationContext context, BftwsConfig config, GroupKeyMaterial keys, URI replyTo)
            throws AxisFault {
        this.context = context;
        this.config = config;
        this.keys = keys;
        this.replyTo = replyTo;
        List<URI> control = new ArrayList<>();
        for (ReplicaEndpoint r : config.replicas()) {
            control.add(ControlPort.controlUri(r.endpoint()));
        }
        this.controlPorts = List.copyOf(control);
        List<URI> execution = new ArrayList<>();
        for (ReplicaEndpoint e : config.executionNodes()) {
            execution.add(ControlPort.controlUri(e.endpoint()));
        }
        this.executionPorts = List.copyOf(execution);
        Policy policy = SequenceEstablishment.signingPolicy(config);
        this.wsSecurity = policy == null ? null : ApplicationMessageSigner.of(policy);
        this.replyGuard = policy == null ? null : new SignedReplyGuard(policy, config.n());
        this.sender = new MulticastSender("bftws-client-send", config.n() + executionPorts.size(),
                config.multicast().withBuffer(SEND_QUEUE_CAPACITY, SEND_TIMEOUT));
        try {
            this.port = ControlPort.deploy(context, this::onControlMessage, config.controlMaxBytes(),
                    replyGuard == null ? ControlGuard.NONE : replyGuard, config.controlDirectBodyBytes());
        } catch (AxisFault | RuntimeException e) {
            sender.close();
            throw e;
        }
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bftws-client-tick");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(this::tick, config.tickMillis(), config.tickMillis(), TimeUnit.MILLISECONDS);
        LOG.info("bftws client (node {}) for group {}: {} replicas{}, replies at {}", keys.nodeId(),
                config.groupEndpoint(), config.n(), executionPorts.isEmpty() ? ""
                        : " and " + executionPorts.size() + " execution nodes", replyTo);
    }

    /**
     * Replies of {@code replica} refused for their WS-Security signature (bftws.security=rampart; 0 with none):
     * missing, invalid, expired or by another certificate than the replica's.
     */
    public long refusedReplies(int replica) {
        return replyGuard == null ? 0 : replyGuard.refused(replica);
    }

    /** Starts the client side; {@code replyTo} is this instance's control port URL. */
    public static GroupClientRuntime start(ConfigurationContext context, BftwsConfig config, GroupKeyMaterial keys,
            URI replyTo) throws AxisFault {
        return new GroupClientRuntime(context, config, keys, replyTo);
    }

    /** Where this instance's control port is reachable, or null if neither configuration nor embedding says. */
    public static URI replyEndpoint(ConfigurationContext context, BftwsConfig config) {
        if (config.clientReplyEndpoint() != null) {
            return config.clientReplyEndpoint();
        }
        Object base = context.getProperty(LISTENER_BASE_PROPERTY);
        return base == null ? null : URI.create(base.toString()).resolve(ControlPort.SERVICE_NAME);
    }

    /**
     * A new sequence with the replica group: CreateSequence with a fresh client UUID multicast to every
     * replica, whose Sandesha2 derives the id from the UUID and the group endpoint (paper §3.3.1.1); the id
     * f+1 replicas answer with becomes the sequence id of this client's core requests.
     */
    GroupSequence newSequence(long timeoutMillis) throws AxisFault {
        String id = SequenceEstablishment.establish(context, config, keys.nodeId(), SequenceIds.newClientUuid(),
                timeoutMillis);
        GroupSequence s = new GroupSequence(new ClientCore(config.group(), keys.nodeId(), id, keys.signer(),
                keys.verifier()), this);
        sequences.values().removeIf(ref -> ref.get() == null);
        sequences.put(id, new WeakReference<>(s));
        LOG.debug("bftws client: sequence {} established with the group", id);
        return s;
    }

    /**
     * Invokes one application request on the group and returns the voted result and random number (see
     * {@link GroupSequence#call}). {@code owner} is the ServiceClient's ServiceContext: each ServiceClient
     * gets its own sequence, created on its first call and kept as a property of that context.
     * {@code randomized} is the client's signed claim that the operation is randomized (integrity paper §4);
     * {@code readOnly} that it is read-only, to be executed without ordering (Castro-Liskov §5.1.3).
     */
    public Event.Delivered call(ServiceContext owner, byte[] operation, boolean randomized, boolean readOnly,
            long timeoutMillis) throws AxisFault {
        return call(owner, (sequenceId, number) -> operation, randomized, readOnly, timeoutMillis);
    }

    /** A request's operation bytes, made once its sequence id and message number are known. */
    @FunctionalInterface
    public interface OperationBytes {
        byte[] of(String sequenceId, long messageNumber);
    }

    /**
     * As above, the operation bytes made from the request's sequence id and message number: those of a
     * confidential operation carry its payload sealed for that request ({@link #seal}).
     */
    public Event.Delivered call(ServiceContext owner, OperationBytes operation, boolean randomized, boolean readOnly,
            long timeoutMillis) throws AxisFault {
        if (config.replicatedClients().isMember(keys.nodeId())) {
            // The replicas take a member's requests only on its replicated client's sequences, with p+1 copies.
            throw new AxisFault("BFT-WS: client " + keys.nodeId() + " is a member of a replicated client ("
                    + BftwsKeys.REPLICATED_CLIENTS.name() + "): its calls go on a shared sequence (options "
                    + SHARED_SEQUENCE_PROPERTY + " and " + MESSAGE_NUMBER_PROPERTY + ")");
        }
        GroupSequence s;
        synchronized (owner) {
            s = (GroupSequence) owner.getProperty(SEQUENCE_PROPERTY);
            if (s == null) {
                s = newSequence(timeoutMillis);
                owner.setProperty(SEQUENCE_PROPERTY, s);
            }
        }
        // An asynchronous group executes nothing without ordering (its engine has no read-only path), nor does a
        // group with execution nodes (its agreement replicas hold no state to read): order the call.
        return s.call(operation, randomized, readOnly && config.ordering() == Ordering.PBFT
                && executionPorts.isEmpty(), timeoutMillis);
    }

    /**
     * {@code payload} encrypted under the group's TDH2 key for request (sequenceId, messageNumber) of this group
     * (SINTRA §2.6): the label binds the ciphertext to that request, so no other request can carry it.
     */
    public byte[] seal(String sequenceId, long messageNumber, byte[] payload) {
        return ConfidentialConfig.seal(keys.group().encryption(), RandomnessSetup.groupId(config), sequenceId,
                messageNumber, payload, SEAL_RANDOM);
    }

    /**
     * Invokes one application request as a member of a replicated client (BFT-WS paper §3.4): on the sequence
     * named {@code name} that all members share, under message number {@code number}. The sequence's id is the
     * same at every member: CreateSequence claims it for the replicated client's principal (its lowest member
     * id, {@code bftws.replicatedClients}) with a client UUID derived from the principal and the name. The
     * called replicas order the request once p+1 members sent it identically, and answer every member.
     */
    public Event.Delivered callShared(String name, long number, byte[] operation, boolean randomized,
            long timeoutMillis) throws AxisFault {
        return sharedSequence(name, timeoutMillis).callNumbered(number, operation, randomized, timeoutMillis);
    }

    private synchronized GroupSequence sharedSequence(String name, long timeoutMillis) throws AxisFault {
        GroupSequence s = shared.get(name);
        if (s != null) {
            return s;
        }
        ReplicatedClients groups = config.replicatedClients();
        if (!groups.isMember(keys.nodeId())) {
            throw new AxisFault("BFT-WS: client " + keys.nodeId() + " is no member of a replicated client ("
                    + BftwsKeys.REPLICATED_CLIENTS.name() + " is '" + groups.toText() + "'), so it shares no sequence");
        }
        int principal = groups.principal(keys.nodeId());
        UUID uuid = UUID.nameUUIDFromBytes(("bftws replicated client " + principal + " sequence " + name)
                .getBytes(StandardCharsets.UTF_8));
        String id = SequenceEstablishment.establish(context, config, principal, uuid, timeoutMillis);
        s = new GroupSequence(new ClientCore(config.group(), keys.nodeId(), id, keys.signer(), keys.verifier()), this);
        sequences.put(id, new WeakReference<>(s));
        shared.put(name, s);
        LOG.info("bftws client {}: shares sequence {} ('{}') with replicated client {}", keys.nodeId(), id, name,
                groups.members(keys.nodeId()));
        return s;
    }

    /**
     * Ends the sequence of the ServiceClient owning {@code owner} (paper §3.3.1.1; {@link GroupSequence#terminate})
     * and waits until f+1 replicas confirmed. Its next call starts a new sequence. Nothing to do before its first
     * call.
     */
    public void terminate(ServiceContext owner, long timeoutMillis) throws AxisFault {
        GroupSequence s;
        synchronized (owner) {
            s = (GroupSequence) owner.getProperty(SEQUENCE_PROPERTY);
            owner.removeProperty(SEQUENCE_PROPERTY);
        }
        if (s != null) {
            try {
                s.terminate(timeoutMillis);
            } finally {
                sequences.remove(s.id());
            }
        }
    }

    /** The sequence id of the ServiceClient owning {@code owner}, or null before its first call. */
    public static String sequenceId(ServiceContext owner) {
        Object s = owner.getProperty(SEQUENCE_PROPERTY);
        return s instanceof GroupSequence g ? g.id() : null;
    }

    /**
     * Each signed request goes to every replica's service endpoint as a WS-RM application message (paper
     * §3.3.1.2), which the replica's Sandesha2 processes before BFT-WS orders it; a retransmission by core is
     * the same message again. A read-only request (Castro-Liskov §5.1.3) is no message of the WS-RM sequence:
     * it goes to every replica's control port, with this client's control port to reply to. In configuration III
     * (BFT-WS §3.3.3) every request also goes to the execution nodes' control ports: they reply to the control
     * port it names once the agreement replicas have ordered it, and answer a retransmission from their cache.
     */
    void send(Ready r) {
        for (Ready.Outbound o : r.messages) {
            Signed signed = Signed.decode(o.bytes());
            if (!executionPorts.isEmpty() && signed.kind() == Kind.REQUEST) {
                sender.send(executionPorts, new ControlMessage(o.bytes(), replyTo));
            }
            if (signed.kind() == Kind.READ_ONLY_REQUEST) {
                sender.send(controlPorts, new ControlMessage(o.bytes(), replyTo));
                continue;
            }
            if (Request.decode(signed.body()).terminates()) {
                sender.send(serviceEndpoints(""), TerminateMessage.of(signed, config.groupEndpoint(), wsSecurity));
                continue;
            }
            ApplicationMessage m = ApplicationMessage.of(signed, config.groupEndpoint(), replyTo, wsSecurity);
            sender.send(serviceEndpoints(m.service()), m);
        }
    }

    /** Every replica's endpoint of the group service {@code service} ("" = the main one, else a sibling). */
    private List<URI> serviceEndpoints(String service) {
        List<URI> to = new ArrayList<>(config.n());
        for (ReplicaEndpoint r : config.replicas()) {
            to.add(service.isEmpty() ? r.endpoint() : r.endpoint().resolve(service));
        }
        return to;
    }

    void active(GroupSequence s, boolean on) {
        if (on) {
            active.add(s);
        } else {
            active.remove(s);
        }
    }

    private void tick() {
        try {
            for (GroupSequence s : active) {
                s.tick();
            }
        } catch (RuntimeException e) {
            LOG.warn("bftws client: tick failed", e);
        }
    }

    /** From the control port: a replica's reply goes to the sequence it names; the core authenticates it. */
    private void onControlMessage(ControlMessage m) {
        try {
            WeakReference<GroupSequence> ref = sequences.get(ReplyBundle.decode(m.signedBytes()).sequenceId());
            GroupSequence seq = ref == null ? null : ref.get();
            if (seq != null) {
                seq.receive(m.signedBytes());
            }
        } catch (RuntimeException e) {
            // Unauthenticated bytes so far (the sequence authenticates replies): drop whatever does not decode.
            LOG.debug("bftws client: malformed control message dropped: {}", e.toString());
        }
    }

    /** The Multicast Sender of this client's requests (its counters: POSTs, bytes). */
    public MulticastSender sender() {
        return sender;
    }

    public URI replyTo() {
        return replyTo;
    }

    public BftwsConfig config() {
        return config;
    }

    @Override
    public void close() throws AxisFault {
        Threads.stop(ticker);
        sender.close();
        port.undeploy();
    }
}
