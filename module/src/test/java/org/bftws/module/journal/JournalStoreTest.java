package org.bftws.module.journal;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Journal.Record;
import org.bftws.core.engine.Journal.Type;
import org.bftws.module.config.JournalDurability;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The journal file: what is appended is loaded back after a reopen, in order; a torn or damaged tail is dropped
 * and cut off (appends go on after it); compaction on every stable checkpoint bounds the file; a crash during
 * compaction leaves the journal loadable. Record contents come from a seeded {@link Random}; the seed is in
 * every failure message.
 */
public class JournalStoreTest {
    private static final long SEED = Long.getLong("bftws.test.seed", System.nanoTime());

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    private final Random random = new Random(SEED);

    @Test
    public void recordsAppendedAreLoadedAfterAReopenInOrder() throws IOException {
        for (JournalDurability d : JournalDurability.values()) {
            Path dir = tmp.newFolder(d.configValue()).toPath().resolve("data");
            List<Record> written = new ArrayList<>();
            try (JournalStore store = JournalStore.open(dir, d)) {
                assertTrue("a new journal is empty", store.load().isEmpty());
                for (int step = 0; step < 20; step++) {
                    List<Record> batch = List.of(record(Type.SIGNED, step), record(Type.PREPARED, step));
                    store.append(batch);
                    written.addAll(batch);
                }
                store.append(List.of());
            }
            try (JournalStore store = JournalStore.open(dir, d)) {
                assertRecords(written, store.load());
            }
        }
    }

    @Test
    public void aTornTailRecordIsDroppedAndCutOff() throws IOException {
        Path dir = tmp.getRoot().toPath();
        List<Record> whole = List.of(record(Type.VIEW, 0), record(Type.SIGNED, 1), record(Type.SIGNED, 2));
        Record tail = record(Type.PREPARED, 3);
        long intact;
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            store.append(whole);
            intact = store.size();
            store.append(List.of(tail));
        }
        Path file = dir.resolve(JournalStore.FILE);
        long full = Files.size(file);
        for (long cut = full - 1; cut > intact; cut -= 1 + random.nextInt(7)) {
            truncate(file, cut);
            try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
                assertRecords(whole, store.load());
                assertEquals(seed() + "the torn bytes are cut off at " + cut, intact, Files.size(file));
            }
            try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
                store.append(List.of(tail)); // the same bytes again, torn shorter next time
            }
        }
        Record next = record(Type.SIGNED, 4);
        truncate(file, intact + 5);
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            store.append(List.of(next));
        }
        List<Record> expected = new ArrayList<>(whole);
        expected.add(next);
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            assertRecords(expected, store.load());
        }
    }

    @Test
    public void aRecordFailingItsCrcEndsTheJournal() throws IOException {
        Path dir = tmp.getRoot().toPath();
        List<Record> all = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            all.add(record(Type.SIGNED, i));
        }
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            store.append(all);
        }
        Path file = dir.resolve(JournalStore.FILE);
        byte[] bytes = Files.readAllBytes(file);
        int damaged = 6;
        int start = 0;
        for (int i = 0; i < damaged; i++) {
            start += 8 + all.get(i).encode().length;
        }
        int at = start + 8 + random.nextInt(all.get(damaged).encode().length);
        bytes[at] ^= (byte) (1 + random.nextInt(255));
        Files.write(file, bytes);
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            assertRecords(all.subList(0, damaged), store.load());
            assertEquals(seed() + "cut at the damaged record", start, store.size());
        }
    }

    @Test
    public void compactionAtEachStableCheckpointBoundsTheFile() throws IOException {
        Path dir = tmp.getRoot().toPath();
        int interval = 8;
        long largest = 0;
        long afterFirstWindow = 0;
        try (JournalStore store = JournalStore.open(dir, JournalDurability.FSYNC)) {
            store.append(List.of(record(Type.VIEW, 0)));
            for (long seq = 1; seq <= 100 * interval; seq++) {
                store.append(List.of(record(Type.SIGNED, seq), record(Type.PREPARED, seq)));
                if (seq % interval == 0) {
                    store.append(List.of(record(Type.STABLE, seq - interval / 2)));
                }
                largest = Math.max(largest, Files.size(dir.resolve(JournalStore.FILE)));
                if (seq == 2 * interval) {
                    afterFirstWindow = largest;
                }
            }
            long stable = 100 * interval - interval / 2;
            for (Record r : store.load()) {
                assertTrue("kept " + r.type() + " at " + r.seq(), r.type() == Type.VIEW || r.seq() >= stable);
            }
        }
        // record sizes vary with the seeded bodies: allow the largest window twice the first ones
        assertTrue(seed() + "largest " + largest + " vs " + afterFirstWindow, largest <= 2 * afterFirstWindow);
        try (JournalStore store = JournalStore.open(dir, JournalDurability.OS)) {
            List<Record> loaded = store.load();
            assertEquals(List.of(100L * interval - interval / 2),
                    loaded.stream().filter(r -> r.type() == Type.STABLE).map(Record::seq).toList());
            assertEquals(1, loaded.stream().filter(r -> r.type() == Type.VIEW).count());
            assertEquals("the records above the checkpoint", 2 * (interval / 2),
                    loaded.stream().filter(r -> r.type() == Type.SIGNED || r.type() == Type.PREPARED).count());
        }
    }

    @Test
    public void aCrashBetweenTheTemporaryFileAndTheRenameLeavesTheOldJournal() throws IOException {
        Path dir = tmp.getRoot().toPath();
        List<Record> before = List.of(record(Type.STABLE, 4), record(Type.VIEW, 0), record(Type.SIGNED, 5));
        try (JournalStore store = JournalStore.open(dir, JournalDurability.FSYNC)) {
            store.append(before);
        }
        List<Record> compacted = Journal.compact(before);
        // the compaction to come had written (part of) its temporary file when the process died
        Path temp = dir.resolve(JournalStore.TEMP);
        Files.write(temp, new byte[] {0, 0, 0, 42, 1, 2, 3});
        try (JournalStore store = JournalStore.open(dir, JournalDurability.FSYNC)) {
            assertRecords(compacted, store.load());
            assertFalse("the temporary file is discarded", Files.exists(temp));
            store.append(List.of(record(Type.STABLE, 8)));
        }
        try (JournalStore store = JournalStore.open(dir, JournalDurability.FSYNC)) {
            List<Record> loaded = store.load();
            assertEquals(List.of(Type.VIEW, Type.STABLE), loaded.stream().map(Record::type).toList());
            assertEquals(8, loaded.get(1).seq());
        }
    }

    private Record record(Type type, long seq) {
        byte[] body = new byte[random.nextInt(200)];
        random.nextBytes(body);
        return new Record(type, seq, body);
    }

    private static void truncate(Path file, long length) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.truncate(length);
        }
    }

    private static void assertRecords(List<Record> expected, List<Record> actual) {
        assertEquals(seed() + "record count", expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            Record e = expected.get(i);
            Record a = actual.get(i);
            assertEquals(seed() + "type of record " + i, e.type(), a.type());
            assertEquals(seed() + "seq of record " + i, e.seq(), a.seq());
            assertArrayEquals(seed() + "body of record " + i, e.body(), a.body());
        }
    }

    private static String seed() {
        return "seed " + SEED + " (-Dbftws.test.seed=" + SEED + "): ";
    }
}
