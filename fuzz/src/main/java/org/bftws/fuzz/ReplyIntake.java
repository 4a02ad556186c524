package org.bftws.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.ReplyCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.TestKeys;
import org.bftws.core.voter.ClientCore;

/**
 * The client's intake: a replica's reply as its control port hands it to the client's core ({@link
 * ClientCore#receive}: decode, authenticate, then the Voter, BFT-WS §3.3.1.5). The corpus is the authentic reply
 * of each replica of a group of four to the client's first request (a batch of two clients), and a read-only
 * reply. A reply that does not decode or verify is refused with an {@link Event.Evidence}, never thrown: anything
 * thrown is a crash. Each input goes to a fresh client waiting for its first request; then the authentic replies
 * follow, the input's (claimed) sender's first. Unless the input is itself one of them, the Voter must decide at
 * the second authentic reply with the authentic result, as without it: deciding earlier or later, or on another
 * result, means it counted the mutated reply as a vote.
 */
final class ReplyIntake implements Target {
    private static final int CLIENT = 4;
    private static final String SEQUENCE = "urn:fuzz:" + CLIENT;
    private final GroupConfig cfg = GroupConfig.defaults();
    private final TestKeys keys;
    private final byte[] result = "<r>42</r>".getBytes(StandardCharsets.UTF_8);
    private final byte[] random = {7, 7, 7, 7};
    private final List<byte[]> authentic = new ArrayList<>();
    private final List<byte[]> corpus = new ArrayList<>();
    private String lastFinding = "";

    ReplyIntake(long seed) {
        this.keys = TestKeys.seeded(6, seed);
        ReplyCertificate cert = new ReplyCertificate(0, List.of(
                new ReplyCertificate.Entry("urn:fuzz:5", 3, ReplyCertificate.resultDigest(new byte[] {1}, new byte[0])),
                new ReplyCertificate.Entry(SEQUENCE, 1, ReplyCertificate.resultDigest(result, random))));
        for (int i = 0; i < cfg.n(); i++) {
            Signed signed = Signed.sign(Kind.REPLY, i, cert.encode(), keys.signer(i));
            authentic.add(ReplyBundle.of(signed, 1, result, random).encode());
        }
        corpus.addAll(authentic);
        ReplyCertificate read = new ReplyCertificate(0, List.of(
                new ReplyCertificate.Entry(SEQUENCE, 1, ReplyCertificate.resultDigest(result, random))));
        corpus.add(ReplyBundle.of(Signed.sign(Kind.READ_ONLY_REPLY, 2, read.encode(), keys.signer(2)), 0, result,
                random).encode());
    }

    @Override
    public String name() {
        return "reply";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    @Override
    public Outcome feed(byte[] input) {
        ClientCore client = new ClientCore(cfg, CLIENT, SEQUENCE, keys.signer(CLIENT), keys.verifier());
        client.invoke("op".getBytes(StandardCharsets.UTF_8), false);
        try {
            if (delivered(client.receive(input)) != null) {
                lastFinding = "one reply decided";
                return Outcome.STATE_CHANGE;
            }
        } catch (RuntimeException | Error e) {
            lastFinding = e.toString();
            return Outcome.CRASH;
        }
        if (authentic.stream().anyMatch(a -> Arrays.equals(a, input))) {
            return Outcome.HANDLED;
        }
        int first = claimedSender(input);
        List<Integer> order = new ArrayList<>();
        order.add(first);
        for (int i = 0; i < cfg.n(); i++) {
            if (i != first) {
                order.add(i);
            }
        }
        for (int k = 0; k < order.size(); k++) {
            Event.Delivered d = delivered(client.receive(authentic.get(order.get(k))));
            if (d != null) {
                if (k != 1 || !Arrays.equals(d.result(), result)) {
                    lastFinding = "decided at authentic reply " + (k + 1) + ": the mutated reply was counted";
                    return Outcome.STATE_CHANGE;
                }
                return Outcome.HANDLED;
            }
        }
        lastFinding = "no decision on four authentic replies";
        return Outcome.STATE_CHANGE;
    }

    /** The sender the input names, if it decodes as a reply of the group; else replica 0. */
    private int claimedSender(byte[] input) {
        try {
            int s = ReplyBundle.decode(input).sender();
            return s >= 0 && s < cfg.n() ? s : 0;
        } catch (DecodeException | IllegalArgumentException e) {
            return 0;
        }
    }

    private static Event.Delivered delivered(Ready r) {
        for (Event e : r.events) {
            if (e instanceof Event.Delivered d) {
                return d;
            }
        }
        return null;
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
