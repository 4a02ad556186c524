package org.bftws.core.pbft;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Envelopes;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Status;
import org.bftws.core.message.Vote;
import org.bftws.core.replication.Checkpoints;
import org.bftws.core.replication.ClientRequests;
import org.bftws.core.replication.ClientTable;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.Decryptions;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.replication.ReplicatedClients;

/**
 * One PBFT replica (Castro-Liskov, OSDI'99 §4, with signatures) as a pure state machine: it is stepped
 * with messages ({@link #receive}), ticks ({@link #tick}), execution results ({@link #executed}) and
 * captured state ({@link #stateCaptured}), and each step returns a {@link Ready}. No threads, clocks,
 * sockets or randomness: the same inputs give the same outputs. This class holds the normal case and
 * execution; {@link ViewChanges} and {@link Checkpoints} hold §4.4 and §4.3 (with state transfer),
 * {@link Coins} the threshold coin-tossing of the CT algorithm (integrity paper §5) and {@link
 * Contributions} the BA algorithm (§4): prepares and commits of a batch with randomized requests are then
 * on d' = D(d || R) ({@link #voteDigest}); {@link Decryptions} opens confidential requests once their batch
 * committed (SINTRA §2.6).
 *
 * <p>With {@link Authenticators} ({@code bftws.authentication=macs}) prepares and commits also carry an
 * authenticator (Castro-Liskov TOCS 2002 §3.2): a receiver accepts them by their MAC, checks a prepare's
 * signature only when the prepare goes into its prepared certificate ({@link VoteAuthentication#preparedProof}), and never
 * checks a commit's. Every certificate stays a list of signed messages, each verified before it is used;
 * docs/design/cryptography.md ("Authenticators") gives the argument.
 */
public final class Replica implements Engine {
  final GroupConfig cfg;
  final int id;
  final int n;
  final int f;
  final Signer signer;
  final Verifier verifier;
  /** How votes are authenticated: by signatures, or with authenticators ({@code bftws.authentication}). */
  private final VoteAuthentication votes;
  final Role role;
  /** Which requests are randomized: the embedding decides, not the client (integrity paper §4). */
  final RandomizedOperations operations;

  // Written only here (collaborators go through the view state transitions below); read by them.
  long view;
  /** False between sending VIEW-CHANGE for {@link #view} and accepting its NEW-VIEW. */
  boolean active = true;
  long now;
  /** Primary only: the next sequence number to assign. */
  private long nextSeq = 1;
  /** The last sequence number handed to execution (or installed by state transfer). */
  long lastExecuted;
  final TreeMap<Long, Slot> log = new TreeMap<>();
  /** Admission and batch checks of client requests, the client table and replies (shared with async). */
  final ClientRequests requests;
  final ClientTable clients;
  /**
   * Authentic requests waiting to execute, in arrival order, each with the signed copies to order (one, or a
   * replicated client's p+1, BFT-WS §3.4); the view-change timer watches them.
   */
  private final LinkedHashMap<RequestId, List<Signed>> pending = new LinkedHashMap<>();
  /** Primary only: requests already placed in a pre-prepare of this view. */
  private final Set<RequestId> proposed = new HashSet<>();
  private final ArrayDeque<Effect.Execute> awaitingResults = new ArrayDeque<>();
  /** Sequence number whose state capture is awaited; execution pauses meanwhile (-1: none). */
  private long pendingCapture = -1;
  /** When the view-change timer started (-1: stopped). */
  private long timerStart = -1;
  /** The highest checkpoint installed by state transfer: results and states at or below it are moot. */
  private long installedUpTo;
  private long lastRetransmit;
  private long executedAtLastRetransmit = -1;

  final Checkpoints checkpoints;
  final ViewChanges viewChanges;
  final Coins coins;
  /** Confidential requests (SINTRA §2.6): opened after their batch commits, before it executes. */
  final Decryptions decryptions;
  final Contributions contributions;
  /** Status messages (TOCS 2002 §5.2): peers resend what a replica that is behind lacks. */
  private final Statuses statuses;
  /** While alone in a view change: executing what commits in a lower view (configuration II needs it). */
  final LateCommits lateCommits;
  /** Requests executed without ordering (Castro-Liskov §5.1.3). */
  private final ReadOnlyRequests readOnly;
  /** Configuration III: committed batches certified for the execution nodes (BFT-WS §3.3.3). */
  private final Handouts handouts;
  /** What this replica writes to its journal, when it keeps one ({@link #journaled}). */
  final Journaling journal = new Journaling(this);
  Ready out = new Ready();

  public Replica(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
    this(cfg, id, signer, verifier, Role.BOTH);
  }

  public Replica(GroupConfig cfg, int id, Signer signer, Verifier verifier, Role role) {
    this(cfg, id, signer, verifier, role, RandomnessConfig.none());
  }

  /**
   * A replica that tosses threshold coins for randomized requests (CT algorithm, integrity paper §5) with
   * {@code coins}; {@code null} gives randomized requests empty random numbers.
   */
  public Replica(GroupConfig cfg, int id, Signer signer, Verifier verifier, Role role, CoinConfig coins) {
    this(cfg, id, signer, verifier, role, RandomnessConfig.ct(coins));
  }

  /** A replica that gets the random numbers of randomized requests as {@code randomness} says (§4 BA, §5 CT). */
  public Replica(GroupConfig cfg, int id, Signer signer, Verifier verifier, Role role, RandomnessConfig randomness) {
    this(cfg, id, signer, verifier, role, randomness, null);
  }

  /**
   * A replica that authenticates prepares and commits with {@code macs} (null: by signatures alone), as
   * every replica of its group must.
   */
  public Replica(GroupConfig cfg, int id, Signer signer, Verifier verifier, Role role, RandomnessConfig randomness,
      Authenticators macs) {
    this.cfg = cfg;
    this.n = cfg.n();
    this.f = cfg.f();
    if (id < 0 || id >= n) {
      throw new IllegalArgumentException("replica id " + id + " outside 0.." + (n - 1));
    }
    this.id = id;
    this.signer = signer;
    this.verifier = verifier;
    this.votes = new VoteAuthentication(this, macs);
    if (role == Role.EXECUTION) {
      throw new IllegalArgumentException("an execution node is not a PBFT replica: it executes the batches the "
          + "agreement replicas order (configuration III), as an ExecutionNode");
    }
    if (!cfg.executionNodes().isEmpty() && randomness.algorithm() != RandomnessConfig.Algorithm.NONE) {
      throw new IllegalArgumentException("configuration III hands out batches without random numbers: "
          + "randomized operations need configuration I or II");
    }
    if (role != Role.of(cfg, id)) {
      throw new IllegalArgumentException("replica " + id + " as " + role + ", but the group's "
          + GroupConfig.EXECUTING_REPLICAS.name() + " " + cfg.executingReplicas() + " make it " + Role.of(cfg, id));
    }
    this.role = role;
    this.operations = randomness.operations();
    this.requests = new ClientRequests(cfg, id, signer, verifier, operations);
    if (role == Role.AGREEMENT) {
      requests.neverReply();
    }
    this.clients = requests.table;
    Host host = new Host();
    this.checkpoints = new Checkpoints(cfg, id, signer, verifier, clients, Checkpoints.PBFT_TAG, true,
        host);
    this.viewChanges = new ViewChanges(this);
    this.coins = new Coins(cfg, id, signer, operations,
        randomness.algorithm() == RandomnessConfig.Algorithm.CT ? randomness.coins() : null, host);
    this.contributions = new Contributions(this, randomness);
    this.decryptions = new Decryptions(cfg, id, signer, host);
    this.statuses = new Statuses(this);
    this.lateCommits = new LateCommits(this);
    this.readOnly = new ReadOnlyRequests(cfg, requests, role);
    this.handouts = new Handouts(this);
  }

  /**
   * Declares which operations clients may have executed without ordering (Castro-Liskov §5.1.3); before the
   * first step, alike on every replica. Without it every read-only request is refused.
   */
  public Replica readOnlyOperations(ReadOnlyOperations ops) {
    readOnly.declare(ops);
    return this;
  }

  /**
   * Declares the group's confidential requests and this replica's TDH2 key share (SINTRA §2.6, {@link
   * Decryptions}); before the first step, alike on every replica. Without it no request is confidential.
   */
  public Replica confidentialOperations(ConfidentialConfig config) {
    decryptions.declare(config);
    return this;
  }

  /**
   * Declares which client keys form one replicated client (BFT-WS §3.4, {@link ReplicatedClients}), alike on
   * every replica and before the first step: their requests are ordered only with p+1 identical copies from
   * distinct members. Without it every client stands alone.
   */
  public Replica replicatedClients(ReplicatedClients clients) {
    requests.replicatedClients(clients);
    return this;
  }

  /**
   * Makes this replica emit {@link Journal} records in {@link Ready#persist} (restart with state, TOCS 2002
   * §4.3); before the first step. ({@code async.AsyncReplica} and {@link ExecutionNode} keep no journal.)
   */
  public Replica journaled() {
    journal.enable();
    checkpoints.journaled();
    return this;
  }

  /**
   * The first step of a replica restarted from its journal ({@link Journal}), called on a freshly
   * constructed, {@link #journaled} one: reinstalls the stable checkpoint (an {@link Effect.InstallState}),
   * the view (resending its VIEW-CHANGE, or re-entering through its NEW-VIEW), the prepared certificates and
   * the messages it signed in that view ({@link Recovery}); it then catches up like any replica that is
   * behind. The returned Ready may persist again records the journal holds: appending them is harmless.
   *
   * @throws IllegalArgumentException if the journal is damaged (a record that does not decode or does not
   *     check out)
   */
  @Override
  public Ready recover(List<Journal.Record> records) {
    if (!journal.on() || now != 0 || lastExecuted != 0 || !log.isEmpty() || view != 0) {
      throw new IllegalStateException("recover() is the first step of a fresh, journaled replica");
    }
    new Recovery(this).run(records);
    return flush();
  }

  // ---------------------------------------------------------------- inputs

  /** A message from a peer or client, as received (not yet authenticated: this method checks). */
  public Ready receive(byte[] bytes) {
    Signed s = Envelopes.open(bytes, this::allowedSender, kind -> "sender not allowed to send " + kind, this::evidence);
    if (s != null) {
      Envelopes.deliver(s, this::isDuplicate, votes::authentic, this::dispatch, this::evidence);
    }
    return flush();
  }

  /**
   * Clients send requests, execution nodes their checkpoints (configuration III), peer replicas the rest. Our
   * own checkpoint vote may come back inside a stable checkpoint's relayed proof: after a restart it is the
   * vote this replica no longer holds, and without it a proof of which it was one of 2f+1 signers falls short.
   * So may our own NEW-VIEW and VIEW-CHANGE, resent to us after a restart ({@link ViewChanges#onNewView}).
   */
  private boolean allowedSender(Signed s) {
    if (s.kind().fromClient()) {
      return s.sender() >= n;
    }
    if (s.kind() == Kind.EXECUTION_CHECKPOINT) {
      return handouts.active() && cfg.isExecutionNode(s.sender());
    }
    return s.sender() >= 0 && s.sender() < n && (s.sender() != id || s.kind() == Kind.CHECKPOINT
        || s.kind() == Kind.NEW_VIEW || s.kind() == Kind.VIEW_CHANGE);
  }

  /** One unit of logical time: drives the view-change timer and retransmissions. */
  public Ready tick() {
    now++;
    viewChanges.onTick();
    if (now - lastRetransmit >= cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      lastRetransmit = now;
      retransmit();
    }
    return flush();
  }

  /** The results of the {@link Effect.Execute} for seq, in request order. */
  public Ready executed(long seq, List<byte[]> results) {
    Effect.Execute head = awaitingResults.peek();
    if ((head == null || head.seq() != seq) && seq <= installedUpTo) {
      return flush(); // an execution that a state transfer superseded meanwhile: its result is moot
    }
    ClientRequests.checkResults(head, seq, results);
    awaitingResults.poll();
    requests.executed(head, results, out);
    return flush();
  }

  /** The result of the {@link Effect.ExecuteReadOnly} for {@code request}: replied to at once, never cached. */
  @Override
  public Ready executedReadOnly(Request request, byte[] result) {
    readOnly.executed(view, request, result, out);
    return flush();
  }

  /** The application state captured for the checkpoint at seq ({@code get_state}). */
  public Ready stateCaptured(long seq, byte[] appState) {
    if (seq != pendingCapture) {
      if (seq <= installedUpTo) {
        return flush(); // superseded by a state transfer meanwhile
      }
      throw new IllegalStateException("stateCaptured(" + seq + ") but awaiting " + pendingCapture);
    }
    if (!awaitingResults.isEmpty()) {
      throw new IllegalStateException("stateCaptured(" + seq + ") before the results of " + awaitingResults.peek().seq());
    }
    pendingCapture = -1;
    checkpoints.own(seq, appState);
    executeCommitted();
    return flush();
  }

  // ---------------------------------------------------------------- dispatch

  private void dispatch(Signed s) {
    switch (s.kind()) {
      case REQUEST -> onRequest(s, Request.decode(s.body()));
      case READ_ONLY_REQUEST -> readOnly.onRequest(s, Request.decode(s.body()), out);
      case PRE_PREPARE -> onPrePrepare(s, PrePrepare.decode(s.body()));
      case PREPARE -> onPrepare(s, Vote.decode(s.body()));
      case COMMIT -> onCommit(s, Vote.decode(s.body()));
      case CHECKPOINT -> checkpoints.onCheckpoint(s);
      case VIEW_CHANGE -> viewChanges.onViewChange(s);
      case NEW_VIEW -> viewChanges.onNewView(s);
      case FETCH_STATE -> checkpoints.onFetchState(s);
      case STATE -> checkpoints.onStateTransfer(s);
      case COIN_SHARE -> coins.onShare(s);
      case DECRYPTION_SHARE -> decryptions.onShare(s);
      case PP_UPDATE -> contributions.onPpUpdate(s);
      case STATUS -> onStatus(s.sender(), Status.decode(s.body()));
      case REPLY, READ_ONLY_REPLY -> evidence(s.sender(), "a reply sent to a replica");
      case ASYNC -> evidence(s.sender(), "an asynchronous-protocol message sent to a PBFT replica");
      case EXECUTION_CHECKPOINT -> handouts.onExecutionCheckpoint(s);
      case ORDERED, EXECUTION_FETCH, EXECUTION_STATE -> evidence(s.sender(), "an execution node's message sent to a replica");
    }
  }

  /**
   * A byte-identical copy of a prepare or commit we already hold (retransmissions) needs no second
   * signature check: signatures are the dominant cost of a step.
   */
  private boolean isDuplicate(Signed s) {
    if (s.kind() != Kind.PREPARE && s.kind() != Kind.COMMIT) {
      return false;
    }
    Vote v = Vote.decode(s.body());
    Slot slot = log.get(v.seq());
    if (slot == null || slot.view != v.view()) {
      return false;
    }
    Signed held = (s.kind() == Kind.PREPARE ? slot.prepares : slot.commits).get(s.sender());
    return held != null && Arrays.equals(held.signature(), s.signature());
  }

  // ---------------------------------------------------------------- normal case (§4.2)

  boolean isPrimary() {
    return cfg.primaryOf(view) == id;
  }

  boolean inWindow(long seq) {
    long h = checkpoints.stableSeq;
    return seq > h && seq <= h + cfg.logWindow();
  }

  Slot slot(long seq) {
    return log.computeIfAbsent(seq, s -> new Slot(s, view));
  }

  private void onRequest(Signed s, Request q) {
    String refusal = requests.refusal(s, q);
    if (refusal == null) {
      refusal = decryptions.refusal(q);
    }
    if (refusal != null) {
      evidence(s.sender(), refusal);
      return;
    }
    if (requests.answeredFromCache(q, view, out)) {
      return;
    }
    if (!requests.admissible(q, pending.size())) {
      return; // bounded memory: the client retransmits once earlier requests have executed
    }
    List<Signed> copies = requests.filter(s, q);
    if (copies.isEmpty()) {
      return; // a replicated client's request with fewer than p+1 identical copies so far (§3.4)
    }
    pending.putIfAbsent(q.id(), copies);
    // The primary watches its own pending requests too: if it cannot get them committed (its backups
    // left the view, or its messages do not arrive) it asks for a new view like any backup would.
    startTimer();
    propose();
  }

  /** Primary: assign sequence numbers to batches of pending requests while the window allows (§5.1). */
  void propose() {
    if (!active || !isPrimary()) {
      return;
    }
    int maxBatch = cfg.get(GroupConfig.MAX_BATCH_SIZE);
    while (nextSeq - 1 - lastExecuted < cfg.get(GroupConfig.MAX_OUTSTANDING_BATCHES) && inWindow(nextSeq)) {
      List<Signed> batch = new ArrayList<>();
      for (Map.Entry<RequestId, List<Signed>> e : pending.entrySet()) {
        if (batch.size() >= maxBatch) {
          break;
        }
        if (!proposed.contains(e.getKey()) && clients.isNew(e.getKey())) {
          batch.addAll(e.getValue());
        }
      }
      if (batch.isEmpty()) {
        return;
      }
      PrePrepare pp = PrePrepare.of(view, nextSeq++, batch);
      Signed contribution = contributions.primaryContribution(pp);
      if (contribution != null) {
        pp = pp.withRandomness(contribution); // BA (integrity paper §4): R_p rides in the pre-prepare
      }
      markProposed(batch);
      Signed msg = sign(Kind.PRE_PREPARE, pp.encode());
      multicast(msg);
      acceptPrePrepare(msg, pp);
    }
  }

  private void onPrePrepare(Signed s, PrePrepare pp) {
    if (pp.view() != view || !active) {
      if (pp.view() < view) {
        lateCommits.onPrePrepare(s, pp);
      }
      viewChanges.noteView(s.sender(), pp.view());
      return;
    }
    if (s.sender() != cfg.primaryOf(view)) {
      evidence(s.sender(), "pre-prepare from a backup");
      return;
    }
    if (!inWindow(pp.seq())) {
      return; // outside the watermarks (§4.2): drop; a lagging replica catches up by state transfer
    }
    Slot slot = slot(pp.seq());
    if (slot.prePrepare != null) {
      if (!Arrays.equals(slot.prePrepare.digest(), pp.digest())) {
        evidence(s.sender(), "equivocation: two pre-prepares for view " + view + " seq " + pp.seq());
      }
      return;
    }
    if (!validBatch(s.sender(), pp.requests()) || !contributions.checkPrePrepare(s.sender(), pp)) {
      return;
    }
    acceptPrePrepare(s, pp);
  }

  /**
   * Every request in a batch must be an authentic, well-formed client request (§4.2: "verifies"), and a
   * replicated client's must come with p+1 identical copies from distinct members (BFT-WS §3.4).
   */
  boolean validBatch(int primary, List<Signed> batch) {
    for (Signed q : batch) {
      String invalid = requests.invalidInBatch(q, alreadyVerified(q));
      if (invalid != null) {
        evidence(primary, invalid);
        return false;
      }
    }
    String unfiltered = requests.unfilteredInBatch(batch);
    if (unfiltered != null) {
      evidence(primary, unfiltered);
      return false;
    }
    return true;
  }

  /** A copy of a request this replica verified before (it is pending here): no second signature check. */
  private boolean alreadyVerified(Signed q) {
    List<Signed> known = null;
    try {
      known = pending.get(Request.decode(q.body()).id());
    } catch (DecodeException e) {
      // invalidInBatch names it
    }
    return known != null && known.stream().anyMatch(k -> Arrays.equals(k.signature(), q.signature()));
  }

  /**
   * The client flagged the request randomized but its operation is not (integrity paper §4: the primary
   * checks whether the operation is randomized, and a backup verifies it — refusing needless coin or
   * contribution work is a DoS defence). The primary never batches such a request; a backup refuses a
   * pre-prepare holding one (no prepare: the view-change timer deals with a primary that insists).
   */
  boolean needlesslyRandomized(Request q) {
    return requests.needlesslyRandomized(q);
  }

  /** Record an accepted (or, at the primary, sent) pre-prepare and send our prepare. */
  void acceptPrePrepare(Signed msg, PrePrepare pp) {
    Slot slot = slot(pp.seq());
    slot.prePrepareMessage = msg;
    slot.prePrepare = pp;
    journal.signed(pp.seq(), msg); // accepted: no other pre-prepare for (v, n) after a restart either
    out.events.add(new Event.PrePrepared(view, pp.seq(), pp.digest()));
    contributions.accepted(slot, pp);
    sendPrepare(slot);
    checkPrepared(slot);
  }

  /** A backup's prepare, once the digest to vote on is known (BA: after the entropy combination, §4). */
  private void sendPrepare(Slot slot) {
    byte[] d = voteDigest(slot);
    if (isPrimary() || slot.ownPrepare != null || d == null) {
      return;
    }
    Signed prepare = sign(Kind.PREPARE, new Vote(view, slot.seq, d).encode());
    slot.ownPrepare = prepare;
    slot.prepares.put(id, prepare);
    slot.prepareDigests.put(id, d);
    journal.signed(slot.seq, prepare);
    multicast(prepare);
  }

  /** BA: R became known for this slot's batch; prepare on d' now. */
  void randomnessKnown(Slot slot) {
    sendPrepare(slot);
    checkPrepared(slot);
  }

  /** What prepares and commits at this pre-prepared slot are on: d, or with BA d' (null until R is known). */
  byte[] voteDigest(Slot slot) {
    return contributions.voteDigest(slot);
  }

  private void onPrepare(Signed s, Vote v) {
    if (v.view() != view || !active) {
      viewChanges.noteView(s.sender(), v.view());
      return;
    }
    if (s.sender() == cfg.primaryOf(view)) {
      evidence(s.sender(), "prepare from the primary");
      return;
    }
    if (!inWindow(v.seq())) {
      return;
    }
    Slot slot = slot(v.seq());
    if (!record(slot.prepares, slot.prepareDigests, s, v, "prepare")) {
      return;
    }
    checkPrepared(slot);
  }

  private void onCommit(Signed s, Vote v) {
    if (v.view() != view || !active) {
      if (v.view() < view) {
        lateCommits.onCommit(s, v);
      }
      viewChanges.noteView(s.sender(), v.view());
      return;
    }
    if (!inWindow(v.seq())) {
      return;
    }
    Slot slot = slot(v.seq());
    if (!record(slot.commits, slot.commitDigests, s, v, "commit")) {
      return;
    }
    checkCommitted(slot);
  }

  private boolean record(Map<Integer, Signed> msgs, Map<Integer, byte[]> digests, Signed s, Vote v, String what) {
    byte[] before = digests.get(s.sender());
    if (before != null) {
      if (!Arrays.equals(before, v.digest())) {
        evidence(s.sender(), "double " + what + " for view " + v.view() + " seq " + v.seq());
      }
      return false;
    }
    msgs.put(s.sender(), s);
    digests.put(s.sender(), v.digest());
    return true;
  }

  /** prepared(m, v, n, i): the pre-prepare and 2f matching prepares from distinct backups (§4.2). */
  private void checkPrepared(Slot slot) {
    if (slot.prePrepare == null || slot.ownCommit != null) {
      return;
    }
    byte[] d = voteDigest(slot);
    if (d == null || slot.matching(slot.prepareDigests, d) < 2 * f) {
      return;
    }
    List<Signed> proof = votes.preparedProof(slot, d);
    if (proof.size() < 2 * f) {
      return; // a prepare's signature failed: wait for another
    }
    slot.prepared = new org.bftws.core.message.PreparedCertificate(slot.prePrepareMessage, List.copyOf(proof),
        contributions.certificate(slot));
    slot.preparedView = view;
    journal.prepared(slot.seq, slot.prepared);
    Signed commit = sign(Kind.COMMIT, new Vote(view, slot.seq, d).encode());
    slot.ownCommit = commit;
    slot.commits.put(id, commit);
    slot.commitDigests.put(id, d);
    journal.signed(slot.seq, commit);
    multicast(commit);
    checkCommitted(slot);
  }

  /** committed-local(m, v, n, i): prepared and 2f+1 matching commits (§4.2). */
  private void checkCommitted(Slot slot) {
    if (slot.ownCommit == null || slot.committedInView) {
      return;
    }
    byte[] d = slot.prePrepare.digest();
    if (slot.matching(slot.commitDigests, voteDigest(slot)) < 2 * f + 1) {
      return;
    }
    slot.committedInView = true;
    if (slot.committedBatch == null) {
      slot.committedBatch = slot.prePrepare.requests();
      slot.committedDigest = d;
    }
    out.events.add(new Event.Committed(view, slot.seq, d, slot.prePrepare.requests()));
    handouts.committed(slot);
    coins.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    decryptions.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    contributions.committed(slot);
    executeCommitted();
  }

  /** A status shows the view its sender is in (§4.5.2's f+1 rule counts it); peers resend what it lacks. */
  private void onStatus(int sender, Status st) {
    viewChanges.noteView(sender, st.view());
    statuses.onStatus(sender, st);
  }

  /**
   * pp committed in its view, below ours, while we change view ({@link LateCommits}): executed like our own
   * commits, in order; we never voted for it.
   */
  void committedInLowerView(Slot slot, PrePrepare pp) {
    slot.committedBatch = pp.requests();
    slot.committedDigest = pp.digest();
    out.events.add(new Event.Committed(pp.view(), slot.seq, pp.digest(), pp.requests()));
    coins.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    decryptions.committed(slot.seq, slot.committedDigest, slot.committedBatch);
    executeCommitted();
  }

  // ---------------------------------------------------------------- execution

  /**
   * Hand committed batches to execution in sequence order; pause after a checkpoint boundary until its
   * state is captured (the get_state injected at the head of the queue, BFT-WS §3.3.1.8), and before a
   * batch until the coins of its randomized requests are known (CT algorithm) and its confidential requests
   * opened (SINTRA §2.6); a confidential request whose ciphertext was refused is skipped, alike everywhere.
   */
  void executeCommitted() {
    boolean progressed = false;
    while (pendingCapture < 0 && lastExecuted >= checkpoints.stableSeq && !handouts.paused()) {
      Slot slot = log.get(lastExecuted + 1);
      if (slot == null || !slot.committed() || !coins.ready(slot.seq, slot.committedBatch) || !contributions.ready(slot)
          || !decryptions.ready(slot.seq, slot.committedBatch)) {
        break;
      }
      lastExecuted = slot.seq;
      List<Request> run = new ArrayList<>();
      List<byte[]> randoms = new ArrayList<>();
      List<CoinProof> coinProofs = new ArrayList<>();
      List<Request> terminates = new ArrayList<>();
      for (int i = 0; i < slot.committedBatch.size(); i++) {
        Request r = Request.decode(slot.committedBatch.get(i).body());
        pending.remove(r.id());
        proposed.remove(r.id());
        r = decryptions.opened(slot.seq, i, r);
        if (r == null) {
          continue; // a refused ciphertext: no correct replica executes it
        }
        ClientRequests.Order order = requests.order(r);
        if (order == ClientRequests.Order.SKIP) {
          continue; // a duplicate, a replay, or a sequence of another client: every correct replica skips it
        }
        if (order == ClientRequests.Order.TERMINATE) {
          terminates.add(r);
        } else {
          run.add(r);
          randoms.add(contributions.active() ? contributions.random(slot, i) : coins.random(slot.seq, i));
          coinProofs.add(contributions.active() ? CoinProof.NONE : coins.proof(slot.seq, i));
        }
      }
      if (!run.isEmpty() || !terminates.isEmpty()) {
        progressed = true;
      }
      requests.answerTerminates(view, terminates, out); // an agreement-only replica sends nothing
      if (!run.isEmpty() && role == Role.BOTH) {
        Effect.Execute ex = new Effect.Execute(slot.seq, view, slot.committedDigest, List.copyOf(run), List.copyOf(randoms),
            List.copyOf(coinProofs));
        awaitingResults.add(ex);
        out.effects.add(ex);
      }
      if (slot.seq % cfg.checkpointInterval() == 0 && role == Role.AGREEMENT) {
        checkpoints.own(slot.seq, null); // the ordering part alone: no service state here (BFT-WS §3.3.2)
      } else if (slot.seq % cfg.checkpointInterval() == 0) {
        pendingCapture = slot.seq;
        out.effects.add(new Effect.CaptureState(slot.seq));
      }
    }
    if (progressed) {
      viewChanges.onProgress();
    }
    propose();
  }

  // ---------------------------------------------------------------- view state transitions

  /**
   * Leave the view for w (Castro-Liskov §4.4; §4.5.2): no messages of the old view until NEW-VIEW for w, no
   * timer, nothing proposed; slots keep only their prepared certificates (they go into our VIEW-CHANGE).
   */
  void startViewChange(long w) {
    if (active) {
      lateCommits.leaving(view);
    }
    view = w;
    active = false;
    timerStart = -1;
    proposed.clear();
    resetSlotsForView(w);
  }

  /**
   * NEW-VIEW for w accepted (§4.4): enter w (a replica that sent no VIEW-CHANGE for w resets its slots now)
   * with nothing proposed; the pre-prepares of O follow ({@link #markProposed}, {@link #assignFrom}).
   */
  void enterView(long w) {
    if (view != w) {
      resetSlotsForView(w);
    }
    view = w;
    active = true;
    proposed.clear();
    lateCommits.entered();
  }

  private void resetSlotsForView(long w) {
    for (Slot slot : log.values()) {
      slot.resetForView(w);
    }
  }

  /** Primary: these requests are in a pre-prepare of this view (its own, or of O in §4.4); not batched again. */
  void markProposed(List<Signed> requests) {
    for (Signed q : requests) {
      proposed.add(Request.decode(q.body()).id());
    }
  }

  /** Primary: the next pre-prepare gets seq (§4.4: after the highest sequence number of O). */
  void assignFrom(long seq) {
    nextSeq = seq;
  }

  /** Primary after a restart: it sent a pre-prepare for seq, so the next one gets a higher number. */
  void assignAbove(long seq) {
    nextSeq = Math.max(nextSeq, seq + 1);
  }

  /** §4.5.2: the view-change timer starts when a request arrives and it is not already running. */
  private void startTimer() {
    if (timerStart < 0) {
      timerStart = now;
    }
  }

  /** §4.5.2: after an execution, or on entering a view, the timer runs again only if requests still wait. */
  void restartTimer() {
    timerStart = pending.isEmpty() ? -1 : now;
  }

  /** The view-change timer has run for at least {@code timeout} ticks (§4.4: the backup moves to v+1). */
  boolean timerExpired(long timeout) {
    return timerStart >= 0 && now - timerStart >= timeout;
  }

  /** A checkpoint at seq is stable or installed (§4.3): discard the log up to it; number above it. */
  void discardUpTo(long seq) {
    log.headMap(seq, true).clear();
    nextSeq = Math.max(nextSeq, seq + 1);
  }

  /** What {@link Checkpoints} and {@link Coins} need of this replica (one object: both read out and now). */
  private final class Host implements Checkpoints.Host, Coins.Host, Decryptions.Host {
    @Override
    public Ready out() {
      return out;
    }

    @Override
    public long reached() {
      return lastExecuted;
    }

    @Override
    public boolean orderingTowards(long seq) {
      for (long s = lastExecuted + 1; s <= seq; s++) {
        Slot slot = log.get(s);
        if ((slot == null || slot.prePrepare == null && !slot.committed()) && !lateCommits.holdsPrePrepare(s)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public long now() {
      return now;
    }

    @Override
    public void discardUpTo(long seq) {
      Replica.this.discardUpTo(seq);
      lateCommits.discardUpTo(seq);
      coins.discardUpTo(seq);
      decryptions.discardUpTo(seq);
      contributions.discardUpTo(seq);
    }

    /** Replace execution state by a proven checkpoint, whose client table is installed already (§4.3). */
    @Override
    public void installed(long seq) {
      installedUpTo = Math.max(installedUpTo, Math.max(seq, lastExecuted));
      lastExecuted = seq;
      awaitingResults.clear();
      pendingCapture = -1;
      nextSeq = Math.max(nextSeq, seq + 1);
      for (Iterator<RequestId> it = pending.keySet().iterator(); it.hasNext(); ) {
        RequestId r = it.next();
        if (!clients.isNew(r)) {
          it.remove();
          proposed.remove(r);
        }
      }
      requests.forgetExecutedCopies();
    }

    @Override
    public void resume() {
      executeCommitted();
    }

    @Override
    public long stableSeq() {
      return checkpoints.stableSeq;
    }

    @Override
    public long windowTop() {
      return checkpoints.stableSeq + cfg.logWindow();
    }

    @Override
    public long lastExecuted() {
      return lastExecuted;
    }

    @Override
    public void coinsKnown() {
      executeCommitted();
    }

    @Override
    public void decrypted() {
      executeCommitted();
    }
  }


  // ---------------------------------------------------------------- retransmission

  /**
   * Resend our own messages that peers may have lost. When this replica made no progress since the last
   * round, all of them to all; otherwise, for slots that committed here, only to the peers whose commit
   * never came (in the normal case nothing extra is sent). Without the second part a peer that lost one
   * message just as traffic ends waits up to two rounds, and if its clock runs faster than ours (we are
   * the loaded ones) its view-change timer fires first and it sits alone in a view change nobody joins
   * (this is the part our own log already tells us). What only the lagging replica knows it lacks comes
   * from its status ({@link Statuses}, TOCS 2002 §5.2), which a round also sends when due; a replica in a
   * view change resends its VIEW-CHANGE, its checkpoint vote and its fetch of a stable checkpoint above it.
   */
  private void retransmit() {
    boolean stalled = lastExecuted == executedAtLastRetransmit;
    executedAtLastRetransmit = lastExecuted;
    statuses.round(!active || lastExecuted < checkpoints.stableSeq);
    handouts.retransmit(); // in a view change too: the execution nodes may still lack what committed before
    if (!active) {
      viewChanges.retransmit();
      checkpoints.retransmit(stalled);
      if (stalled) {
        // shares are per seq, not per view: a replica whose timer fired while it waited for a committed
        // batch's coins or plaintexts still gets them, and executes, while alone in a view change
        coins.retransmit();
        decryptions.retransmit();
      }
      return;
    }
    checkpoints.retransmit(stalled);
    // Every slot above the stable checkpoint, executed here or not: a peer may still lack our commit.
    for (Slot slot : log.values()) {
      if (slot.view != view) {
        continue;
      }
      if (stalled) {
        resendOwn(slot, Ready.ALL_REPLICAS);
        continue;
      }
      for (int peer = 0; peer < n; peer++) {
        if (peer != id && slot.committed() && !slot.commits.containsKey(peer)) {
          resendOwn(slot, peer);
        }
      }
    }
    if (stalled) {
      coins.retransmit();
      decryptions.retransmit();
      contributions.retransmit();
    }
  }

  /**
   * To peer p, alone in a view change above ours and executed up to {@code from}: per slot of this view above
   * it that we executed, the pre-prepare (the primary's, forwarded by whoever holds it) and our commit, what
   * {@link LateCommits} needs ({@link Statuses}); our prepare it could not use.
   */
  void resendFrom(long from, int p) {
    if (from >= lastExecuted) {
      return; // nothing executed here above it (below our own stable checkpoint we are fetching it)
    }
    for (Slot slot : log.subMap(from, false, lastExecuted, true).values()) {
      if (slot.view != view) {
        continue;
      }
      if (slot.prePrepareMessage != null) {
        send(p, slot.prePrepareMessage);
      }
      if (slot.ownCommit != null) {
        send(p, slot.ownCommit);
      }
    }
  }

  /** {@code to}: a replica, or {@link Ready#ALL_REPLICAS}. */
  private void resendOwn(Slot slot, int to) {
    if (isPrimary() && slot.prePrepareMessage != null) {
      send(to, slot.prePrepareMessage);
    }
    if (slot.ownPrepare != null) {
      send(to, slot.ownPrepare);
    }
    if (slot.ownCommit != null) {
      send(to, slot.ownCommit);
    }
  }

  // ---------------------------------------------------------------- helpers

  Signed sign(Kind kind, byte[] body) {
    return Signed.sign(kind, id, body, signer);
  }

  void multicast(Signed msg) {
    out.messages.add(new Ready.Outbound(Ready.ALL_REPLICAS, votes.wire(msg)));
  }

  void send(int to, Signed msg) {
    out.messages.add(new Ready.Outbound(to, votes.wire(msg)));
  }

  /** {@link #send} to each of {@code to}, encoding msg once. */
  void send(List<Integer> to, Signed msg) {
    byte[] wire = votes.wire(msg);
    for (int node : to) {
      out.messages.add(new Ready.Outbound(node, wire));
    }
  }


  void evidence(int node, String what) {
    out.events.add(new Event.Evidence(node, what));
  }

  private Ready flush() {
    Ready r = out;
    out = new Ready();
    return r;
  }

  // ---------------------------------------------------------------- observers

  /** One line of state for logs and traces. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("view=").append(view).append(active ? "" : "(changing)").append(" executed=").append(lastExecuted)
        .append(" stable=").append(checkpoints.stableSeq).append(" nextSeq=").append(nextSeq)
        .append(" pending=").append(pending.size()).append(" capture=").append(pendingCapture).append(" log=[");
    for (Slot s : log.values()) {
      sb.append(s.seq).append(s.prePrepare != null ? "p" : "").append(s.ownCommit != null ? "c" : "")
          .append(s.committed() ? "C" : "").append(' ');
    }
    return sb.append(']').toString();
  }

  public int id() {
    return id;
  }

  @Override
  public long view() {
    return view;
  }

  /** PBFT has one: the replica view mod n (Castro-Liskov §4.1). */
  @Override
  public boolean hasPrimary() {
    return true;
  }

  @Override
  public boolean isActive() {
    return active;
  }

  public long lastExecuted() {
    return lastExecuted;
  }

  /** Logical time: the ticks so far. */
  long now() {
    return now;
  }

  public long stableCheckpoint() {
    return checkpoints.stableSeq;
  }

  @Override
  public int logSize() {
    return log.size();
  }

  public int pendingRequests() {
    return pending.size();
  }

  public Role role() {
    return role;
  }

  /** Configuration III: the highest seq the execution nodes' checkpoints released ({@link Handouts}). */
  long handoutsReleased() {
    return handouts.released();
  }

  /** Configuration III: certified batches held for the execution nodes. */
  int handoutsHeld() {
    return handouts.held();
  }
}
