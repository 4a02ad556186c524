package org.bftws.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import org.bftws.core.engine.Journal;
import org.bftws.module.config.JournalDurability;
import org.bftws.module.journal.JournalStore;

/**
 * The journal's file layer, as a replica reads it at start-up ({@link JournalStore#open}: frames of [length][CRC32]
 * [record], a torn or damaged tail cut off and truncated away; docs/journal.md): the files {@link JournalStore}
 * writes for a PBFT backup's records and for an asynchronous replica's (compacted at its stable checkpoint), then
 * mutations. There is no refusal: damage is cut off, so anything thrown is a crash. A state change is a record
 * loaded that the replica never persisted (damage the CRC let through), or a file that does not read the same once
 * reopened, or loses a record appended after the cut.
 */
final class JournalFileIntake implements Target {
    private final Path dir;
    private final Set<String> authentic = new HashSet<>();
    private final Journal.Record appended;
    private final List<byte[]> corpus = new ArrayList<>();
    private String lastFinding = "";

    JournalFileIntake(List<Journal.Record> pbft, List<Journal.Record> async) {
        try {
            dir = Scratch.directory("bftws-fuzz-journal");
            for (List<Journal.Record> journal : List.of(pbft, async)) {
                Files.deleteIfExists(dir.resolve(JournalStore.FILE));
                try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
                    for (Journal.Record r : journal) {
                        store.append(List.of(r));
                        authentic.add(hex(r));
                    }
                }
                corpus.add(Files.readAllBytes(dir.resolve(JournalStore.FILE)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        appended = pbft.get(0);
    }

    private static String hex(Journal.Record r) {
        return HexFormat.of().formatHex(r.encode());
    }

    @Override
    public String name() {
        return "journal-file";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    @Override
    public Outcome feed(byte[] input) {
        List<Journal.Record> loaded;
        List<Journal.Record> reloaded;
        List<Journal.Record> afterAppend;
        try {
            Files.write(dir.resolve(JournalStore.FILE), input);
            try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
                loaded = store.load();
            }
            try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
                reloaded = store.load();
                store.append(List.of(appended));
            }
            try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
                afterAppend = store.load();
            }
        } catch (IOException | RuntimeException | Error e) {
            lastFinding = e.toString();
            return Outcome.CRASH;
        }
        for (Journal.Record r : loaded) {
            if (!authentic.contains(hex(r))) {
                lastFinding = "loaded a record never persisted: " + r.type() + " seq " + r.seq();
                return Outcome.STATE_CHANGE;
            }
        }
        List<String> once = loaded.stream().map(JournalFileIntake::hex).toList();
        List<String> expected = new ArrayList<>(once);
        expected.add(hex(appended));
        if (!once.equals(reloaded.stream().map(JournalFileIntake::hex).toList())
                || !expected.equals(afterAppend.stream().map(JournalFileIntake::hex).toList())) {
            lastFinding = "reopened, the file reads " + reloaded.size() + " then " + afterAppend.size()
                    + " records, not " + loaded.size() + " then " + expected.size();
            return Outcome.STATE_CHANGE;
        }
        return Outcome.HANDLED;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
