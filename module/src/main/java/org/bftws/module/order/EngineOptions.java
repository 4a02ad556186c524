package org.bftws.module.order;

import org.bftws.core.async.AsyncReplica;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Engine;
import org.bftws.core.hybrid.HybridReplica;
import org.bftws.core.pbft.ExecutionNode;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.pbft.ReadOnlyOperations;
import org.bftws.core.pbft.Replica;
import org.bftws.core.pbft.Role;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.module.config.Ordering;
import org.bftws.module.journal.JournalStore;

/**
 * Which of core's ordering engines a replica runs and everything that engine is built with, since core's
 * {@link Engine} contract takes nothing after construction: PBFT's replica, SINTRA's asynchronous one with
 * {@code bftws.ordering=async}, the hybrid one with {@code bftws.ordering=hybrid}, or configuration III's
 * execution node (BFT-WS §3.3.3) at an execution node's
 * id. The one place the module names an engine class; the {@link TotalOrderManager} holds only the
 * {@link Engine} built here. Set every option before handing this to the Total Order Manager.
 */
public final class EngineOptions {
    private final GroupConfig cfg;
    private final int id;
    private final Signer signer;
    private final Verifier verifier;
    private final RandomnessConfig randomness;
    private Ordering ordering = Ordering.PBFT;
    private ReadOnlyOperations readOnly = ReadOnlyOperations.NONE;
    private Authenticators macs;
    private ReplicatedClients replicatedClients = ReplicatedClients.none();
    private ConfidentialConfig confidential;
    private boolean changingKeys;
    private ConfidentialOperations awaitingKeys;
    private JournalStore journal;

    /**
     * @param randomness how randomized requests get their collective random number (integrity paper §4 BA,
     *                   §5 CT) and which requests are randomized
     */
    public EngineOptions(GroupConfig cfg, int id, Signer signer, Verifier verifier, RandomnessConfig randomness) {
        this.cfg = cfg;
        this.id = id;
        this.signer = signer;
        this.verifier = verifier;
        this.randomness = randomness;
    }

    /** The engine ({@code bftws.ordering}); PBFT unless set. */
    public EngineOptions ordering(Ordering o) {
        this.ordering = o;
        return this;
    }

    /** Which requests may execute without ordering (Castro-Liskov §5.1.3); PBFT only, none unless set. */
    public EngineOptions readOnly(ReadOnlyOperations ops) {
        this.readOnly = ops;
        return this;
    }

    /** This replica's authenticators with {@code bftws.authentication=macs}, else null (signatures). */
    public EngineOptions macs(Authenticators m) {
        this.macs = m;
        return this;
    }

    /** The replicated clients (BFT-WS §3.4, {@code bftws.replicatedClients}); the asynchronous engine takes none. */
    public EngineOptions replicatedClients(ReplicatedClients clients) {
        this.replicatedClients = clients;
        return this;
    }

    /**
     * The confidential requests (SINTRA §2.6) and this replica's TDH2 key share: their ciphertext is ordered and
     * opened with the other replicas' decryption shares before execution. Null (the default): none.
     */
    public EngineOptions confidential(ConfidentialConfig c) {
        this.confidential = c;
        return this;
    }

    /**
     * Threshold keys installed while the replica runs ({@link TotalOrderManager#installKeys}, a group without a
     * dealer): with {@code awaitingKeys} the confidential requests whose TDH2 keys are not there yet (null: the
     * keys of {@link #confidential}, or none). PBFT only.
     */
    public EngineOptions changingKeys(ConfidentialOperations awaitingKeys) {
        this.changingKeys = true;
        this.awaitingKeys = awaitingKeys;
        return this;
    }

    /**
     * The journal this replica keeps (Castro-Liskov TOCS 2002 §4.3, {@code bftws.dataDir}), from which it
     * recovers at start; null (the default): none. Only a PBFT replica keeps one.
     */
    public EngineOptions journal(JournalStore store) {
        this.journal = store;
        return this;
    }

    GroupConfig cfg() {
        return cfg;
    }

    int id() {
        return id;
    }

    RandomnessConfig randomness() {
        return randomness;
    }

    ConfidentialConfig confidential() {
        return confidential;
    }

    JournalStore journal() {
        return journal;
    }

    /** The asynchronous or the hybrid engine: every message signed, the group's coin tossed in agreements. */
    private boolean channel() {
        return ordering.tossesCoin();
    }

    /**
     * Checks signatures on the receiving HTTP workers, so the ordering thread need not; with MAC authenticators
     * it also checks PBFT's authenticated messages (the asynchronous engine signs every message; the hybrid one
     * accepts its lane's messages by their MACs with them).
     */
    PreVerifier preVerifier() {
        if (macs != null && ordering == Ordering.HYBRID) {
            return PreVerifier.hybridWithMacs(verifier);
        }
        return macs == null || channel() ? new PreVerifier(verifier) : new PreVerifier(verifier, cfg, id);
    }

    /**
     * The engine, checking signatures with {@code preVerifier} ({@link #preVerifier}), passed through the
     * {@link EngineDecorator}s on the class path (none in a deployment).
     */
    Engine build(Verifier preVerifier) {
        return EngineDecorator.applyAll(buildEngine(preVerifier),
                new EngineDecorator.Context(cfg, id, signer, ordering));
    }

    private Engine buildEngine(Verifier preVerifier) {
        // Configuration III (BFT-WS §3.3.3): an execution node steps core's ExecutionNode, which orders nothing.
        if (cfg.isExecutionNode(id)) {
            if (confidential != null) {
                throw new IllegalArgumentException("configuration III's execution nodes hold no decryption share:"
                        + " no confidential operations");
            }
            refuseJournal();
            return new ExecutionNode(cfg, id, signer, preVerifier).replicatedClients(replicatedClients);
        }
        return switch (ordering) {
            case PBFT -> pbftReplica(preVerifier);
            case ASYNC -> asyncReplica(preVerifier);
            case HYBRID -> hybridReplica(preVerifier);
        };
    }

    private Engine pbftReplica(Verifier preVerifier) {
        Replica.Builder b = Replica.builder(cfg, id, signer, preVerifier).randomness(randomness).macs(macs);
        if (changingKeys) {
            b.changingKeys();
        }
        Replica r = b.build().readOnlyOperations(readOnly);
        if (journal != null) {
            r.journaled();
        }
        r.replicatedClients(replicatedClients);
        if (confidential == null && awaitingKeys != null) {
            return r.confidentialOperationsAwaitingKeys(awaitingKeys);
        }
        return confidential == null ? r : r.confidentialOperations(confidential);
    }

    /** SINTRA's engine: its binary agreements and the randomized requests share the group's CT coin. */
    private Engine asyncReplica(Verifier preVerifier) {
        refuseForChannel();
        AsyncReplica r = AsyncReplica.builder(cfg, id, signer, preVerifier).coin(randomness.coins())
                .operations(randomness.operations()).build();
        if (journal != null) {
            r.journaled();
        }
        return confidential == null ? r : r.confidentialOperations(confidential);
    }

    /** The hybrid engine: its fallback's binary agreements and the randomized requests share the CT coin. */
    private Engine hybridReplica(Verifier preVerifier) {
        refuseForChannel();
        HybridReplica r = HybridReplica.builder(cfg, id, signer, preVerifier).coin(randomness.coins())
                .operations(randomness.operations()).macs(macs).build();
        if (journal != null) {
            r.journaled();
        }
        return confidential == null ? r : r.confidentialOperations(confidential);
    }

    /** What the asynchronous and hybrid engines do not run (BftwsParameters refuses it first, naming the key). */
    private void refuseForChannel() {
        String mode = ordering.configValue() + " ordering";
        if (randomness.algorithm() != RandomnessConfig.Algorithm.CT) {
            throw new IllegalArgumentException(mode + " needs the group's threshold coin (CT randomness), got "
                    + randomness.algorithm());
        }
        if (cfg.separatesExecution()) {
            throw new IllegalArgumentException(mode + " runs configuration I only: every replica executes");
        }
        if (changingKeys) {
            throw new IllegalArgumentException(mode + " runs with the keys it starts with");
        }
        if (!replicatedClients.isEmpty()) {
            throw new IllegalArgumentException(mode + " takes no replicated clients");
        }
    }

    private void refuseJournal() {
        if (journal != null) {
            throw new IllegalArgumentException("only ordering replicas keep a journal, not the " + describe());
        }
    }

    /** The ordering mode as operators read it (status line, MBean). */
    String describe() {
        if (cfg.isExecutionNode(id)) {
            return "execution node of configuration III (agreement by " + cfg.n() + " PBFT replicas)";
        }
        if (ordering == Ordering.ASYNC) {
            return "asynchronous (SINTRA atomic broadcast), randomness " + randomness.algorithm();
        }
        if (ordering == Ordering.HYBRID) {
            return "hybrid (fast lane, SINTRA agreement as fallback), randomness " + randomness.algorithm()
                    + ", lane authentication " + (macs == null ? Authentication.SIGNATURES : Authentication.MACS).label();
        }
        return "PBFT " + Role.of(cfg, id) + ", randomness " + randomness.algorithm() + ", authentication "
                + (macs == null ? Authentication.SIGNATURES : Authentication.MACS).label();
    }
}
