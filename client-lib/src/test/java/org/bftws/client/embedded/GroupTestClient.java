package org.bftws.client.embedded;

import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Signed;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.voter.ClientCore;
import org.bftws.module.rm.ApplicationMessage;
import org.bftws.module.transport.ControlMessage;
import org.bftws.module.config.BftwsParameters;
import org.bftws.module.transport.ControlGuard;
import org.bftws.module.transport.ControlPort;
import org.bftws.module.transport.MulticastSender;

/**
 * A BFT-WS client for the tests, built from core's {@link ClientCore} (requests, retransmission, the Voter)
 * and the module's transport: requests go to every replica (paper §3.3.1.2: clients multicast from the
 * start), as WS-RM application messages or, to replicas wired for ordering alone, as control messages, with
 * {@code replyTo} naming this client's own control port
 * on its embedded server, where the replicas' replies arrive.
 *
 * <p>Replies asynchronous, to the client's own endpoint, rather than on the request's HTTP response: a
 * replica replies only after ordering and execution, possibly after a view change, and the reply of a
 * retransmitted request may come from a replica that never saw the first copy. Holding HTTP requests open
 * for that would tie up server threads per request and replica; one-way messages both ways keep every
 * hop the same.
 */
final class GroupTestClient implements AutoCloseable {
    private final ClientCore core;
    private final Verifier verifier;
    private final MulticastSender sender;
    private final List<URI> replicas;
    private final URI groupEndpoint;
    private long authenticReplies;
    private final URI replyTo;
    private final ControlPort port;
    private final ScheduledExecutorService ticker;
    private final Map<Long, CompletableFuture<byte[]>> waiting = new HashMap<>();
    /** Message number → replica → result of each authentic reply seen (before voting). */
    private final Map<Long, Map<Integer, byte[]>> replies = new HashMap<>();
    private long nextNumber = 1;

    /**
     * A client on its own sequence {@code sequenceId}. With {@code groupEndpoint} null, requests go as control
     * messages to {@code replicas} (control ports of replicas wired for ordering alone); otherwise they go as
     * WS-RM application messages for that group to {@code replicas} (service endpoints; the sequence must be
     * one the replicas' Sandesha2 created, and operations application requests).
     */
    GroupTestClient(EmbeddedAxis2Server server, GroupConfig cfg, int id, String sequenceId, Signer signer,
            Verifier verifier, List<URI> replicas, URI groupEndpoint, int tickMillis) throws Exception {
        this.core = new ClientCore(cfg, id, sequenceId, signer, verifier);
        this.verifier = verifier;
        this.groupEndpoint = groupEndpoint;
        this.replicas = List.copyOf(replicas);
        this.sender = new MulticastSender("test-client-send", replicas.size(), 256, Duration.ofSeconds(2));
        this.port = ControlPort.deploy(server.context(), this::onMessage, 1 << 20, ControlGuard.NONE,
                (int) BftwsParameters.controlEnvelopeBytes(1 << 20));
        this.replyTo = URI.create(server.serviceUrl(ControlPort.SERVICE_NAME));
        this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "test-client-tick");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> {
            synchronized (this) {
                handle(core.tick());
            }
        }, tickMillis, tickMillis, TimeUnit.MILLISECONDS);
    }

    /** Sends the next request of this client's sequence; completes with the voted result. */
    synchronized CompletableFuture<byte[]> invoke(byte[] operation) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        waiting.put(nextNumber++, f); // ClientCore numbers a sequence's requests 1, 2, ... in invoke order
        handle(core.invoke(operation, false));
        return f;
    }

    /** The authentic replies seen for a request, by replica. */
    synchronized Map<Integer, byte[]> replies(long messageNumber) {
        return Map.copyOf(replies.getOrDefault(messageNumber, Map.of()));
    }

    /** Authentic replies received so far, from any replica, for any request (retransmissions included). */
    synchronized long authenticReplies() {
        return authenticReplies;
    }

    /** This client's control port, where the replicas' replies arrive. */
    URI replyTo() {
        return replyTo;
    }

    private synchronized void onMessage(ControlMessage m) {
        try {
            ReplyBundle r = ReplyBundle.decode(m.signedBytes());
            if (r.verify(verifier)) {
                authenticReplies++;
                replies.computeIfAbsent(r.messageNumber(), k -> new HashMap<>()).put(r.sender(), r.result());
            }
        } catch (RuntimeException e) {
            // ClientCore records it as evidence
        }
        handle(core.receive(m.signedBytes()));
    }

    private void handle(Ready r) {
        for (Ready.Outbound o : r.messages) {
            sender.send(replicas, groupEndpoint == null ? new ControlMessage(o.bytes(), replyTo)
                    : ApplicationMessage.of(Signed.decode(o.bytes()), groupEndpoint, replyTo));
        }
        for (Event e : r.events) {
            if (e instanceof Event.Delivered d) {
                CompletableFuture<byte[]> f = waiting.remove(d.request().messageNumber());
                if (f != null) {
                    f.complete(d.result());
                }
            }
        }
    }

    @Override
    public void close() throws Exception {
        ticker.shutdownNow();
        sender.close();
        port.undeploy();
    }
}
