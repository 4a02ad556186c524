package org.bftws.module.order;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.dkg.GroupDkg;
import org.bftws.core.engine.KeySet;
import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.module.api.ApplicationResult;
import org.bftws.module.api.RandomProof;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.config.RandomnessAlgorithm;
import org.bftws.module.random.DeclaredOperations;
import org.bftws.module.random.RandomnessSetup;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.transport.ControlPort;

/**
 * The distributed key generation of a group without a dealer ({@code bftws.keys.mode=dkg}) run over the
 * group's own PBFT ordering, at a replica's first start: the group's ordering is GJKR's broadcast channel.
 *
 * <p>Each operation of this replica's {@link GroupDkg} becomes a request of the reserved node id
 * {@link GroupKeyMaterial.Pending#submitter} (after the clients' ids), each on a sequence of its own, signed with the
 * replica's own Ed25519 key, sent to every replica's control port and resent every
 * {@value #RESEND_SECONDS} s until executed (a client's retransmission; the client table keeps it exactly-once).
 * {@link #wrap} puts itself before the service: an executed request of a submitter id goes to {@link GroupDkg}
 * in the agreed order and never reaches a service; the reserved operation from anyone else, and every
 * randomized or confidential request ordered before the keys serve gets the same fault at every replica.
 * When the run ends, at the seq s of the ordered operation that completed it, the replica writes {@code
 * group.pub} and {@code replica-I.key} (0600) into its data directory and installs the keys in its engine
 * ({@link TotalOrderManager#installKeys}): they serve every request ordered after s, at every correct replica
 * alike, with no restart; then it signs group.pub and writes {@code group.cert} once 2f+1 signatures are
 * ordered. A restarted replica loads the keys from its data directory.
 */
public final class DkgBootstrap {
    private static final Logger LOG = LogManager.getLogger(DkgBootstrap.class);
    /** Seconds between resends of this replica's submitted, not yet executed operations. */
    static final int RESEND_SECONDS = 2;
    /** The sequences of this replica's operations: the prefix, then 1, 2, ... (one operation each). */
    private static final String SEQUENCE_PREFIX = "dkg-generate-";
    /** What a randomized or confidential request gets, at the In Handler and at execution alike. */
    public static final String NOT_YET = "BFT-WS: keys not yet generated: randomized and confidential operations"
            + " are served once the group's distributed key generation has finished";

    /** What a client's request carrying the key generation's reserved operation gets. */
    public static final String RESERVED = "BFT-WS: the key generation's operation is reserved to the replicas";

    private final BftwsConfig config;
    private final GroupKeyMaterial keys;
    private final GroupKeyMaterial.Pending pending;
    private final DeclaredOperations declared;
    private final GroupDkg dkg;
    private final int submitter;
    /** This replica's submitted operations not yet executed here, by sequence id. */
    private final Map<String, byte[]> unexecuted = new LinkedHashMap<>();
    private long submitted;
    private long started;
    private long firstOrdered;
    private long operationBytes;
    private long operations;
    private volatile boolean generated;
    /** The first seq the generated keys serve (the one after the key generation's last); none yet: MAX_VALUE. */
    private volatile long keysFrom = Long.MAX_VALUE;
    private volatile boolean certified;
    private BftwsReplica replica;
    private ScheduledExecutorService resender;

    public DkgBootstrap(BftwsConfig config, GroupKeyMaterial keys, DeclaredOperations declared) {
        this.config = config;
        this.keys = keys;
        this.pending = keys.pending();
        this.declared = declared;
        this.dkg = new GroupDkg(pending.members(), pending.identity(), new SecureRandom());
        this.submitter = pending.submitter(config.replicaId());
    }

    /** The service as the ordering executes it while the keys are pending. */
    public ReplicatedService wrap(ReplicatedService service) {
        return new Gate(service, pending, this);
    }

    /**
     * The service of a replica whose generated keys are in use: the key generation's requests a journal or a
     * late retransmission still brings are answered empty, never passed to a service; the reserved operation
     * from anyone else is refused.
     */
    public static ReplicatedService afterwards(ReplicatedService service, GroupKeyMaterial.Pending pending) {
        return new Gate(service, pending, null);
    }

    /** Before the service: the key generation's requests to {@code dkg} (null: finished), refusals of the rest. */
    private record Gate(ReplicatedService service, GroupKeyMaterial.Pending pending, DkgBootstrap dkg)
            implements ReplicatedService {
        @Override
        public byte[] execute(Request request, byte[] random) {
            return execute(request, random, null);
        }

        @Override
        public byte[] execute(Request request, byte[] random, RandomProof proof) {
            int from = pending.replicaOf(request.client());
            if (from >= 0) {
                if (dkg != null) {
                    dkg.ordered(from, request);
                }
                return ApplicationResult.empty().encode();
            }
            if (GroupDkg.isDkgOperation(request.operation())) {
                return ApplicationResult.fault(RESERVED).encode();
            }
            String refusal = dkg == null ? null : dkg.refusalAtExecution(request);
            return refusal != null ? ApplicationResult.fault(refusal).encode() : service.execute(request, random, proof);
        }

        @Override
        public byte[] getState() {
            return service.getState();
        }

        @Override
        public void setState(byte[] state) {
            service.setState(state);
        }
    }

    /**
     * Why a client's request must be refused on arrival, or null: the reserved operation always, randomized and
     * confidential ones until the keys are generated here (one ordered before they serve is refused at
     * execution, alike everywhere).
     */
    public String refusal(Request request) {
        if (GroupDkg.isDkgOperation(request.operation())) {
            return RESERVED;
        }
        return generated ? null : keysNeeded(request);
    }

    /** At execution, on the execution thread: refused if the generated keys do not serve this batch's seq. */
    private String refusalAtExecution(Request request) {
        return replica.manager().executingSeq() >= keysFrom ? null : keysNeeded(request);
    }

    private String keysNeeded(Request request) {
        try {
            return declared.isRandomized(request) || declared.isConfidential(request) ? NOT_YET : null;
        } catch (RuntimeException e) {
            return null; // not an application request: the service refuses it as it always does
        }
    }

    /** Deals this replica's first messages and starts resending; {@code replica} runs the ordering. */
    public synchronized void start(BftwsReplica replica) {
        this.replica = replica;
        started = System.nanoTime();
        LOG.info("bftws replica {}: no keys yet ({}=dkg): running the distributed key generation over the"
                + " group's ordering", config.replicaId(), org.bftws.module.config.BftwsKeys.KEYS_MODE.name());
        submit(dkg.start());
        resender = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bftws-dkg-resend-r" + config.replicaId());
            t.setDaemon(true);
            return t;
        });
        resender.scheduleWithFixedDelay(this::resend, RESEND_SECONDS, RESEND_SECONDS, TimeUnit.SECONDS);
    }

    public void close() {
        if (resender != null) {
            resender.shutdownNow();
        }
    }

    /** Whether the generated keys are on disk and installed (they serve the requests ordered after them). */
    public boolean generated() {
        return generated;
    }

    /** Whether group.cert is on disk. */
    public boolean certified() {
        return certified;
    }

    /** An executed request of replica {@code from}'s submitter id: the next operation of the agreed sequence. */
    private synchronized void ordered(int from, Request request) {
        if (operations == 0) {
            firstOrdered = System.nanoTime();
        }
        operations++;
        operationBytes += request.operation().length;
        if (from == config.replicaId()) {
            unexecuted.remove(request.sequenceId());
        }
        GroupDkg.Step step = dkg.deliver(from + 1, request.operation());
        for (String fault : step.faults()) {
            LOG.warn("bftws replica {}: key generation: {}", config.replicaId(), fault);
        }
        if (step.output() != null) {
            keysGenerated(step.output());
        }
        if (step.certificate() != null) {
            write(GroupCertificate.FILE, step.certificate());
            certified = true;
            LOG.info("bftws replica {}: 2f+1 replicas certified group.pub ({}) after {} ordered operations ({} bytes)",
                    config.replicaId(), config.dataDir().resolve(GroupCertificate.FILE), operations, operationBytes);
            close();
        }
        submit(step);
    }

    private void keysGenerated(GroupDkg.Output out) {
        long now = System.nanoTime();
        long millis = (now - started) / 1_000_000;
        long ordering = (now - firstOrdered) / 1_000_000;
        if (out.keys() == null) {
            LOG.error("bftws replica {}: the key generation ended without a share for this replica: it needs its"
                    + " share recovered (not built yet)", config.replicaId());
            return;
        }
        try {
            KeyFiles.writeGenerated(config.dataDir(), out.groupText(), out.keys());
        } catch (IOException e) {
            LOG.error("bftws replica {}: cannot write the generated keys to {}: {}", config.replicaId(),
                    config.dataDir(), e.toString());
            return;
        }
        long seq = replica.manager().installKeys(keySet(out));
        keysFrom = seq + 1;
        generated = true;
        LOG.info("bftws replica {}: keys generated {} ms after its start, {} ms after the first ordered operation,"
                + " over {} ordered operations ({} bytes); wrote {} and {}; they serve the requests ordered after seq"
                + " {}", config.replicaId(), millis, ordering, operations, operationBytes, KeyFiles.GROUP_FILE,
                KeyFiles.replicaFileName(config.replicaId() + 1), seq);
    }

    /** The engine's new keys: the coin's with CT randomness, TDH2's where confidential operations are opened. */
    private KeySet keySet(GroupDkg.Output out) {
        CoinConfig coins = config.randomness() == RandomnessAlgorithm.CT
                ? RandomnessSetup.coins(config, keys.counts(), out.group(), out.keys().share()) : null;
        ConfidentialConfig tdh2 = config.group().executionNodes().isEmpty()
                ? new ConfidentialConfig(out.group().encryption(), out.keys().decryption(), RandomnessSetup.groupId(config),
                        declared) : null;
        return new KeySet(coins, tdh2);
    }

    private void write(String name, String text) {
        Path file = config.dataDir().resolve(name);
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            LOG.error("bftws replica {}: cannot write {}: {}", config.replicaId(), file, e.toString());
        }
    }

    private void submit(GroupDkg.Step step) {
        for (byte[] op : step.toOrder()) {
            // One sequence per operation: the client table runs a sequence's numbers in increasing order and
            // skips a lower one ordered after a higher, so operations submitted together on one sequence could
            // be ordered out of turn and one of them lost.
            String sequenceId = SequenceOwner.bind(submitter, SEQUENCE_PREFIX + ++submitted);
            Request q = new Request(submitter, sequenceId, 1, false, op);
            byte[] signed = Signed.sign(Kind.REQUEST, submitter, q.encode(), keys.signer()).encode();
            unexecuted.put(sequenceId, signed);
            send(signed);
        }
    }

    private synchronized void resend() {
        for (byte[] signed : new ArrayList<>(unexecuted.values())) {
            send(signed);
        }
    }

    private void send(byte[] signed) {
        List<URI> peers = new ArrayList<>();
        for (int r = 0; r < config.n(); r++) {
            if (r != config.replicaId()) {
                peers.add(ControlPort.controlUri(config.member(r).endpoint()));
            }
        }
        replica.sender().send(peers, new ControlMessage(signed, null));
        replica.deliverClientRequest(new ControlMessage(signed, null));
    }
}
