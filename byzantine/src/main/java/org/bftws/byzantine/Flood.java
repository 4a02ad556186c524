package org.bftws.byzantine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.async.Pid;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Status;
import org.bftws.core.message.Vote;

/**
 * {@code flood}: on every tick, {@link #PER_TICK} well-formed, correctly signed bogus messages to the other
 * replicas (Aardvark, NSDI 2009 §2, the faulty replica that floods): prepares and commits for digests no batch
 * has at sequence numbers inside the log window, checkpoints of states no one has, status messages, and requests
 * signed by a replica, which only clients may send. In an asynchronous group ({@code bftws.ordering=async}) the
 * votes are the asynchronous engine's own instead (SINTRA §2): envelopes of its kind for the channel's next rounds,
 * to this replica's consistent broadcast of a round, its agreement and that agreement's binary rounds, with
 * messages of every type and random payloads. The replica's send buffers (bounded per destination) are the limit
 * of its rate.
 */
final class Flood extends Behaviour {
    static final int PER_TICK = 64;

    private final Random random;
    private long number;

    Flood(Node node) {
        super(node);
        this.random = new Random(node.id() * 31337L + 5);
    }

    @Override
    List<Ready.Outbound> onTick() {
        List<Ready.Outbound> out = new ArrayList<>(PER_TICK);
        for (int i = 0; i < PER_TICK; i++) {
            out.add(new Ready.Outbound(Ready.ALL_REPLICAS, bogus(i % 5)));
        }
        return out;
    }

    private byte[] bogus(int variant) {
        if (node.asynchronous() && variant < 2) {
            return bogusAsync();
        }
        long view = node.engine().view();
        long seq = node.engine().lastExecuted() + 1 + random.nextInt(Math.max(1, node.group().logWindow()));
        byte[] digest = new byte[32];
        random.nextBytes(digest);
        switch (variant) {
            case 0:
                return node.sign(Kind.PREPARE, new Vote(view, seq, digest).encode());
            case 1:
                return node.sign(Kind.COMMIT, new Vote(view, seq, digest).encode());
            case 2: {
                long at = (seq / node.group().checkpointInterval() + 1) * node.group().checkpointInterval();
                return node.sign(Kind.CHECKPOINT, new Checkpoint(at, digest, Checkpoint.NO_EXECUTION).encode());
            }
            case 3:
                return node.sign(Kind.STATUS, new Status(view, true, 0, seq).encode());
            default: {
                byte[] op = ("flood " + number).getBytes(StandardCharsets.UTF_8);
                return node.sign(Kind.REQUEST,
                        new Request(node.id(), "urn:flood:" + node.id(), ++number, false, op).encode());
            }
        }
    }

    /**
     * An asynchronous-protocol envelope for a round the channel is in or about to enter: its proposal, this
     * replica's consistent broadcast in it, the round's agreement or one of its binary rounds, with a random type
     * and a random payload of up to 64 bytes.
     */
    private byte[] bogusAsync() {
        long round = node.engine().lastExecuted() + 1 + random.nextInt(Math.max(1, node.group().logWindow()));
        Pid r = AsyncReplica.CHANNEL.child(round);
        Pid[] targets = {r, r.child("mvba").child("cb").child(node.id()), r.child("mvba"),
            r.child("mvba").child("vba").child(1 + random.nextInt(3))};
        byte[] payload = new byte[random.nextInt(65)];
        random.nextBytes(payload);
        AsyncMessage m = new AsyncMessage(targets[random.nextInt(targets.length)], 1 + random.nextInt(6), payload);
        return node.sign(Kind.ASYNC, m.encode());
    }
}
