package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Engine;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.FetchState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Status;
import org.bftws.core.message.Vote;
import org.bftws.core.pbft.Replica;
import org.bftws.core.testkit.TestKeys;

/**
 * Core's PBFT engine as a replica's control port feeds it ({@link Engine#receive}, the bytes of a control
 * message): a backup of a group of four, given one authentic message of each kind first (a client's request, the
 * primary's pre-prepare, prepares, commits, a checkpoint, a status, a state fetch), then mutations of them. A
 * mutated message is no authentic one (its signature covers every byte, and authentic duplicates were already
 * received), so it must change nothing: view, execution, checkpoint, pending requests, log, activity.
 */
final class EngineIntake implements Target {
    private static final int CLIENT = 4;
    private final Engine engine;
    private final List<byte[]> corpus = new ArrayList<>();
    private String lastFinding = "";

    EngineIntake(long seed) {
        GroupConfig cfg = GroupConfig.defaults();
        TestKeys keys = TestKeys.seeded(5, seed);
        this.engine = Replica.builder(cfg, 1, keys.signer(1), keys.verifier()).build();
        Request q = new Request(CLIENT, "urn:fuzz:" + CLIENT, 1, false, "op".getBytes(StandardCharsets.UTF_8));
        Signed request = Signed.sign(Kind.REQUEST, CLIENT, q.encode(), keys.signer(CLIENT));
        PrePrepare pp = PrePrepare.of(0, 1, List.of(request));
        byte[] state = new byte[32];
        corpus.add(request.encode());
        corpus.add(Signed.sign(Kind.PRE_PREPARE, 0, pp.encode(), keys.signer(0)).encode());
        corpus.add(Signed.sign(Kind.PREPARE, 2, new Vote(0, 1, pp.digest()).encode(), keys.signer(2)).encode());
        corpus.add(Signed.sign(Kind.COMMIT, 3, new Vote(0, 1, pp.digest()).encode(), keys.signer(3)).encode());
        corpus.add(Signed.sign(Kind.CHECKPOINT, 2, new Checkpoint(cfg.checkpointInterval(), state,
                Checkpoint.NO_EXECUTION).encode(), keys.signer(2)).encode());
        corpus.add(Signed.sign(Kind.STATUS, 3, new Status(0, true, 0, 0).encode(), keys.signer(3)).encode());
        corpus.add(Signed.sign(Kind.FETCH_STATE, 2, new FetchState(0).encode(), keys.signer(2)).encode());
        for (byte[] m : corpus) {
            engine.receive(m); // the authentic ones change what they may, once
        }
    }

    @Override
    public String name() {
        return "engine";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    private String state() {
        return engine.view() + "/" + engine.isActive() + "/" + engine.lastExecuted() + "/" + engine.stableCheckpoint()
                + "/" + engine.pendingRequests() + "/" + engine.logSize();
    }

    @Override
    public Outcome feed(byte[] input) {
        String before = state();
        try {
            engine.receive(input);
        } catch (RuntimeException | Error e) {
            lastFinding = e.toString();
            return Outcome.CRASH;
        }
        String after = state();
        if (!after.equals(before)) {
            lastFinding = "view/active/executed/stable/pending/log " + before + " -> " + after;
            return Outcome.STATE_CHANGE;
        }
        return Outcome.HANDLED;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
