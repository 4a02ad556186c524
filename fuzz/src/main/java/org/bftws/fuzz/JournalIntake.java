package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Vote;
import org.bftws.core.pbft.Replica;
import org.bftws.core.testkit.TestKeys;

/**
 * What a PBFT replica reads from its journal when it restarts ({@link Journal.Record#decode}, then {@link
 * Replica#recover} on a fresh journaled replica; docs/journal.md): the records a backup of a group of four
 * persisted for a pre-prepared, prepared and committed batch, then mutations of one of them among the others.
 * A damaged journal is refused with {@link IllegalArgumentException} ("journal: ..."), which the module reports
 * at start-up; a record that does not decode is cut off by the journal's file layer ({@link DecodeException}).
 * Anything else thrown is a crash. A file's CRC catches random damage first; this is the layer below it, for a
 * record whose frame checks out (a bug that wrote it, or an attacker with the disk who recomputed the CRC).
 */
final class JournalIntake implements Target {
    private final TestKeys keys;
    private final GroupConfig cfg = GroupConfig.defaults();
    private final List<Journal.Record> persisted = new ArrayList<>();
    private final List<byte[]> corpus = new ArrayList<>();
    private String lastFinding = "";

    JournalIntake(long seed) {
        this.keys = TestKeys.seeded(5, seed);
        Replica backup = fresh();
        Request q = new Request(4, "urn:fuzz:4", 1, false, "op".getBytes(StandardCharsets.UTF_8));
        Signed request = Signed.sign(Kind.REQUEST, 4, q.encode(), keys.signer(4));
        PrePrepare pp = PrePrepare.of(0, 1, List.of(request));
        List<byte[]> messages = List.of(request.encode(),
                Signed.sign(Kind.PRE_PREPARE, 0, pp.encode(), keys.signer(0)).encode(),
                Signed.sign(Kind.PREPARE, 2, new Vote(0, 1, pp.digest()).encode(), keys.signer(2)).encode(),
                Signed.sign(Kind.PREPARE, 3, new Vote(0, 1, pp.digest()).encode(), keys.signer(3)).encode(),
                Signed.sign(Kind.COMMIT, 2, new Vote(0, 1, pp.digest()).encode(), keys.signer(2)).encode(),
                Signed.sign(Kind.COMMIT, 3, new Vote(0, 1, pp.digest()).encode(), keys.signer(3)).encode());
        for (byte[] m : messages) {
            Ready r = backup.receive(m);
            persisted.addAll(r.persist);
        }
        if (persisted.isEmpty()) {
            throw new IllegalStateException("the backup persisted nothing: no journal to fuzz");
        }
        for (Journal.Record rec : persisted) {
            corpus.add(rec.encode());
        }
    }

    private Replica fresh() {
        return Replica.builder(cfg, 1, keys.signer(1), keys.verifier()).build().journaled();
    }

    @Override
    public String name() {
        return "journal";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    @Override
    public Outcome feed(byte[] input) {
        Journal.Record damaged;
        try {
            damaged = Journal.Record.decode(input);
        } catch (DecodeException | IllegalArgumentException cutOff) {
            return Outcome.HANDLED;
        } catch (RuntimeException | Error e) {
            lastFinding = "decode: " + e;
            return Outcome.CRASH;
        }
        List<Journal.Record> journal = new ArrayList<>(persisted);
        journal.add(Math.floorMod(input.length, journal.size() + 1), damaged);
        try {
            fresh().recover(journal);
        } catch (IllegalArgumentException refused) {
            return Outcome.HANDLED;
        } catch (RuntimeException | Error e) {
            lastFinding = "recover: " + e;
            return Outcome.CRASH;
        }
        return Outcome.HANDLED;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
