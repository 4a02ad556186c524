package org.bftws.module.order;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.dkg.GroupDkg;
import org.bftws.core.dkg.GroupRefresh;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.core.engine.KeySet;
import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.module.api.ApplicationResult;
import org.bftws.module.api.RandomProof;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.config.RandomnessAlgorithm;
import org.bftws.module.random.DeclaredOperations;
import org.bftws.module.random.RandomnessSetup;

/**
 * The distributed key generation of a group without a dealer ({@code bftws.keys.mode=dkg}) run over the
 * group's own PBFT ordering, at a replica's first start: the group's ordering is GJKR's broadcast channel.
 *
 * <p>Each operation of this replica's {@link GroupDkg} becomes a request of the reserved node id
 * {@link GroupKeyMaterial.Pending#submitter} (after the clients' ids), submitted by a {@link ReservedSubmitter}.
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
    /** The sequences of this replica's operations: the prefix, then 1, 2, ... (one operation each). */
    private static final String SEQUENCE_PREFIX = "dkg-generate-";
    /** What a randomized or confidential request gets, at the In Handler and at execution alike. */
    public static final String NOT_YET = "BFT-WS: keys not yet generated: randomized and confidential operations"
            + " are served once the group's distributed key generation has finished";

    /** What a client's request carrying one of the replicas' reserved operations (key generation, refresh) gets. */
    public static final String RESERVED = "BFT-WS: the replicas' key operations are reserved to the replicas";

    private final BftwsConfig config;
    private final GroupKeyMaterial keys;
    private final GroupKeyMaterial.Pending pending;
    private final DeclaredOperations declared;
    private final GroupDkg dkg;
    private final ReservedSubmitter submitter;
    /** The refresh of the keys once generated; null if none. */
    private final KeyRefresh refresh;
    private long started;
    private long firstOrdered;
    private long operationBytes;
    private long operations;
    private volatile boolean generated;
    /** The first seq the generated keys serve (the one after the key generation's last); none yet: MAX_VALUE. */
    private volatile long keysFrom = Long.MAX_VALUE;
    private volatile boolean certified;
    private BftwsReplica replica;

    /** {@code refresh}: the refresh that takes the generated keys over (null: none). */
    public DkgBootstrap(BftwsConfig config, GroupKeyMaterial keys, DeclaredOperations declared, KeyRefresh refresh) {
        this.config = config;
        this.keys = keys;
        this.pending = keys.pending();
        this.declared = declared;
        this.refresh = refresh;
        this.dkg = new GroupDkg(pending.members(), pending.identity(), new SecureRandom());
        int node = pending.submitter(config.replicaId());
        this.submitter = new ReservedSubmitter(config, node, keys.signer(),
                n -> SequenceOwner.bind(node, SEQUENCE_PREFIX + n));
    }

    /** The service as the ordering executes it while the keys are pending. */
    public ReplicatedService wrap(ReplicatedService service) {
        return new Gate(service, pending, this, refresh);
    }

    /**
     * The service of a replica whose generated keys are in use: the key generation's requests a journal or a
     * late retransmission still brings are answered empty, never passed to a service, a refresh's go to
     * {@code refresh}; the reserved operations from anyone else are refused.
     */
    public static ReplicatedService afterwards(ReplicatedService service, GroupKeyMaterial.Pending pending,
            KeyRefresh refresh) {
        return new Gate(service, pending, null, refresh);
    }

    /** Whether {@code operation} is one of the replicas' own reserved operations (key generation, refresh). */
    public static boolean isReserved(byte[] operation) {
        return GroupDkg.isDkgOperation(operation) || GroupRefresh.isRefreshOperation(operation);
    }

    /**
     * Before the service: the key generation's requests to {@code dkg} (null: finished), a refresh's to {@code
     * refresh} (null: none), refusals of the rest.
     */
    private record Gate(ReplicatedService service, GroupKeyMaterial.Pending pending, DkgBootstrap dkg,
            KeyRefresh refresh) implements ReplicatedService {
        @Override
        public byte[] execute(Request request, byte[] random) {
            return execute(request, random, null);
        }

        @Override
        public byte[] execute(Request request, byte[] random, RandomProof proof) {
            int from = pending.replicaOf(request.client());
            if (from >= 0) {
                if (GroupRefresh.isRefreshOperation(request.operation())) {
                    if (refresh != null) {
                        refresh.ordered(from, request);
                    }
                } else if (dkg != null) {
                    dkg.ordered(from, request);
                }
                return ApplicationResult.empty().encode();
            }
            if (isReserved(request.operation())) {
                return ApplicationResult.fault(RESERVED).encode();
            }
            String refusal = dkg == null ? null : dkg.refusalAtExecution(request);
            return refusal != null ? ApplicationResult.fault(refusal).encode() : service.execute(request, random, proof);
        }

        /** The service's state with the refresh's record ({@link KeyState}): state transfer brings the epoch. */
        @Override
        public byte[] getState() {
            return refresh == null ? service.getState() : KeyState.join(refresh.stateRecord(), service.getState());
        }

        @Override
        public void setState(byte[] state) {
            if (refresh == null) {
                service.setState(state);
                return;
            }
            KeyState.Parts parts = KeyState.split(state);
            service.setState(parts.service());
            refresh.restore(parts.refresh());
        }
    }

    /**
     * Why a client's request must be refused on arrival, or null: the reserved operation always, randomized and
     * confidential ones until the keys are generated here (one ordered before they serve is refused at
     * execution, alike everywhere).
     */
    public String refusal(Request request) {
        if (isReserved(request.operation())) {
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
        submitter.start(replica, "bftws-dkg-resend-r" + config.replicaId(), null);
        submitter.submit(dkg.start().toOrder());
    }

    public void close() {
        submitter.close();
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
            submitter.executed(request);
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
        submitter.submit(step.toOrder());
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
        long seq = replica.manager().installKeys(keySet(config, keys, declared, out.group(), out.keys()));
        keysFrom = seq + 1;
        if (refresh != null) {
            refresh.keysInUse(out.group(), out.keys());
        }
        generated = true;
        LOG.info("bftws replica {}: keys generated {} ms after its start, {} ms after the first ordered operation,"
                + " over {} ordered operations ({} bytes); wrote {} and {}; they serve the requests ordered after seq"
                + " {}", config.replicaId(), millis, ordering, operations, operationBytes, KeyFiles.GROUP_FILE,
                KeyFiles.replicaFileName(config.replicaId() + 1), seq);
    }

    /**
     * The engine's new keys from {@code group} and this replica's {@code mine}: the coin's with CT randomness,
     * TDH2's where confidential operations are opened.
     */
    static KeySet keySet(BftwsConfig config, GroupKeyMaterial keys, DeclaredOperations declared, GroupKeys group,
            ReplicaKeys mine) {
        CoinConfig coins = config.randomness() == RandomnessAlgorithm.CT
                ? RandomnessSetup.coins(config, keys.counts(), group, mine.share()) : null;
        ConfidentialConfig tdh2 = config.group().executionNodes().isEmpty()
                ? new ConfidentialConfig(group.encryption(), mine.decryption(), RandomnessSetup.groupId(config),
                        declared) : null;
        return new KeySet(coins, tdh2);
    }

    private void write(String name, String text) {
        Path file = config.dataDir().resolve(name);
        Path partial = config.dataDir().resolve(name + ".partial");
        try {
            // written whole, then renamed: a reader (a client fetching group.cert) never sees half a file
            Files.writeString(partial, text, StandardCharsets.UTF_8);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.error("bftws replica {}: cannot write {}: {}", config.replicaId(), file, e.toString());
        }
    }
}
