package org.bftws.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What every result row records about where it was measured: the commit, the JVM, the machine (CPU model,
 * {@code nproc}, memory, kernel) and the load average at the time. On a shared machine the load average is
 * what tells a reader how much to trust a number.
 */
public final class Machine {
    private Machine() {
    }

    /** The columns every result row starts with: what was measured, when, on which code and machine, at what load. */
    public static final List<String> CONTEXT_HEADER = List.of("experiment", "time_utc", "commit", "jvm", "machine",
            "nproc", "load1_start", "load1_end", "load5");

    /** Values of {@link #CONTEXT_HEADER} for a row measured now, whose measurement began at 1-minute load {@code load1Start}. */
    public static List<String> context(String experiment, String commit, double load1Start) {
        double[] load = loadAverage();
        return List.of(experiment, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), commit, jvm(),
                description(), String.valueOf(nproc()), fmt(load1Start), fmt(load[0]), fmt(load[1]));
    }

    /** {@link #CONTEXT_HEADER} followed by an experiment's own columns. */
    public static List<String> withContext(String... columns) {
        List<String> all = new java.util.ArrayList<>(CONTEXT_HEADER);
        all.addAll(List.of(columns));
        return List.copyOf(all);
    }

    /** A number with 3 decimals, as every CSV holds them. */
    public static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** {@code git rev-parse --short HEAD} of the working tree at {@code root}, "+dirty" if it has changes. */
    public static String commit(Path root) {
        String head = run(root, "git", "rev-parse", "--short=12", "HEAD");
        if (head.isEmpty()) {
            return "unknown";
        }
        // results/ and RESULTS.md are what a run writes: they do not make the measured code dirty
        String dirty = run(root, "git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                ":(exclude)perf/results", ":(exclude)perf/RESULTS.md");
        return dirty.isEmpty() ? head : head + "+dirty";
    }

    /** e.g. {@code 17.0.15 (Eclipse Adoptium OpenJDK 64-Bit Server VM)}. */
    public static String jvm() {
        return System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")";
    }

    /** CPU model, processor count, memory and kernel, without commas (it goes into a CSV field). */
    public static String description() {
        String cpu = "unknown cpu";
        String mem = "";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    mem = " " + (kb / 1024 / 1024) + " GiB";
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: the JVM's view below is all there is
        }
        String s = cpu + " x" + nproc() + mem + " " + System.getProperty("os.name") + " "
                + System.getProperty("os.version");
        return s.replace(',', ';');
    }

    /** The processors this JVM may use (what {@code nproc} prints). */
    public static int nproc() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The 1, 5 and 15 minute load averages from /proc/loadavg, or -1s where unknown. */
    public static double[] loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
        } catch (IOException | RuntimeException e) {
            double one = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            return new double[] {one, -1, -1};
        }
    }

    private static String run(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return "";
            }
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
