package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.message.Request;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.testkit.TestRandom;

/**
 * The check a replica applies to a confidential request's TDH2 ciphertext before anything opens it ({@link
 * ConfidentialConfig#check}: decoding, the label of that request, the validity proof; SINTRA §2.6). Its contract is
 * a verdict, never an exception: anything thrown is a crash. The check keeps no state, so the other finding is a
 * mutated ciphertext that it accepts (a forgery of the validity proof, which binds label and payload).
 */
final class CiphertextIntake implements Target {
    private static final byte[] GROUP = "fuzz-group".getBytes(StandardCharsets.US_ASCII);
    private final Request request = new Request(4, "urn:uuid:fuzz-sealed", 3, false, new byte[0]);
    private final List<byte[]> corpus = new ArrayList<>();
    private String lastFinding = "";

    CiphertextIntake(long seed) {
        Dealt keys = new Tdh2().deal(ThresholdParams.forF(1), TestRandom.seeded(seed));
        for (String plain : List.of("", "bid 42", "x".repeat(300))) {
            corpus.add(ConfidentialConfig.seal(keys.group(), GROUP, request.sequenceId(), request.messageNumber(),
                    plain.getBytes(StandardCharsets.UTF_8), TestRandom.seeded(seed + plain.length())));
        }
    }

    @Override
    public String name() {
        return "ciphertext";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    @Override
    public Outcome feed(byte[] input) {
        ConfidentialConfig.Check check;
        try {
            check = ConfidentialConfig.check(GROUP, request, input);
        } catch (RuntimeException | Error e) {
            lastFinding = e.toString();
            return Outcome.CRASH;
        }
        if (check.ciphertext() != null && corpus.stream().noneMatch(c -> Arrays.equals(c, input))) {
            lastFinding = "a mutated ciphertext passed the check";
            return Outcome.STATE_CHANGE;
        }
        return Outcome.HANDLED;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
