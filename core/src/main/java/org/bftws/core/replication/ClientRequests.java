package org.bftws.core.replication;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.ReplyCertificate;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;

/**
 * The client side of an ordering engine, shared by {@code pbft.Replica} (PBFT) and the asynchronous engine
 * ({@code async.AsyncReplica}): which client requests are acceptable, alone and inside an ordered batch;
 * the {@link ClientTable} that makes execution exactly-once and caches replies (Castro-Liskov §4.1); and
 * the replies, one signed {@link ReplyCertificate} per executed batch with each client's {@link
 * ReplyBundle}. Evidence goes to the {@link Ready} each call is given.
 */
public final class ClientRequests {
  /** What execution does with one ordered request ({@link #order}). */
  public enum Order {
    /** A duplicate, a replay, or a sequence of another client: every correct replica skips it. */
    SKIP,
    /** Ends its sequence; the client gets an empty reply ({@link #answerTerminates}). */
    TERMINATE,
    /** Executes. */
    RUN
  }

  private final GroupConfig cfg;
  private final int id;
  private final Signer signer;
  private final Verifier verifier;
  private final RandomizedOperations operations;
  private final ClientTable table;
  /** Which clients are members of a replicated client (BFT-WS §3.4); none unless declared. */
  private ReplicatedClients replicated = ReplicatedClients.none();
  private RequestFilter filter;
  /** Replicated clients' recent replies, for lagging members ({@link MemberReplies}). */
  private final MemberReplies memberReplies;
  /** {@link ClientTable#removals} when {@link #memberReplies} last dropped the sequences the table no longer holds. */
  private long removalsSeen;
  /** False at a replica that only orders (BFT-WS §3.3.2): it never answers a client. */
  private boolean replies = true;

  public ClientRequests(GroupConfig cfg, int id, Signer signer, Verifier verifier, RandomizedOperations operations) {
    this.table = new ClientTable(cfg.get(GroupConfig.CLIENT_TABLE_RETENTION));
    this.cfg = cfg;
    this.id = id;
    this.signer = signer;
    this.verifier = verifier;
    this.operations = operations;
    this.filter = new RequestFilter(replicated, cfg.get(GroupConfig.MAX_REQUESTS_AHEAD));
    this.memberReplies = new MemberReplies(cfg.get(GroupConfig.MAX_REQUESTS_AHEAD));
  }

  /** The client table (§4.1: each client's last request and reply), shared with the checkpoints. */
  public ClientTable table() {
    return table;
  }

  /**
   * Declares the replicated clients (BFT-WS §3.4), alike on every replica and before the first step: their
   * members' requests are ordered only with p+1 identical copies ({@link #filter}) and answered to every
   * member.
   */
  public void replicatedClients(ReplicatedClients clients) {
    this.replicated = clients;
    this.filter = new RequestFilter(clients, cfg.get(GroupConfig.MAX_REQUESTS_AHEAD));
  }

  /** Whom {@code client}'s sequences belong to: its replicated client's principal, else itself. */
  private int principal(int client) {
    return replicated.principal(client);
  }

  /**
   * This replica orders without executing (BFT-WS §3.3.2, configuration II): it sends no reply, not even
   * from the cache (a terminate's tombstone) or to a terminate.
   */
  public ClientRequests neverReply() {
    replies = false;
    return this;
  }

  /**
   * Checks an authentic request envelope from a client before it may become pending; null if it may, else
   * the evidence against the client.
   */
  public String refusal(Signed s, Request q) {
    if (q.client() != s.sender()) {
      return "request signed by another client";
    }
    if (q.operation().length > cfg.get(GroupConfig.MAX_REQUEST_BYTES)) {
      return "request larger than " + GroupConfig.MAX_REQUEST_BYTES.name();
    }
    if (needlesslyRandomized(q)) {
      // Not even pending: it would never be batched, and a backup's view-change timer would fire on it.
      return "request " + q.id() + " flagged randomized for an operation that is not";
    }
    if (table.ownedByOther(q, principal(q.client()))) {
      return "request " + q.id() + " on another client's sequence";
    }
    return null;
  }

  /**
   * A request that is not new: answers from the reply cache when it is the last executed one of its
   * sequence (the client missed our reply), or a replicated client's member from its recent replies (the
   * member lags behind the others). False when the request is new.
   */
  public boolean answeredFromCache(Request q, long view, Ready out) {
    if (table.isNew(q.id())) {
      return false;
    }
    ClientTable.Entry e = table.get(q.sequenceId());
    if (e == null) {
      return true; // of a pruned sequence: old, and no reply is kept for it
    }
    if (e.messageNumber == q.messageNumber() && e.result != null) {
      sendReplies(Kind.REPLY, view, List.of(q), List.of(e.result), List.of(e.random), false, out);
      return true;
    }
    byte[][] reply = replicated.isMember(q.client()) ? memberReplies.get(q.id()) : null;
    if (reply != null) {
      sendReplies(Kind.REPLY, view, List.of(q), List.of(reply[0]), List.of(reply[1]), false, out);
    }
    return true;
  }

  /**
   * The filtering mechanism (BFT-WS §3.4, {@link RequestFilter}) for an admissible request: the signed
   * copies to order — {@code s} alone, or p+1 identical copies from distinct members of a replicated client —
   * or an empty list while those have not arrived.
   */
  public List<Signed> filter(Signed s, Request q) {
    return filter.offer(s, q);
  }

  /**
   * A backup's check of a whole batch (§3.4): every request of a replicated client in it comes with p+1
   * identical copies from distinct members; null if so, else the evidence against the proposer.
   */
  public String unfilteredInBatch(List<Signed> batch) {
    if (replicated.isEmpty()) {
      return null;
    }
    List<Request> decoded = new ArrayList<>(batch.size());
    for (Signed q : batch) {
      decoded.add(Request.decode(q.body()));
    }
    return filter.unfiltered(decoded);
  }

  /** After a state transfer: copies of requests no longer new are dropped. */
  public void forgetExecutedCopies() {
    filter.forgetIf(id -> !table.isNew(id));
    forgetRemovedSequences();
  }

  /** The client table dropped entries (pruned, or replaced by state transfer): so do the members' replies. */
  private void forgetRemovedSequences() {
    if (table.removals() != removalsSeen) {
      removalsSeen = table.removals();
      memberReplies.retain(sequenceId -> table.get(sequenceId) != null);
    }
  }

  /** Sequences with replicated clients' recent replies (for tests): never more than the client table holds. */
  int memberReplySequences() {
    return memberReplies.sequences();
  }

  /** Bounded memory: false when a new request is too far ahead of its sequence or too many are pending. */
  public boolean admissible(Request q, int pending) {
    ClientTable.Entry last = table.get(q.sequenceId());
    long executedUpTo = last == null ? 0 : last.messageNumber;
    return (q.terminates() || q.messageNumber() <= executedUpTo + cfg.get(GroupConfig.MAX_REQUESTS_AHEAD))
        && pending < cfg.get(GroupConfig.MAX_PENDING);
  }

  /**
   * Checks one request of a batch to order (§4.2: "verifies"): an authentic, well-formed client request;
   * null if it is, else the evidence against whoever proposed the batch. {@code alreadyVerified} skips the
   * client-signature check for an envelope this replica verified before.
   */
  public String invalidInBatch(Signed q, boolean alreadyVerified) {
    Request r;
    try {
      r = Request.decode(q.body());
    } catch (DecodeException e) {
      return "batch with a malformed request";
    }
    if (q.sender() < cfg.clientBase() || r.client() != q.sender()
        || (!alreadyVerified && !q.verify(verifier))) {
      return "batch with a request the client did not sign";
    }
    if (r.operation().length > cfg.get(GroupConfig.MAX_REQUEST_BYTES)) {
      return "batch with an oversized request";
    }
    if (needlesslyRandomized(r)) {
      return "batch with request " + r.id() + " flagged randomized for an operation that is not";
    }
    if (r.namesAnotherClientThan(principal(r.client()))) {
      // decidable from the request alone, so refused like a forged one rather than ordered and skipped at
      // execution (the first-come rule for other ids depends on what was executed, so it has to wait)
      return "batch with request " + r.id() + " on another client's sequence";
    }
    return null;
  }

  /**
   * The client flagged the request randomized but its operation is not (integrity paper §4: refusing
   * needless coin or contribution work is a DoS defence).
   */
  public boolean needlesslyRandomized(Request q) {
    return q.randomized() && !operations.isRandomized(q);
  }

  /** The embedding's verdict: the request's operation needs a collective random number (so it must be ordered). */
  public boolean randomizedOperation(Request q) {
    return operations.isRandomized(q);
  }

  /** True when (sequence, message number) is newer than anything ordered for that sequence. */
  public boolean isNew(RequestId r) {
    return table.isNew(r);
  }

  /** True when the request would be executed if ordered now (new, and on a sequence it may use). */
  public boolean wouldRun(Request r) {
    return table.isNew(r.id()) && !table.ownedByOther(r, principal(r.client()));
  }

  /** Execution of one ordered request, in order: records it in the client table and says what to do. */
  public Order order(Request r) {
    filter.forget(r.id()); // ordered (the first copy runs, the others are duplicates): no more copies needed
    if (!wouldRun(r)) {
      return Order.SKIP;
    }
    if (r.terminates()) {
      table.terminated(r, principal(r.client()));
      forgetRemovedSequences();
      return Order.TERMINATE;
    }
    table.ordered(r.id(), principal(r.client()));
    forgetRemovedSequences();
    return Order.RUN;
  }

  /**
   * Checks that {@code results} answer the execution both engines await, {@code head}: the embedding must
   * feed each {@link Effect.Execute}'s results back in order, one per request (see {@link Ready}).
   */
  public static void checkResults(Effect.Execute head, long seq, List<byte[]> results) {
    if (head == null || head.seq() != seq) {
      throw new IllegalStateException("executed(" + seq + ") but awaiting " + (head == null ? "none" : head.seq()));
    }
    if (results.size() != head.requests().size()) {
      throw new IllegalStateException("executed(" + seq + "): " + results.size() + " results for "
          + head.requests().size() + " requests");
    }
  }

  /** The results of an executed batch: cached in the client table and sent to the clients. */
  public void executed(Effect.Execute batch, List<byte[]> results, Ready out) {
    for (int i = 0; i < results.size(); i++) {
      Request q = batch.requests().get(i);
      table.result(q.id(), results.get(i), batch.randoms().get(i));
      if (replicated.isMember(q.client())) {
        memberReplies.remember(q.id(), results.get(i), batch.randoms().get(i));
      }
    }
    sendReplies(batch.view(), batch.requests(), results, batch.randoms(), out);
  }

  /**
   * A terminate is the replica's own business, not the application's: ordered, it turns the sequence's
   * client-table entry into a tombstone, and the client gets an empty reply so that it knows f+1 replicas
   * did so.
   */
  public void answerTerminates(long view, List<Request> terminates, Ready out) {
    if (!terminates.isEmpty()) {
      List<byte[]> empty = Collections.nCopies(terminates.size(), ClientTable.EMPTY);
      sendReplies(view, terminates, empty, empty, out);
    }
  }

  /**
   * One signed certificate for the whole batch, and to each client its entry with its result (§4.1); a
   * replicated client's entry to every member (BFT-WS §3.4: each votes on the nested reply, and the copies of
   * members whose own request was not in the batch are answered too).
   */
  public void sendReplies(long view, List<Request> requests, List<byte[]> results, List<byte[]> randoms, Ready out) {
    sendReplies(Kind.REPLY, view, requests, results, randoms, true, out);
  }

  /** The reply to a read-only request (Castro-Liskov §5.1.3), signed as such: never cached. */
  public void sendReadOnlyReply(long view, Request request, byte[] result, Ready out) {
    sendReplies(Kind.READ_ONLY_REPLY, view, List.of(request), List.of(result), List.of(ClientTable.EMPTY), false,
        out);
  }

  /** True once a terminate of {@code sequenceId} was ordered (its entry is a tombstone, or was pruned). */
  public boolean terminated(String sequenceId) {
    ClientTable.Entry e = table.get(sequenceId);
    return e != null ? e.messageNumber == Request.TERMINATE : table.pruned(sequenceId);
  }

  /** {@code toMembers}: a replicated client's entry goes to all its members, else to the request's signer. */
  private void sendReplies(Kind kind, long view, List<Request> requests, List<byte[]> results, List<byte[]> randoms,
      boolean toMembers, Ready out) {
    if (!replies) {
      return;
    }
    List<ReplyCertificate.Entry> entries = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      Request q = requests.get(i);
      entries.add(new ReplyCertificate.Entry(q.sequenceId(), q.messageNumber(),
          ReplyCertificate.resultDigest(results.get(i), randoms.get(i))));
    }
    Signed certificate = Signed.sign(kind, id, new ReplyCertificate(view, entries).encode(), signer);
    for (int i = 0; i < requests.size(); i++) {
      byte[] bundle = ReplyBundle.of(certificate, i, results.get(i), randoms.get(i)).encode();
      int client = requests.get(i).client();
      for (int to : toMembers ? replicated.members(client) : List.of(client)) {
        out.messages.add(new Ready.Outbound(to, bundle));
      }
    }
  }
}
