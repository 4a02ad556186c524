package org.bftws.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A fuzzer of a replica's intake (docs/faults.md, "Fuzzing the intake"): structured mutations ({@link Mutations},
 * jqwik's generators) of well-formed inputs fed to each {@link Target} in turn, counting inputs, crashes and
 * state changes. Seeded: the same seed and input count give the same inputs. Not coverage-guided.
 *
 * <pre>
 *   IntakeFuzz --seconds S --seed X [--out DIR]     (scripts/fuzz)
 * </pre>
 * Prints one summary line; writes each finding's input (hex) under DIR; exit status 0 iff none was found.
 */
public final class IntakeFuzz {
    /** Counts of one run. */
    public record Result(Map<String, Long> inputs, Map<Target.Outcome, Long> outcomes, List<String> findings) {
        long total() {
            return inputs.values().stream().mapToLong(Long::longValue).sum();
        }

        public long crashes() {
            return outcomes.getOrDefault(Target.Outcome.CRASH, 0L);
        }

        public long stateChanges() {
            return outcomes.getOrDefault(Target.Outcome.STATE_CHANGE, 0L);
        }

        public String summary(long seed, double seconds) {
            return String.format("fuzz: seed %d, %.0f s, inputs %d %s, crashes %d, state changes %d: %s", seed,
                    seconds, total(), inputs, crashes(), stateChanges(),
                    findings.isEmpty() ? "ok" : "FOUND " + findings.size());
        }
    }

    private IntakeFuzz() {
    }

    /** Alternates between the targets until {@code stopAt} (nanoTime) or {@code maxInputs} inputs. */
    public static Result run(long seed, long stopAt, long maxInputs, Path out) throws IOException {
        List<Target> targets = targets(seed);
        try {
            return run(targets, seed, stopAt, maxInputs, out);
        } finally {
            targets.forEach(Target::close);
        }
    }

    private static List<Target> targets(long seed) {
        JournalIntake journal = new JournalIntake(seed);
        AsyncJournalIntake asyncJournal = new AsyncJournalIntake(seed);
        return List.of(new EngineIntake(seed), new PayloadIntake(), new CiphertextIntake(seed), journal,
                new KeyFileIntake(seed), new ReplyIntake(seed), asyncJournal,
                new JournalFileIntake(journal.persisted(), asyncJournal.persisted()), new MemberFileIntake(seed),
                new HttpIntake());
    }

    private static Result run(List<Target> targets, long seed, long stopAt, long maxInputs, Path out)
            throws IOException {
        Random random = new Random(seed);
        Mutations mutations = new Mutations();
        Map<String, Long> inputs = new LinkedHashMap<>();
        Map<Target.Outcome, Long> outcomes = new EnumMap<>(Target.Outcome.class);
        List<String> findings = new ArrayList<>();
        for (long i = 0; i < maxInputs && System.nanoTime() < stopAt; i++) {
            Target t = targets.get((int) (i % targets.size()));
            List<byte[]> corpus = t.corpus();
            byte[] input = mutations.mutate(corpus.get(random.nextInt(corpus.size())),
                    corpus.get(random.nextInt(corpus.size())), random);
            Target.Outcome o = t.feed(input);
            inputs.merge(t.name(), 1L, Long::sum);
            outcomes.merge(o, 1L, Long::sum);
            if (o != Target.Outcome.HANDLED) {
                String finding = t.name() + " input " + i + ": " + o + " " + t.lastFinding();
                findings.add(finding);
                if (out != null) {
                    Files.createDirectories(out);
                    Files.writeString(out.resolve(t.name() + "-" + i + ".hex"),
                            finding + "\n" + HexFormat.of().formatHex(input) + "\n");
                }
            }
        }
        return new Result(inputs, outcomes, findings);
    }

    public static void main(String[] args) throws IOException {
        double seconds = 10;
        long seed = 1;
        Path out = Path.of("run/fuzz");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--seconds" -> seconds = Double.parseDouble(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--out" -> out = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("usage: IntakeFuzz --seconds S --seed X [--out DIR]");
            }
        }
        long start = System.nanoTime();
        Result r = run(seed, start + (long) (seconds * 1e9), Long.MAX_VALUE, out);
        for (String f : r.findings().subList(0, Math.min(20, r.findings().size()))) {
            System.out.println("fuzz: " + f);
        }
        System.out.println(r.summary(seed, (System.nanoTime() - start) / 1e9));
        System.exit(r.findings().isEmpty() ? 0 : 1);
    }
}
