package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.async.AsyncReplica;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.engine.Journal;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.testkit.EffectPerformer;
import org.bftws.core.testkit.EngineHarness;
import org.bftws.core.testkit.HashChainApp;
import org.bftws.core.testkit.Scheduler;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.testkit.TestRandom;

/**
 * What an asynchronous replica reads from its journal when it restarts ({@link Journal.Record#decode}, then {@link
 * AsyncReplica#recover} on a fresh journaled replica; docs/journal.md): the records replica 1 of a group of four
 * persisted while the group ordered two requests (its committing messages of each protocol instance, its stable
 * checkpoint), then mutations of one of them among the others. What is refused and what is a crash: {@link
 * JournalRecords}.
 */
final class AsyncJournalIntake implements Target {
    private static final ThresholdScheme CKS = Thresholds.scheme(SchemeId.CKS);
    private static final int REPLICA = 1;
    private final GroupConfig cfg = GroupConfig.builder().set(GroupConfig.CHECKPOINT_INTERVAL, 2).build();
    private final TestKeys keys;
    private final Dealt coins;
    private final JournalRecords records;

    AsyncJournalIntake(long seed) {
        this.keys = TestKeys.seeded(5, seed);
        this.coins = CKS.deal(new ThresholdParams(4, 2, 1), TestRandom.seeded(seed));
        List<Journal.Record> persisted = new ArrayList<>();
        List<HashChainApp> apps = List.of(new HashChainApp(), new HashChainApp(), new HashChainApp(),
                new HashChainApp());
        EngineHarness group = new EngineHarness(cfg, keys, (i, c, k) -> i < 4 ? fresh(i) : null, Scheduler.fifo())
                .services(i -> EffectPerformer.of(apps.get(i))).router(EngineHarness.Router.replicas(4))
                .observer((i, r) -> {
                    if (i == REPLICA) {
                        persisted.addAll(r.persist);
                    }
                }).receiver((to, bytes) -> { }).maxSteps(100_000, "the group of four does not quiesce");
        for (int i = 0; i < 4; i++) {
            group.start(i);
        }
        for (long m = 1; m <= 2; m++) {
            Request q = new Request(4, "urn:fuzz:4", m, false, ("op" + m).getBytes(StandardCharsets.UTF_8));
            byte[] request = Signed.sign(Kind.REQUEST, 4, q.encode(), keys.signer(4)).encode();
            for (int i = 0; i < 4; i++) {
                group.post(new EngineHarness.Msg(4, i, request));
            }
            group.run();
        }
        this.records = new JournalRecords(persisted);
    }

    private AsyncReplica fresh(int i) {
        CoinConfig coin = new CoinConfig(CKS, coins.group(), coins.share(i + 1), new byte[0]);
        return AsyncReplica.builder(cfg, i, keys.signer(i), keys.verifier()).coin(coin).build().journaled();
    }

    /** The records the replica persisted: authentic journal contents. */
    List<Journal.Record> persisted() {
        return records.persisted();
    }

    @Override
    public String name() {
        return "async-journal";
    }

    @Override
    public List<byte[]> corpus() {
        return records.corpus();
    }

    @Override
    public Outcome feed(byte[] input) {
        return records.feed(input, journal -> fresh(REPLICA).recover(journal));
    }

    @Override
    public String lastFinding() {
        return records.lastFinding();
    }
}
