package org.bftws.module.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Journal;
import org.bftws.module.config.JournalDurability;

/**
 * A PBFT replica's {@link Journal} on local disk: one file in its data directory, each record framed as
 * [length][CRC32][bytes] (big-endian ints). The replica's ordering thread appends a step's
 * {@link org.bftws.core.engine.Ready#persist} records before it sends that step's messages, so a record that
 * is torn or damaged at the end of the file covers messages that were never sent: {@link #load} drops it
 * (and truncates it away) without the replica having promised anything it forgets (Castro-Liskov TOCS 2002
 * §4.3 keeps the log on disk across a reboot).
 *
 * <p>When a {@link Journal.Type#STABLE} record is appended the file is rewritten as {@link Journal#compact} of
 * everything it holds — to a temporary file, forced, then renamed over the journal atomically — so it stays
 * within one log window, and a crash at any point leaves either the old or the new journal whole. Not
 * thread-safe: one ordering thread owns it.
 */
public final class JournalStore implements AutoCloseable {
    /** The journal's file name in the data directory. */
    public static final String FILE = "pbft.journal";
    static final String TEMP = FILE + ".tmp";
    /** Frame header: length and CRC32, 4 bytes each. */
    private static final int HEADER = 8;
    /** No record comes near this (a STABLE record's body is a state-transfer message, bounded by the control limit). */
    private static final int MAX_RECORD = 1 << 30;

    private final Path dir;
    private final Path file;
    private final JournalDurability durability;
    /** What the file holds, decoded: compaction rewrites it without reading the file back. */
    private final List<Journal.Record> records = new ArrayList<>();
    private FileChannel channel;
    /** The counters are written by the owning thread only and volatile so that {@code /metrics} can read them. */
    private volatile long bytes;
    private volatile long writes;
    private volatile long recordsWritten;
    private volatile long compactions;

    private JournalStore(Path dir, JournalDurability durability) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
        this.durability = durability;
    }

    /**
     * Opens (creating the directory and file if needed) the journal in {@code dir}, reading what it holds; a
     * torn or damaged tail is cut off. A temporary file left by a crash during compaction is discarded: the
     * rename had not happened, so the journal itself is still whole.
     */
    public static JournalStore open(Path dir, JournalDurability durability) throws IOException {
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(TEMP));
        JournalStore store = new JournalStore(dir, durability);
        store.channel = FileChannel.open(store.file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        store.readAll();
        return store;
    }

    /** The records the journal held when it was opened, in order, plus those appended since. */
    public List<Journal.Record> load() {
        return List.copyOf(records);
    }

    /** The file's length in bytes. */
    public long size() {
        return bytes;
    }

    /** Appends since opening that wrote to the file: each one write (and, with fsync, one force). */
    public long writes() {
        return writes;
    }

    /** Records appended since opening. */
    public long recordsWritten() {
        return recordsWritten;
    }

    /** Rewrites of the file at a stable checkpoint since opening. */
    public long compactions() {
        return compactions;
    }

    public Path file() {
        return file;
    }

    /**
     * Appends {@code batch} durably as {@link #durability} says, in order; with a STABLE record among them,
     * the whole journal is compacted instead. Returns when the records are written (and forced, with fsync).
     */
    public void append(List<Journal.Record> batch) {
        if (batch.isEmpty()) {
            return;
        }
        records.addAll(batch);
        writes++;
        recordsWritten += batch.size();
        try {
            if (holdsStable(batch)) {
                compact();
            } else {
                write(channel, batch);
                force(channel);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("appending to the journal " + file, e);
        }
    }

    /** A plain loop, not a stream: it runs on the ordering thread for every step that persists records. */
    private static boolean holdsStable(List<Journal.Record> batch) {
        for (Journal.Record r : batch) {
            if (r.type() == Journal.Type.STABLE) {
                return true;
            }
        }
        return false;
    }

    /** Rewrites the file as the compacted records: temporary file, forced, atomic rename, directory forced. */
    private void compact() throws IOException {
        List<Journal.Record> kept = Journal.compact(records);
        Path temp = dir.resolve(TEMP);
        try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            write(out, kept);
            out.force(true); // always: the rename must not become durable before the bytes it names
        }
        channel.close();
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the data directory " + dir + " cannot rename atomically", e);
        }
        if (durability == JournalDurability.FSYNC) {
            forceDirectory();
        }
        records.clear();
        records.addAll(kept);
        compactions++;
        channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        bytes = channel.size();
        channel.position(bytes);
    }

    private void write(FileChannel out, List<Journal.Record> batch) throws IOException {
        int total = 0;
        List<byte[]> encoded = new ArrayList<>(batch.size());
        for (Journal.Record r : batch) {
            byte[] b = r.encode();
            encoded.add(b);
            total += HEADER + b.length;
        }
        ByteBuffer buf = ByteBuffer.allocate(total);
        for (byte[] b : encoded) {
            buf.putInt(b.length).putInt(crc(b)).put(b);
        }
        buf.flip();
        while (buf.hasRemaining()) {
            out.write(buf);
        }
        if (out == channel) {
            bytes += total;
        }
    }

    private void force(FileChannel out) throws IOException {
        if (durability == JournalDurability.FSYNC) {
            out.force(false);
        }
    }

    /** Makes the rename itself durable (POSIX: fsync the directory); not every platform can open one. */
    private void forceDirectory() throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // Windows cannot open a directory; its rename is durable once the file system journals it
        }
    }

    /** Reads every whole, intact record; truncates the file after the last one. */
    private void readAll() throws IOException {
        long size = channel.size();
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        long pos = 0;
        while (true) {
            Journal.Record r = readAt(pos, size, header);
            if (r == null) {
                break;
            }
            records.add(r);
            pos += HEADER + header.getInt(0);
        }
        if (pos < size) {
            channel.truncate(pos);
            channel.force(true);
        }
        bytes = pos;
        channel.position(pos);
    }

    /** The record framed at {@code pos}, or null if it is missing, torn, damaged or undecodable. */
    private Journal.Record readAt(long pos, long size, ByteBuffer header) throws IOException {
        if (size - pos < HEADER || !readFully(header.clear(), pos)) {
            return null;
        }
        int length = header.getInt(0);
        if (length < 0 || length > MAX_RECORD || length > size - pos - HEADER) {
            return null;
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        if (!readFully(body, pos + HEADER) || crc(body.array()) != header.getInt(4)) {
            return null;
        }
        try {
            return Journal.Record.decode(body.array());
        } catch (DecodeException | IllegalArgumentException e) {
            return null;
        }
    }

    private boolean readFully(ByteBuffer buf, long pos) throws IOException {
        long at = pos;
        while (buf.hasRemaining()) {
            int n = channel.read(buf, at);
            if (n < 0) {
                return false;
            }
            at += n;
        }
        return true;
    }

    private static int crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return (int) c.getValue();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
