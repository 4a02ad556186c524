package org.bftws.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Journal;

/**
 * The journal targets' common part: a replica's persisted records as the corpus, and one input fed as a damaged
 * record among them to a fresh replica's recovery. A record that does not decode is cut off by the journal's file
 * layer ({@link DecodeException}); a damaged journal is refused with {@link IllegalArgumentException}
 * ("journal: ..."), which the module reports at start-up. Anything else thrown is a crash.
 */
final class JournalRecords {
    private final List<Journal.Record> persisted;
    private final List<byte[]> corpus = new ArrayList<>();
    private String lastFinding = "";

    JournalRecords(List<Journal.Record> persisted) {
        if (persisted.isEmpty()) {
            throw new IllegalStateException("the replica persisted nothing: no journal to fuzz");
        }
        this.persisted = List.copyOf(persisted);
        for (Journal.Record rec : persisted) {
            corpus.add(rec.encode());
        }
    }

    /** The authentic records, in the order the replica persisted them. */
    List<Journal.Record> persisted() {
        return persisted;
    }

    List<byte[]> corpus() {
        return corpus;
    }

    /** Decodes {@code input} and hands the journal with it inserted to {@code recover} (a fresh replica's). */
    Target.Outcome feed(byte[] input, Consumer<List<Journal.Record>> recover) {
        Journal.Record damaged;
        try {
            damaged = Journal.Record.decode(input);
        } catch (DecodeException | IllegalArgumentException cutOff) {
            return Target.Outcome.HANDLED;
        } catch (RuntimeException | Error e) {
            lastFinding = "decode: " + e;
            return Target.Outcome.CRASH;
        }
        List<Journal.Record> journal = new ArrayList<>(persisted);
        journal.add(Math.floorMod(input.length, journal.size() + 1), damaged);
        try {
            recover.accept(journal);
        } catch (IllegalArgumentException refused) {
            return Target.Outcome.HANDLED;
        } catch (RuntimeException | Error e) {
            lastFinding = "recover: " + e;
            return Target.Outcome.CRASH;
        }
        return Target.Outcome.HANDLED;
    }

    String lastFinding() {
        return lastFinding;
    }
}
