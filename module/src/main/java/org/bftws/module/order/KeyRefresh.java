package org.bftws.module.order;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.security.SecureRandom;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.dkg.GroupRefresh;
import org.bftws.core.dkg.RefreshCheckpoint;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyEpochFiles;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.core.message.Request;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.keys.GroupKeyMaterial;
import org.bftws.module.random.DeclaredOperations;
import org.bftws.module.rm.SequenceIds;

/**
 * The proactive refresh of a group's generated keys (Herzberg-Jarecki-Krawczyk-Yung, CRYPTO 1995, §3) over the
 * group's own PBFT ordering: core's {@link GroupRefresh}, its operations ordered as requests of this replica's
 * reserved node id ({@link ReservedSubmitter}, as the key generation's, {@link DkgBootstrap}).
 *
 * <p>A replica votes for the next epoch on the operator's command ({@link #requestRefresh}, the {@link
 * KeyRefreshMBean} that {@code scripts/refresh-keys} calls) or, with {@code bftws.keys.refreshEveryCheckpoints}
 * = N, each time its stable checkpoint passes the next multiple of N checkpoints. Where the votes of f+1
 * replicas are ordered, every replica starts the refresh at that point of the sequence; at the seq s of the
 * ordered operation that completes it, each writes its new share, epoch e's verification keys and e with s
 * ({@link KeyEpochFiles}: the new files forced to disk before they replace the old share), then installs the
 * new keys in its engine ({@link TotalOrderManager#installKeys}): they serve every request ordered after s, at
 * every correct replica alike. {@code group.pub} stays as certified: clients and beacons keep it.
 *
 * <p><b>A replica back from a refresh it missed.</b> The refresh's agreed state (epoch, the epoch's verification
 * keys, the seq it took effect after, the votes and asks counted, a running run's operations) is part of every
 * checkpoint ({@link #stateRecord}, {@link KeyState}), so a replica that installs one by state transfer, or from its
 * journal at restart, learns the group's epoch from 2f+1 replicas' certified state ({@link #restore}). If its data
 * directory holds no share of that epoch it asks for one ({@link GroupRefresh#recover}); where the ask is ordered
 * the replicas redistribute the current keys to the same members (Desmedt-Jajodia), and this replica writes its new
 * share like a refresh's and installs it at the seq that completed the redistribution, with no restart. A run that
 * leaves it without a share (a refresh it joined without its old share) makes it ask the same way.
 */
public final class KeyRefresh implements KeyRefreshMBean {
    private static final Logger LOG = LogManager.getLogger(KeyRefresh.class);

    private final BftwsConfig config;
    private final GroupKeyMaterial keys;
    private final DeclaredOperations declared;
    private final ReservedSubmitter submitter;
    private final int everyCheckpoints;
    private GroupRefresh refresh;
    /** The epoch this replica's refresh state machine reached: the next vote is for epoch + 1. */
    private volatile long epoch;
    /**
     * The epoch of the keys installed in the engine (what {@link #getEpoch} reports): behind {@link #epoch} after a
     * refresh that ended during a journal's replay before {@link #start} (its files are written, the engine keeps
     * the keys it started with until the next start) or without a share for this replica.
     */
    private volatile long installedEpoch;
    private volatile boolean running;
    /** The seq after which the current epoch's keys serve (-1: the key generation's, or not known). */
    private long afterSeq = -1;
    /** The epoch of the share in the data directory, that epoch's public keys and the share (null: none). */
    private long diskEpoch;
    private GroupKeys diskGroup;
    private ReplicaKeys diskKeys;
    /** Set before the journal's replay: the seq of the executing batch, and where new keys are installed. */
    private volatile TotalOrderManager manager;
    /** System.nanoTime() of this replica's last ask for its share; 0: none outstanding. */
    private long askedNanos;
    private volatile long lastRecoveryMillis = -1;
    /** The stable checkpoint's seq at which this replica votes next (every-N-checkpoints); -1: not yet known. */
    private long nextVoteAt = -1;
    private long startedNanos;
    private long operations;
    private long operationBytes;
    private volatile long lastMillis = -1;
    private volatile long lastBytes = -1;
    private ObjectName name;

    /**
     * A replica of a group without a dealer; {@code keys} in use (not pending) are those of the epoch its data
     * directory records.
     */
    public KeyRefresh(BftwsConfig config, GroupKeyMaterial keys, DeclaredOperations declared) {
        this.config = config;
        this.keys = keys;
        this.declared = declared;
        this.everyCheckpoints = config.refreshEveryCheckpoints();
        // fresh ids with a birth time (RFC 9562 version 7): the client table prunes them once idle for the
        // retention, as a client's, so refreshes over the group's life leave a bounded table
        int node = keys.pending().submitter(config.replicaId());
        this.submitter = new ReservedSubmitter(config, node, keys.signer(), n -> SequenceIds.newBornSequence(node));
        if (!keys.keysPending()) {
            KeyEpochFiles.Epoch e;
            try {
                e = KeyEpochFiles.read(config.dataDir());
            } catch (org.bftws.core.keys.KeyFileException x) {
                throw new IllegalStateException("the data directory's key epoch cannot be read: " + x.getMessage(), x);
            }
            epoch = e.epoch();
            installedEpoch = e.epoch();
            afterSeq = e.afterSeq();
            diskEpoch = e.epoch();
            diskGroup = keys.group();
            diskKeys = new ReplicaKeys(config.replicaId() + 1, keys.share(), keys.decryption(),
                    keys.pending().identity().signingKey());
            keysInUse(keys.group(), diskKeys);
        }
    }

    /** The keys of the current epoch; from now on refresh votes count here. */
    synchronized void keysInUse(GroupKeys group, ReplicaKeys mine) {
        GroupKeyMaterial.Pending p = keys.pending();
        refresh = new GroupRefresh(p.members(), p.identity(), group, mine, epoch, new SecureRandom());
        diskGroup = group;
        diskKeys = mine;
    }

    /** The Total Order Manager, before it replays the journal. */
    public void attach(TotalOrderManager manager) {
        this.manager = manager;
    }

    /**
     * What the refresh decided from the agreed sequence, for the checkpoint the execution thread captures now:
     * the seq the epoch's keys serve after, then {@link GroupRefresh#checkpoint}'s bytes; empty before the key
     * generation ended (alike at every correct replica: it ends at one seq everywhere).
     */
    synchronized byte[] stateRecord() {
        if (refresh == null) {
            return new byte[0];
        }
        byte[] c = refresh.checkpoint().encode();
        return java.nio.ByteBuffer.allocate(8 + c.length).putLong(afterSeq).put(c).array();
    }

    /**
     * A checkpoint's record installed by state transfer or from the journal, on the execution thread: the refresh
     * resumes from it. A replica whose data directory holds no share of the checkpoint's epoch asks for its share.
     */
    synchronized void restore(byte[] record) {
        if (record.length == 0) {
            return; // a checkpoint from before the key generation ended: the keys this replica started with stay
        }
        if (refresh == null) {
            LOG.error("bftws replica {}: installed a checkpoint after the group's key generation, which it has not"
                    + " finished: recovering a share it never had is not built; it serves no randomized or confidential"
                    + " request", config.replicaId());
            return;
        }
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(record);
        long after = in.getLong();
        RefreshCheckpoint c = RefreshCheckpoint.decode(java.util.Arrays.copyOfRange(record, 8, record.length),
                config.n());
        if (!KeyFiles.sameGroupKeys(diskGroup, c.current())) {
            throw new IllegalStateException("a checkpoint's group keys are not this replica's group.pub");
        }
        boolean mine = diskEpoch == c.epoch()
                && KeyFiles.groupText(diskGroup).equals(KeyFiles.groupText(c.current()));
        GroupKeyMaterial.Pending p = keys.pending();
        refresh = GroupRefresh.resume(p.members(), p.identity(), c, mine ? diskKeys : null, new SecureRandom());
        long before = epoch;
        epoch = c.epoch();
        afterSeq = after;
        running = refresh.running();
        if (running) {
            startedNanos = System.nanoTime();
            operations = c.log().size();
            operationBytes = c.log().stream().mapToLong(l -> l.operation().length).sum();
        }
        if (mine || diskEpoch > c.epoch()) {
            // its own share, or a checkpoint older than its share, whose run the journal's batches replay
            return;
        }
        LOG.warn("bftws replica {}: the group's keys are at epoch {} (serving after seq {}), this replica's share is"
                + " of epoch {} (its refresh was at {}): {}", config.replicaId(), epoch, after, diskEpoch, before,
                running ? "following the running run, then asking for its share if it has none"
                        : "asking the group to recover its share");
        if (!running && c.recovered().contains(config.replicaId() + 1)) {
            // one recovery per replica between voted refreshes: this ask would count for nothing
            LOG.error("bftws replica {}: its ask already started a recovery since the last voted refresh, which ended"
                    + " without it: it stays without a share until the next refresh ({}), after which it asks again",
                    config.replicaId(), "scripts/refresh-keys");
            return;
        }
        if (!running) {
            ask();
        }
    }

    /** Asks the group to redistribute the current keys so that this replica holds a share again. */
    private void ask() {
        askedNanos = System.nanoTime();
        submitter.submit(refresh.recover().toOrder());
    }

    /** Wall-clock ms from this replica's last ask for its share to the share installed, -1 if none since start. */
    public long lastRecoveryMillis() {
        return lastRecoveryMillis;
    }

    /** Starts resending and the every-N-checkpoints votes, and registers the MBean. */
    public void start(BftwsReplica replica) {
        submitter.start(replica, "bftws-refresh-r" + config.replicaId(), this::tick);
        try {
            name = new ObjectName(ReplicaStatus.DOMAIN + ":type=KeyRefresh,group="
                    + ObjectName.quote(String.valueOf(config.groupEndpoint())) + ",id=" + config.replicaId());
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            if (server.isRegistered(name)) {
                server.unregisterMBean(name); // a replica restarted in this JVM replaces its own
            }
            server.registerMBean(this, name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("no MBean name for " + config.groupEndpoint(), e);
        } catch (JMException e) {
            LOG.warn("bftws replica {}: the key refresh MBean is not registered: {}", config.replicaId(), e.toString());
            name = null;
        }
    }

    public void close() {
        submitter.close();
        if (name != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                // already gone
            }
        }
    }

    @Override
    public long getEpoch() {
        return installedEpoch;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Wall-clock ms from the start of the last refresh to its end here, -1 if none ended since start. */
    public long lastRefreshMillis() {
        return lastMillis;
    }

    /** Bytes of the operations the last refresh ordered, -1 if none ended since start. */
    public long lastRefreshBytes() {
        return lastBytes;
    }

    @Override
    public synchronized String requestRefresh(long fromEpoch) {
        if (refresh == null) {
            return "replica " + config.replicaId() + ": no generated keys yet: nothing to refresh";
        }
        if (refresh.running()) {
            return "replica " + config.replicaId() + ": the refresh to epoch " + (epoch + 1) + " is running";
        }
        if (epoch != fromEpoch) {
            return "replica " + config.replicaId() + ": refresh at epoch " + epoch + ", not " + fromEpoch + ": no vote";
        }
        submitter.submit(refresh.request().toOrder());
        LOG.info("bftws replica {}: voted for a refresh of the keys to epoch {}", config.replicaId(), epoch + 1);
        return "replica " + config.replicaId() + ": voted for epoch " + (epoch + 1);
    }

    /** On the resend timer: the every-N-checkpoints vote. */
    private void tick() {
        if (everyCheckpoints <= 0) {
            return;
        }
        long stable = submitter.replica().manager().stableCheckpoint();
        long period = (long) everyCheckpoints * config.group().checkpointInterval();
        boolean vote;
        synchronized (this) {
            if (nextVoteAt < 0) {
                nextVoteAt = (stable / period + 1) * period;
            }
            vote = stable >= nextVoteAt;
            if (vote) {
                nextVoteAt = (stable / period + 1) * period;
            }
        }
        if (vote) {
            LOG.info("bftws replica {}: stable checkpoint {} passed a multiple of {}={} checkpoints", config.replicaId(),
                    stable, BftwsKeys.KEYS_REFRESH_EVERY_CHECKPOINTS.name(), everyCheckpoints);
            requestRefresh(epoch);
        }
    }

    /** An executed refresh operation of replica {@code from} (0..n-1): the next of the agreed sequence. */
    synchronized void ordered(int from, Request request) {
        if (from == config.replicaId()) {
            submitter.executed(request);
        }
        if (refresh == null) {
            return; // before the key generation ended: no keys to refresh, alike at every correct replica
        }
        GroupRefresh.Step step = refresh.deliver(from + 1, request.operation());
        if (step.started()) {
            running = true;
            startedNanos = System.nanoTime();
            operations = 0;
            operationBytes = 0;
            if (refresh.recovering()) {
                LOG.info("bftws replica {}: replica {} asked to recover its share: redistributing the keys to epoch {}",
                        config.replicaId(), from, epoch + 1);
            } else {
                LOG.info("bftws replica {}: f+1 replicas voted: refreshing the keys to epoch {}", config.replicaId(),
                        epoch + 1);
            }
        }
        if (running) {
            operations++;
            operationBytes += request.operation().length;
        }
        for (String fault : step.faults()) {
            LOG.warn("bftws replica {}: key refresh: {}", config.replicaId(), fault);
        }
        if (step.output() != null) {
            renewed(step.output());
        }
        submitter.submit(step.toOrder());
    }

    private void renewed(GroupRefresh.Output out) {
        running = false;
        TotalOrderManager m = manager;
        long seq = m == null ? -1 : m.executingSeq();
        epoch = out.epoch();
        afterSeq = seq;
        lastMillis = (System.nanoTime() - startedNanos) / 1_000_000;
        lastBytes = operationBytes;
        ReplicaKeys mine = out.keys();
        boolean onDisk = mine == null && diskEpoch == epoch
                && KeyFiles.groupText(diskGroup).equals(KeyFiles.groupText(out.group()));
        if (onDisk) {
            mine = diskKeys; // a run its journal replays, which ended here before: its share is on disk
        }
        if (mine == null) {
            // the engine's coin and TDH2 need a share: it keeps epoch installedEpoch's keys, checking the others'
            // new shares against that epoch's verification keys, until the share is recovered
            LOG.warn("bftws replica {}: the run to epoch {} ended without a share for this replica: asking the group"
                    + " to recover it; its engine keeps the keys of epoch {} until then", config.replicaId(), epoch,
                    installedEpoch);
            ask();
            return;
        }
        if (!onDisk) {
            write(mine, out.group(), seq);
        }
        boolean recovered = askedNanos != 0;
        if (recovered) { // before the epoch is reported: who waits for the epoch may read the time
            lastRecoveryMillis = (System.nanoTime() - askedNanos) / 1_000_000;
            askedNanos = 0;
        }
        if (m != null) {
            m.installKeys(DkgBootstrap.keySet(config, keys, declared, out.group(), mine));
            installedEpoch = epoch;
        }
        if (recovered) {
            LOG.info("bftws replica {}: recovered its share: keys of epoch {} {} ms after it asked, the redistribution"
                    + " over {} ordered operations ({} bytes) in {} ms; they serve the requests ordered after seq {}",
                    config.replicaId(), epoch, lastRecoveryMillis, operations, operationBytes, lastMillis, seq);
        } else {
            LOG.info("bftws replica {}: keys refreshed to epoch {} in {} ms over {} ordered operations ({} bytes);"
                    + " wrote {}, {} and {}; they serve the requests ordered after seq {}", config.replicaId(), epoch,
                    lastMillis, operations, operationBytes, KeyEpochFiles.VK_FILE,
                    KeyFiles.replicaFileName(config.replicaId() + 1), KeyEpochFiles.EPOCH_FILE, seq);
        }
    }

    /** Epoch {@link #epoch}'s files, forced to disk before they replace the old share ({@link KeyEpochFiles}). */
    private void write(ReplicaKeys mine, GroupKeys group, long seq) {
        try {
            KeyEpochFiles.write(config.dataDir(), new KeyEpochFiles.Epoch(epoch, seq), group, mine);
            diskEpoch = epoch;
            diskGroup = group;
            diskKeys = mine;
        } catch (IOException e) {
            // the new keys still serve here; a restart would find the old share, which no longer combines
            LOG.error("bftws replica {}: cannot write the refreshed keys to {}: {}", config.replicaId(),
                    config.dataDir(), e.toString());
        }
    }

}
