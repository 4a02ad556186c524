package org.bftws.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Temporary directories of the targets (key files, journals, Axis2's configuration), removed when the JVM exits. */
final class Scratch {
    private static final List<Path> MADE = new ArrayList<>();

    private Scratch() {
    }

    /** A new temporary directory, removed with everything in it when the JVM exits. */
    static synchronized Path directory(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        if (MADE.isEmpty()) {
            Runtime.getRuntime().addShutdownHook(new Thread(Scratch::removeAll, "bftws-fuzz-scratch"));
        }
        MADE.add(dir);
        return dir;
    }

    private static synchronized void removeAll() {
        for (Path dir : MADE) {
            try (Stream<Path> tree = Files.walk(dir)) {
                tree.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | RuntimeException e) {
                // best effort at exit: a leftover temporary directory is harmless
            }
        }
    }
}
