package org.bftws.fuzz;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.core.testkit.TestRandom;

/**
 * The key files a replica reads at start-up ({@link KeyFiles}: {@code group.pub}, then its {@code replica-I.key}
 * checked against it), as {@code scripts/keygen} writes them for a group of four, then mutations. Each input is
 * read as a group file and, against the authentic group, as a replica file; both must either load or be refused
 * with {@link KeyFileException}, which names the file and the field. Anything else thrown is a crash. Reading
 * keeps no state.
 */
final class KeyFileIntake implements Target {
    private final List<byte[]> corpus;
    private final GroupKeys group;
    private final Path file;
    private String lastFinding = "";

    KeyFileIntake(long seed) {
        try {
            Path dir = Scratch.directory("bftws-fuzz-keys");
            PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
            int status = KeyGen.run(new String[] {"--out", dir.resolve("keys").toString(), "--replicas", "4",
                "--clients", "1"}, TestRandom.seeded(seed), quiet, quiet);
            if (status != 0) {
                throw new IllegalStateException("keygen exited " + status);
            }
            Path keys = dir.resolve("keys");
            group = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
            corpus = List.of(Files.readAllBytes(keys.resolve(KeyFiles.GROUP_FILE)),
                    Files.readAllBytes(keys.resolve(KeyFiles.replicaFileName(1))));
            file = dir.resolve("input.key");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (KeyFileException e) {
            throw new IllegalStateException("the dealt group file does not load", e);
        }
    }

    @Override
    public String name() {
        return "key-file";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    @Override
    public Outcome feed(byte[] input) {
        try {
            Files.write(file, input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            KeyFiles.readGroup(file);
        } catch (KeyFileException refused) {
            // the clear refusal
        } catch (RuntimeException | Error e) {
            lastFinding = "group file: " + e;
            return Outcome.CRASH;
        }
        try {
            KeyFiles.readReplica(file, group);
        } catch (KeyFileException refused) {
            return Outcome.HANDLED;
        } catch (RuntimeException | Error e) {
            lastFinding = "replica file: " + e;
            return Outcome.CRASH;
        }
        return Outcome.HANDLED;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
