package org.bftws.perf.randomness;

import java.util.ArrayList;
import java.util.List;

import org.bftws.perf.echo.EchoExperiment;
import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.echo.EchoPayload;

/**
 * Experiment 3 (integrity paper §7.2): the 1 KB echo through 4 replicas, {@code echo} and
 * {@code echoRandom} alternately measured on the same group, per randomness configuration: none, CT per
 * scheme, key size and k (2 and 3), CT with one coin per batch, BA and hardened BA. The echo experiment's
 * measurement ({@link EchoExperiment}) does the rest; with {@code --wan-delay-ms} every hop is delayed.
 */
public final class RandomnessExperiment {
    private RandomnessExperiment() {
    }

    /** Every configuration, in table order; {@code ct-rsa3072-k2} only on request (its dealing takes minutes). */
    public static List<EchoMode> modes() {
        return List.of(RandomnessMode.keyless("none"), RandomnessMode.ct("cks", 0, 2, false),
                RandomnessMode.ct("cks", 0, 3, false), RandomnessMode.ct("bls", 0, 2, false),
                RandomnessMode.ct("rsa", 2048, 2, false), RandomnessMode.ct("cks", 0, 2, true),
                RandomnessMode.keyless("ba"), RandomnessMode.keyless("ba-hardened"));
    }

    private static List<EchoMode> known() {
        List<EchoMode> all = new ArrayList<>(modes());
        all.add(RandomnessMode.ct("rsa", 3072, 2, false));
        all.add(RandomnessMode.ct("bls", 0, 3, false));
        return all;
    }

    /** The configurations named (comma-separated), in table order; null, empty or "all" means {@link #modes()}. */
    public static List<EchoMode> named(String names) {
        if (names == null || names.isBlank() || names.equals("all")) {
            return modes();
        }
        List<String> wanted = List.of(names.split(","));
        List<EchoMode> out = known().stream().filter(m -> wanted.contains(m.name())).toList();
        if (out.size() != wanted.size()) {
            throw new IllegalArgumentException("unknown randomness configuration in " + names + "; known: "
                    + known().stream().map(EchoMode::name).toList());
        }
        return out;
    }

    /** 1 KB to both operations, 1 and 8 clients, 2 repetitions (the machine is shared). */
    public static EchoExperiment.Config full() {
        EchoPayload kb = EchoPayload.bytes(1024);
        return new EchoExperiment.Config(modes(), List.of(kb, kb.randomized()), List.of(1, 8), 2, 2_000, 4_000);
    }

    /** Seconds: no RSA (its dealing alone is slow), 1 and 2 clients; proves the harness, measures nothing. */
    public static EchoExperiment.Config smoke() {
        EchoPayload kb = EchoPayload.bytes(1024);
        return new EchoExperiment.Config(named("none,ct-cks-k2,ba"), List.of(kb, kb.randomized()), List.of(1, 2), 1,
                200, 1_000);
    }
}
