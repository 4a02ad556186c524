package org.bftws.perf.randomness;

import static org.bftws.client.group.GroupLauncher.param;

import java.nio.file.Path;

import org.bftws.core.config.GroupConfig;
import org.bftws.module.config.BftwsKeys;
import org.bftws.perf.echo.EchoMode;
import org.bftws.perf.echo.EchoPayload;
import org.bftws.perf.echo.EchoSetup;
import org.bftws.perf.echo.ReplicaGroup;

/**
 * One configuration of experiment 3 (integrity paper §7.2): a group of 4 replicas serving
 * {@link RandomEchoService} with one randomness algorithm ({@code bftws.randomness.algorithm}) and, for CT, one
 * coin scheme, threshold k and key size (keygen), optionally one coin per batch ({@code bftws.coinPerBatch}).
 * Its callers call {@code echo} and {@code echoRandom} with the same payload, so each configuration's overhead
 * is measured against itself. {@code none} serves {@code echo} only (echoRandom would fault without a number).
 */
public final class RandomnessMode implements EchoMode {
    static final String GROUP = "http://random.group.example/axis2/services/" + RandomEchoArchive.SERVICE;

    private final String name;
    private final String algorithm;
    private final ReplicaGroup.Keys keys;
    private final boolean coinPerBatch;

    RandomnessMode(String name, String algorithm, ReplicaGroup.Keys keys, boolean coinPerBatch) {
        this.name = name;
        this.algorithm = algorithm;
        this.keys = keys;
        this.coinPerBatch = coinPerBatch;
    }

    /** CT with {@code scheme}, threshold {@code k} and (RSA) modulus bits; named e.g. {@code ct-rsa2048-k2}. */
    static RandomnessMode ct(String scheme, int rsaBits, int k, boolean coinPerBatch) {
        String label = "ct-" + scheme + (rsaBits > 0 ? String.valueOf(rsaBits) : "") + "-k" + k
                + (coinPerBatch ? "-batch" : "");
        return new RandomnessMode(label, "ct", new ReplicaGroup.Keys(scheme, k, rsaBits), coinPerBatch);
    }

    /** {@code none}, {@code ba} or {@code ba-hardened}: no threshold keys used. */
    static RandomnessMode keyless(String algorithm) {
        return new RandomnessMode(algorithm, algorithm, ReplicaGroup.Keys.DEFAULT, false);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "4 replicas, " + BftwsKeys.RANDOMNESS.name() + "=" + algorithm
                + (algorithm.equals("ct") ? ", scheme " + keys.scheme() + (keys.rsaBits() > 0 ? " " + keys.rsaBits()
                        + " bits" : "") + ", k = " + keys.k() + (coinPerBatch ? ", one coin per batch" : "") : "");
    }

    @Override
    public boolean supports(EchoPayload payload) {
        return !payload.isRandomized() || !algorithm.equals("none");
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) throws Exception {
        Path aar = RandomEchoArchive.write(work.resolve("service"));
        ReplicaGroup group = ReplicaGroup.start(setup, work, 4, keys, aar, RandomEchoArchive.SERVICE, GROUP,
                param(BftwsKeys.RANDOMNESS.name(), algorithm) + param(GroupConfig.COIN_PER_BATCH, coinPerBatch));
        return new Deployment() {
            @Override
            public Caller newCaller() throws Exception {
                return new RandomEchoCaller(group.clientContext(), GROUP);
            }

            @Override
            public void close() throws Exception {
                group.close();
            }
        };
    }
}
