package org.bftws.core.replication;

import java.util.Map;
import java.util.function.Function;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Envelopes;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;

/**
 * How an engine without PBFT's pre-prepare checks (the asynchronous and the hybrid engine) takes client
 * requests in and judges the requests of a batch a peer proposes: the checks are {@link ClientRequests}'s;
 * what is kept is the engine's map of pending requests (authentic, admitted, not yet executed), read here to
 * skip the signature check of a copy already verified.
 */
public final class RequestIntake {
  private final ClientRequests requests;
  private final Verifier verifier;
  private final Map<RequestId, Signed> pending;

  public RequestIntake(ClientRequests requests, Verifier verifier, Map<RequestId, Signed> pending) {
    this.requests = requests;
    this.verifier = verifier;
    this.pending = pending;
  }

  /**
   * A client's REQUEST: the request if it is new to {@code pending} and admissible (the engine then holds it),
   * else null: a retransmission of one held, a refused one (evidence, worded by {@link ClientRequests#refusal}
   * or {@code refusal}), one answered from the reply cache (the reply goes to {@code out}) or one over the
   * bound of pending requests.
   */
  public Request admit(Signed s, Function<Request, String> refusal, Envelopes.EvidenceSink sink, Ready out) {
    Request q;
    try {
      q = Request.decode(s.body());
    } catch (DecodeException e) {
      sink.evidence(s.sender(), "malformed REQUEST: " + e.getMessage());
      return null;
    }
    if (s.sameAs(pending.get(q.id()))) {
      return null; // a retransmission of a request held already
    }
    if (!s.verify(verifier)) {
      sink.evidence(s.sender(), "bad signature on REQUEST");
      return null;
    }
    String why = requests.refusal(s, q);
    if (why == null) {
      why = refusal.apply(q);
    }
    if (why != null) {
      sink.evidence(s.sender(), why);
      return null;
    }
    if (requests.answeredFromCache(q, 0, out) || !requests.admissible(q, pending.size())) {
      return null;
    }
    return q;
  }

  /** A payload of a batch a peer proposed: an authentic, well-formed client request. */
  public boolean valid(byte[] payload) {
    Signed q;
    Signed known;
    try {
      q = Signed.decode(payload);
      if (q.kind() != Kind.REQUEST) {
        return false;
      }
      known = pending.get(Request.decode(q.body()).id());
    } catch (DecodeException e) {
      return false;
    }
    return requests.invalidInBatch(q, q.sameAs(known)) == null;
  }

  /**
   * Worth ordering: a request the client table would still run once the batches delivered and not yet executed
   * are ({@code deliveredAhead}: per sequence, the highest message number among them).
   */
  public boolean wanted(byte[] payload, Map<String, Long> deliveredAhead) {
    Request r;
    try {
      r = Request.decode(Signed.decode(payload).body());
    } catch (DecodeException e) {
      return false;
    }
    Long ahead = deliveredAhead.get(r.sequenceId());
    return requests.wouldRun(r) && (ahead == null || r.messageNumber() > ahead);
  }
}
