package org.bftws.byzantine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.engine.Ready;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.ReplyCertificate;
import org.bftws.core.message.Signed;

/**
 * {@code wrong-reply}: every reply to a client carries a corrupted result under a correctly signed reply
 * certificate (Castro-Liskov §4.1: the client waits for f+1 replies with the same result, so f liars cannot
 * make it accept one). The corruption is a function of the result alone, so two such replicas lie alike: f+1
 * of them colluding get their result accepted, the fault campaign's negative control.
 */
final class WrongReply extends Behaviour {
    WrongReply(Node node) {
        super(node);
    }

    @Override
    List<Ready.Outbound> outgoing(List<Ready.Outbound> messages) {
        List<Ready.Outbound> out = new ArrayList<>(messages.size());
        for (Ready.Outbound o : messages) {
            out.add(node.toReplicas(o) ? o : new Ready.Outbound(o.to(), corrupt(o.bytes())));
        }
        return out;
    }

    private byte[] corrupt(byte[] bytes) {
        ReplyBundle b = ReplyBundle.decode(bytes);
        ReplyCertificate cert = ReplyCertificate.decode(b.certificate().body());
        byte[] result = corrupted(b.result());
        List<ReplyCertificate.Entry> entries = new ArrayList<>(cert.entries());
        int index = -1;
        for (int i = 0; i < entries.size(); i++) {
            ReplyCertificate.Entry e = entries.get(i);
            if (e.sequenceId().equals(b.sequenceId()) && e.messageNumber() == b.messageNumber()) {
                index = i;
                entries.set(i, new ReplyCertificate.Entry(e.sequenceId(), e.messageNumber(),
                        ReplyCertificate.resultDigest(result, b.random())));
                break;
            }
        }
        byte[] signed = node.sign(b.certificate().kind(), new ReplyCertificate(cert.view(), entries).encode());
        return ReplyBundle.of(Signed.decode(signed), index, result, b.random()).encode();
    }

    /**
     * The result with its last decimal digit d replaced by (d+1) mod 10, else {@code true} and {@code false}
     * swapped, else one more byte: a well-formed answer where the result is a number or a flag, so a client
     * that accepts it records a wrong value rather than a failure.
     */
    static byte[] corrupted(byte[] result) {
        byte[] out = result.clone();
        for (int i = out.length - 1; i >= 0; i--) {
            if (out[i] >= '0' && out[i] <= '9') {
                out[i] = (byte) ('0' + (out[i] - '0' + 1) % 10);
                return out;
            }
        }
        String s = new String(result, StandardCharsets.UTF_8);
        if (s.contains("true")) {
            return s.replace("true", "false").getBytes(StandardCharsets.UTF_8);
        } else if (s.contains("false")) {
            return s.replace("false", "true").getBytes(StandardCharsets.UTF_8);
        }
        byte[] longer = java.util.Arrays.copyOf(result, result.length + 1);
        longer[result.length] = 'x';
        return longer;
    }
}
