package org.bftws.core.voter;

import java.util.Arrays;
import java.util.TreeMap;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;

/**
 * The client side of PBFT (Castro-Liskov §4.1, BFT-WS §2.2) as a pure state machine: it signs requests of
 * one WS-RM sequence, sends each to all replicas (BFT-WS multicasts from the start), retransmits to all
 * until the {@link Voter} has f+1 matching authentic replies, and reports {@link Event.Delivered}. Only the
 * nodes that execute ({@link GroupConfig#repliers}: all replicas in configuration I, 2f+1 in configuration
 * II, BFT-WS §3.3.2, the execution nodes in configuration III, §3.3.3) are counted.
 *
 * <p>Read-only requests (Castro-Liskov §5.1.3, {@link #invokeReadOnly}): multicast once, numbered by a read
 * counter of their own, so they consume no message number of the sequence; accepted with 2f+1 matching
 * read-only replies. When those do not come within the retransmission interval, or can no longer come (too
 * many replies differ), the operation is sent again as an ordered request with the sequence's next
 * message number ({@link Event.ReadOnlyFallback}). Either way the call is delivered under the id
 * (sequence, that next number): the number it would take if it has to be ordered.
 */
public final class ClientCore {
  private final GroupConfig cfg;
  private final int id;
  private final String sequenceId;
  private final Signer signer;
  private final Verifier verifier;
  private long nextMessageNumber = 1;
  private long now;
  private final TreeMap<Long, Outstanding> outstanding = new TreeMap<>();
  /** The read counter: read-only requests are numbered apart from the sequence's messages. */
  private long nextReadNumber = 1;
  /** The one read-only call in progress, or null. */
  private ReadOnlyCall readOnly;
  private Ready out = newReady();

  private static final class Outstanding {
    final Signed request;
    final Voter voter;
    long sentAt;

    Outstanding(Signed request, Voter voter, long sentAt) {
      this.request = request;
      this.voter = voter;
      this.sentAt = sentAt;
    }
  }

  private record ReadOnlyCall(Request request, Voter voter, long sentAt) {}

  public ClientCore(GroupConfig cfg, int id, String sequenceId, Signer signer, Verifier verifier) {
    if (id < cfg.clientBase()) {
      throw new IllegalArgumentException("client ids start at " + cfg.clientBase() + " (n, or "
          + GroupConfig.MAX_REPLICAS.name() + " when given), got " + id);
    }
    this.cfg = cfg;
    this.id = id;
    this.sequenceId = sequenceId;
    this.signer = signer;
    this.verifier = verifier;
  }

  /**
   * Issue the next request of the sequence. A read-only call still in progress is abandoned (its caller gave
   * up waiting): it never falls back, so this request takes the number its fallback would have taken.
   */
  public Ready invoke(byte[] operation, boolean randomized) {
    checkOpen();
    readOnly = null;
    return issue(new Request(id, sequenceId, nextMessageNumber++, randomized, operation));
  }

  /**
   * Issue request {@code messageNumber} of a sequence the members of a replicated client share (BFT-WS §3.4):
   * the caller derives the number from its own deterministic execution, so every member sends the same
   * request under it. If that number is still outstanding (the caller retries after a timeout), its request
   * is sent again unchanged instead.
   *
   * @throws IllegalArgumentException if the number is outstanding with another operation, or not a message
   *     number
   */
  public Ready invokeNumbered(long messageNumber, byte[] operation, boolean randomized) {
    checkOpen();
    readOnly = null;
    Outstanding o = outstanding.get(messageNumber);
    if (o != null) {
      if (!Arrays.equals(Request.decode(o.request.body()).operation(), operation)) {
        throw new IllegalArgumentException("message " + messageNumber + " is outstanding with another operation");
      }
      o.sentAt = now;
      out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, o.request.encode()));
      return flush();
    }
    if (messageNumber < 1 || messageNumber == Request.TERMINATE) {
      throw new IllegalArgumentException("not a message number: " + messageNumber);
    }
    nextMessageNumber = Math.max(nextMessageNumber, messageNumber + 1);
    return issue(new Request(id, sequenceId, messageNumber, randomized, operation));
  }

  /**
   * Execute {@code operation}, which the replicas must know as read-only, without ordering (Castro-Liskov
   * §5.1.3). While ordered requests are outstanding it is ordered too: a read must reflect every earlier
   * call of this client, and its fallback takes the next message number. A read-only call still in progress
   * is abandoned, as by {@link #invoke}.
   */
  public Ready invokeReadOnly(byte[] operation) {
    checkOpen();
    if (!outstanding.isEmpty()) {
      return invoke(operation, false);
    }
    Request q = new Request(id, sequenceId, nextReadNumber++, false, operation);
    readOnly = new ReadOnlyCall(q, Voter.readOnly(cfg.f()), now);
    out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS,
        Signed.sign(Kind.READ_ONLY_REQUEST, id, q.encode(), signer).encode()));
    return flush();
  }

  /** The message number the next ordered request (or a read-only call's fallback) takes. */
  public long nextMessageNumber() {
    return nextMessageNumber;
  }

  private void checkOpen() {
    if (nextMessageNumber == Request.TERMINATE) {
      throw new IllegalStateException("sequence " + sequenceId + " is terminated");
    }
  }

  /**
   * End the sequence (BFT-WS §3.3.1.1): after the last reply, so that nothing outstanding is cut off. The
   * replicas order the terminate like a request; its {@link Event.Delivered} (an empty result) says that f+1
   * of them dropped the sequence. No request can follow it.
   */
  public Ready terminate() {
    nextMessageNumber = Request.TERMINATE;
    return issue(Request.terminate(id, sequenceId));
  }

  private Ready issue(Request q) {
    send(q);
    return flush();
  }

  private void send(Request q) {
    Signed s = Signed.sign(Kind.REQUEST, id, q.encode(), signer);
    outstanding.put(q.messageNumber(), new Outstanding(s, new Voter(cfg.f()), now));
    out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, s.encode()));
  }

  /** PBFT §5.1.3: "If the client cannot collect 2f+1 such replies, it retransmits the request as a regular read-write request." */
  private void fallBack(String why) {
    Request q = new Request(id, sequenceId, nextMessageNumber++, false, readOnly.request().operation());
    readOnly = null;
    out.events.add(new Event.ReadOnlyFallback(q.id(), why));
    send(q);
  }

  public Ready tick() {
    now++;
    long every = cfg.get(GroupConfig.CLIENT_RETRANSMIT);
    if (readOnly != null && now - readOnly.sentAt() >= every) {
      fallBack("no 2f+1 matching read-only replies within " + every + " ticks");
    }
    for (Outstanding o : outstanding.values()) {
      if (now - o.sentAt >= every) {
        o.sentAt = now;
        out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, o.request.encode()));
      }
    }
    return flush();
  }

  /** A reply from a replica (authenticated here). */
  public Ready receive(byte[] bytes) {
    try {
      ReplyBundle r = ReplyBundle.decode(bytes);
      if (!awaited(r)) {
        return flush(); // a late reply (f+1 already agreed) or one to nothing asked: no use checking it
      }
      if (!cfg.replies(r.sender())) {
        // BFT-WS §3.3.2, §3.3.3: only the executing replicas (or execution nodes) answer; another's reply is
        // not counted
        out.events.add(new Event.Evidence(r.sender(), "a reply from a node that does not execute"));
        return flush();
      }
      if (!r.verify(verifier)) {
        out.events.add(new Event.Evidence(r.sender(), "not an authentic reply"));
        return flush();
      }
      if (r.readOnly()) {
        onReadOnlyReply(r);
        return flush();
      }
      Outstanding o = outstanding.get(r.messageNumber());
      if (o.voter.add(r.sender(), r.result(), r.random())) {
        outstanding.remove(r.messageNumber());
        out.events.add(new Event.Delivered(new RequestId(sequenceId, r.messageNumber()), o.voter.result(), o.voter.random()));
      }
    } catch (DecodeException e) {
      out.events.add(new Event.Evidence(-1, "malformed reply: " + e.getMessage()));
    }
    return flush();
  }

  /**
   * Whether a reply answers a request still waiting for its vote: only those are worth a signature check,
   * as the others change nothing (a reply that comes after f+1 matching ones is not verified at all).
   */
  private boolean awaited(ReplyBundle r) {
    if (!r.sequenceId().equals(sequenceId)) {
      return false;
    }
    if (r.readOnly()) {
      // a late answer to an earlier read, or to a read that already fell back, is not awaited
      return readOnly != null && r.messageNumber() == readOnly.request().messageNumber();
    }
    return outstanding.containsKey(r.messageNumber());
  }

  private void onReadOnlyReply(ReplyBundle r) {
    ReadOnlyCall c = readOnly;
    if (c.voter().add(r.sender(), r.result(), r.random())) {
      readOnly = null;
      out.events.add(new Event.Delivered(new RequestId(sequenceId, nextMessageNumber), c.voter().result(),
          c.voter().random()));
    } else if (c.voter().undecidable(cfg.repliers().size())) {
      fallBack("read-only replies differ: 2f+1 matching ones can no longer come");
    }
  }

  /** Requests waiting for their replies, a read-only call included. */
  public int outstanding() {
    return outstanding.size() + (readOnly == null ? 0 : 1);
  }

  public String sequenceId() {
    return sequenceId;
  }

  public int id() {
    return id;
  }

  private Ready flush() {
    Ready r = out;
    out = newReady();
    return r;
  }

  private static Ready newReady() {
    return new Ready();
  }
}
