package org.bftws.core.voter;

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
import org.bftws.core.pbft.Event;
import org.bftws.core.pbft.Ready;

/**
 * The client side of PBFT (Castro-Liskov §4.1, BFT-WS §2.2) as a pure state machine: it signs requests of
 * one WS-RM sequence, sends each to all replicas (BFT-WS multicasts from the start), retransmits to all
 * until the {@link Voter} has f+1 matching authentic replies, and reports {@link Event.Delivered}.
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

  public ClientCore(GroupConfig cfg, int id, String sequenceId, Signer signer, Verifier verifier) {
    if (id < cfg.n()) {
      throw new IllegalArgumentException("client ids start at n = " + cfg.n() + ", got " + id);
    }
    this.cfg = cfg;
    this.id = id;
    this.sequenceId = sequenceId;
    this.signer = signer;
    this.verifier = verifier;
  }

  /** Issue the next request of the sequence. */
  public Ready invoke(byte[] operation, boolean randomized) {
    if (nextMessageNumber == Request.TERMINATE) {
      throw new IllegalStateException("sequence " + sequenceId + " is terminated");
    }
    return issue(new Request(id, sequenceId, nextMessageNumber++, randomized, operation));
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
    Signed s = Signed.sign(Kind.REQUEST, id, q.encode(), signer);
    outstanding.put(q.messageNumber(), new Outstanding(s, new Voter(cfg.f()), now));
    out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, s.encode()));
    return flush();
  }

  public Ready tick() {
    now++;
    long every = cfg.get(GroupConfig.CLIENT_RETRANSMIT);
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
      if (r.sender() < 0 || r.sender() >= cfg.n() || !r.verify(verifier)) {
        out.events.add(new Event.Evidence(r.sender(), "not an authentic reply"));
        return flush();
      }
      Outstanding o = outstanding.get(r.messageNumber());
      if (o != null && r.sequenceId().equals(sequenceId) && o.voter.add(r.sender(), r.result(), r.random())) {
        outstanding.remove(r.messageNumber());
        out.events.add(new Event.Delivered(new RequestId(sequenceId, r.messageNumber()), o.voter.result(), o.voter.random()));
      }
    } catch (DecodeException e) {
      out.events.add(new Event.Evidence(-1, "malformed reply: " + e.getMessage()));
    }
    return flush();
  }

  public int outstanding() {
    return outstanding.size();
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
    return Ready.forClient();
  }
}
