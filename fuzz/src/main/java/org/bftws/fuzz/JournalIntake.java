package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
 * What is refused and what is a crash: {@link JournalRecords}. A file's CRC catches random damage first
 * ({@link JournalFileIntake}); this is the layer below it, for a record whose frame checks out (a bug that wrote
 * it, or an attacker with the disk who recomputed the CRC).
 */
final class JournalIntake implements Target {
    private final TestKeys keys;
    private final GroupConfig cfg = GroupConfig.defaults();
    private final JournalRecords records;

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
        List<Journal.Record> persisted = new ArrayList<>();
        for (byte[] m : messages) {
            Ready r = backup.receive(m);
            persisted.addAll(r.persist);
        }
        this.records = new JournalRecords(persisted);
    }

    private Replica fresh() {
        return Replica.builder(cfg, 1, keys.signer(1), keys.verifier()).build().journaled();
    }

    /** The records the replica persisted: authentic journal contents. */
    List<Journal.Record> persisted() {
        return records.persisted();
    }

    @Override
    public String name() {
        return "journal";
    }

    @Override
    public List<byte[]> corpus() {
        return records.corpus();
    }

    @Override
    public Outcome feed(byte[] input) {
        return records.feed(input, journal -> fresh().recover(journal));
    }

    @Override
    public String lastFinding() {
        return records.lastFinding();
    }
}
