package org.bftws.core.pbft;

import java.util.List;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Envelopes;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.KeySet;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.message.Status;
import org.bftws.core.message.Vote;
import org.bftws.core.replication.Checkpoints;
import org.bftws.core.replication.ClientRequests;
import org.bftws.core.replication.ClientTable;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.replication.Coins;
import org.bftws.core.replication.ConfidentialConfig;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.replication.Decryptions;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.core.replication.ShareRelease;

/**
 * One PBFT replica (Castro-Liskov, OSDI'99 §4, with signatures) as a pure state machine: it is stepped
 * with messages ({@link #receive}), ticks ({@link #tick}), execution results ({@link #executed}) and
 * captured state ({@link #stateCaptured}), and each step returns a {@link Ready}. No threads, clocks,
 * sockets or randomness: the same inputs give the same outputs. This class holds the replica's log, view
 * and timer and dispatches to the parts named after the paper's: {@link NormalCase} (§4.2), {@link
 * Execution}, {@link Retransmission}, {@link ViewChanges} (§4.4) and {@link Checkpoints} (§4.3, with state
 * transfer), {@link Coins} the threshold coin-tossing of the CT algorithm (integrity paper §5) and {@link
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
  final VoteAuthentication votes;
  final Role role;
  /** Which requests are randomized: the embedding decides, not the client (integrity paper §4). */
  final RandomizedOperations operations;

  // The view, its state and the time are written only here (collaborators go through the view state
  // transitions below), lastExecuted only by Execution; collaborators read them.
  long view;
  /** False between sending VIEW-CHANGE for {@link #view} and accepting its NEW-VIEW. */
  boolean active = true;
  long now;
  /** The last sequence number handed to execution (or installed by state transfer): {@link Execution}'s. */
  long lastExecuted;
  final TreeMap<Long, Slot> log = new TreeMap<>();
  /** Admission and batch checks of client requests, the client table and replies (shared with async). */
  final ClientRequests requests;
  final ClientTable clients;
  /** When the view-change timer started (-1: stopped). */
  private long timerStart = -1;
  /**
   * The membership epoch's last seq once a reconfiguration fixed it ({@link #endEpochAt}); nothing above it is
   * proposed, accepted or executed by this replica.
   */
  long epochEnd = Long.MAX_VALUE;
  /** Which operations may end the membership epoch (null: none); a batch holding one pauses execution. */
  final Predicate<byte[]> endsEpoch;

  final Checkpoints checkpoints;
  final ViewChanges viewChanges;
  final Coins coins;
  /** Confidential requests (SINTRA §2.6): opened after their batch commits, before it executes. */
  final Decryptions decryptions;
  /** When a batch's coin and decryption shares may go out under keys that change ({@code KeyEpochs}). */
  final ShareRelease shareRelease;
  final Contributions contributions;
  /** Status messages (TOCS 2002 §5.2): peers resend what a replica that is behind lacks. */
  final Statuses statuses;
  /** While alone in a view change: executing what commits in a lower view (configuration II needs it). */
  final LateCommits lateCommits;
  /** Requests executed without ordering (Castro-Liskov §5.1.3). */
  private final ReadOnlyRequests readOnly;
  /** Configuration III: committed batches certified for the execution nodes (BFT-WS §3.3.3). */
  final Handouts handouts;
  /** PBFT's normal case (§4.2): the requests waiting, pre-prepares, prepares and commits. */
  final NormalCase normalCase = new NormalCase(this);
  /** Committed batches to the service in order, and the checkpoints' state captures. */
  final Execution execution;
  /** Our own messages resent on each round. */
  final Retransmission retransmission = new Retransmission(this);
  /** What this replica writes to its journal, when it keeps one ({@link #journaled}). */
  final Journaling journal = new Journaling(this);
  Ready out = new Ready();

  /** A replica of group {@code cfg} with id {@code id}, signing with {@code signer}; see {@link Builder}. */
  public static Builder builder(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
    return new Builder(cfg, id, signer, verifier);
  }

  /**
   * What a replica is built with besides its group, id and keys: its role (the group's for its id unless
   * set), how randomized requests get their random numbers (none unless set) and its authenticators (none:
   * votes are signed).
   */
  public static final class Builder {
    private final GroupConfig cfg;
    private final int id;
    private final Signer signer;
    private final Verifier verifier;
    private Role role;
    private RandomnessConfig randomness = RandomnessConfig.none();
    private Authenticators macs;
    private boolean changingKeys;
    private Predicate<byte[]> endsEpoch;

    private Builder(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
      this.cfg = cfg;
      this.id = id;
      this.signer = signer;
      this.verifier = verifier;
    }

    /** The role this replica takes; it must be the one the group's executing replicas give its id. */
    public Builder role(Role r) {
      this.role = r;
      return this;
    }

    /** How randomized requests get their random numbers (integrity paper §4 BA, §5 CT). */
    public Builder randomness(RandomnessConfig r) {
      this.randomness = r;
      return this;
    }

    /**
     * Threshold coins for randomized requests (CT algorithm, integrity paper §5) with {@code coins}; {@code
     * null} gives randomized requests empty random numbers.
     */
    public Builder coins(CoinConfig coins) {
      return randomness(RandomnessConfig.ct(coins));
    }

    /**
     * Prepares and commits authenticated with {@code m} as well as signed (null: by signatures alone), as every
     * replica of the group must.
     */
    public Builder macs(Authenticators m) {
      this.macs = m;
      return this;
    }

    /**
     * Threshold keys that may change while the group runs ({@link #installKeys}): the coin and decryption
     * shares of a batch then wait until the results of every batch below it are back, so that the keys a
     * request's seq gets are known when its shares go out ({@code replication.KeyEpochs}).
     */
    public Builder changingKeys() {
      this.changingKeys = true;
      return this;
    }

    /**
     * Operations that may end the membership epoch (reconfigurations, docs/design/reconfiguration.md): a batch
     * holding one is the last handed to execution until its results are back, so the embedding has judged it,
     * and told this replica the epoch's end ({@link #endEpochAt}), before anything above it executes.
     */
    public Builder epochBoundaries(Predicate<byte[]> endsEpoch) {
      this.endsEpoch = endsEpoch;
      return this;
    }

    public Replica build() {
      return new Replica(cfg, id, signer, verifier, role == null ? Role.of(cfg, id) : role, randomness, macs,
          changingKeys, endsEpoch);
    }
  }

  private Replica(GroupConfig cfg, int id, Signer signer, Verifier verifier, Role role, RandomnessConfig randomness,
      Authenticators macs, boolean changingKeys, Predicate<byte[]> endsEpoch) {
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
    if (randomness.algorithm().agreement() && n != 3 * f + 1) {
      throw new IllegalArgumentException("the BA algorithm certifies exactly 2f+1 contributions: it needs n = 3f+1,"
          + " not " + n + " replicas with f = " + f + " (docs/design/reconfiguration.md)");
    }
    if (randomness.algorithm() == RandomnessConfig.Algorithm.CT && randomness.coins() == null && !changingKeys) {
      throw new IllegalArgumentException("the CT algorithm needs coin material (CoinConfig), or keys installed later"
          + " (Builder.changingKeys)");
    }
    this.role = role;
    this.endsEpoch = endsEpoch;
    this.operations = randomness.operations();
    this.requests = new ClientRequests(cfg, id, signer, verifier, operations);
    if (role == Role.AGREEMENT) {
      requests.neverReply();
    }
    this.clients = requests.table();
    this.execution = new Execution(this);
    ReplicaHost host = new ReplicaHost(this);
    this.checkpoints = new Checkpoints(cfg, id, signer, verifier, clients, Checkpoints.PBFT_TAG, true,
        host);
    this.viewChanges = new ViewChanges(this);
    this.coins = new Coins(cfg, id, signer, operations,
        randomness.algorithm() == RandomnessConfig.Algorithm.CT ? randomness.coins() : null,
        changingKeys && randomness.algorithm() == RandomnessConfig.Algorithm.CT, host);
    this.contributions = new Contributions(this, randomness);
    this.decryptions = new Decryptions(cfg, id, signer, host);
    this.shareRelease = new ShareRelease(coins, decryptions);
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
    decryptions.declare(config, coins.changing());
    return this;
  }

  /**
   * With {@link Builder#changingKeys}: the group's confidential requests, whose TDH2 keys are {@link #installKeys
   * installed} later; until then they execute sealed (the embedding refuses them). Before the first step.
   */
  public Replica confidentialOperationsAwaitingKeys(ConfidentialOperations operations) {
    if (!coins.changing()) {
      throw new IllegalStateException("keys installed later need Builder.changingKeys");
    }
    decryptions.declareChanging(operations, null);
    return this;
  }

  /**
   * New threshold keys serving every request ordered above {@code orderedAt} ({@code replication.KeyEpochs});
   * those up to it keep the keys before. The embedding calls it when executing seq {@code orderedAt} delivered
   * the keys' outcome, before it returns that seq's results; with {@link Builder#changingKeys} only.
   */
  @Override
  public Ready installKeys(long orderedAt, KeySet keys) {
    keys.installInto(orderedAt, coins, decryptions);
    return flush();
  }

  /**
   * The embedding installed the checkpoint's state at seq and the keys it delivered ({@link
   * Engine#stateInstalled}): the batches above it may release their coin and decryption shares, under the keys
   * that serve them, and execute.
   */
  @Override
  public Ready stateInstalled(long seq) {
    if (coins.changing()) {
      shareRelease.stateInstalled(seq);
      execution.executeCommitted();
    }
    return flush();
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
   * §4.3); before the first step. ({@code async.AsyncReplica} keeps its own, {@code AsyncReplica.journaled};
   * {@link ExecutionNode} keeps none.)
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

  /**
   * The first step of a fresh replica of membership epoch e+1 that was a member of epoch e
   * (docs/design/reconfiguration.md): epoch e's last checkpoint ({@code genesis}), whose parts it held as a
   * replica of epoch e ({@code previous}) and whose proof is epoch e's quorum ({@code proof}), is its stable
   * checkpoint; it orders from there in view 0.
   */
  public Ready beginEpoch(Checkpoints.Genesis genesis, Checkpoints.Parts previous, List<Signed> proof) {
    fresh("beginEpoch");
    checkpoints.beginAt(genesis, previous, proof);
    return flush();
  }

  /**
   * The first step of a fresh replica joining membership epoch e+1: epoch e's last checkpoint ({@code genesis},
   * digest and proof by epoch e's quorum) is stable, and it fetches it by state transfer (§4.3).
   */
  public Ready joinEpoch(Checkpoints.Genesis genesis, byte[] digest, List<Signed> proof) {
    fresh("joinEpoch");
    checkpoints.joinAt(genesis, digest, proof);
    return flush();
  }

  private void fresh(String step) {
    if (now != 0 || lastExecuted != 0 || !log.isEmpty() || view != 0) {
      throw new IllegalStateException(step + "() is the first step of a fresh replica");
    }
  }

  /** The stable checkpoint's digest and proof (§4.3). */
  public byte[] stableDigest() {
    return checkpoints.stableDigest();
  }

  public List<Signed> stableProof() {
    return checkpoints.stableProof();
  }

  /** The stable checkpoint's parts when held whole (null otherwise): what the next epoch begins from. */
  public Checkpoints.Parts stableParts() {
    return checkpoints.heldStable();
  }

  // ---------------------------------------------------------------- inputs

  /** A message from a peer or client, as received (not yet authenticated: this method checks). */
  public Ready receive(byte[] bytes) {
    Signed s = Envelopes.open(bytes, this::allowedSender, kind -> "sender not allowed to send " + kind, this::evidence);
    if (s != null) {
      Envelopes.deliver(s, normalCase::isDuplicate, votes::authentic, this::dispatch, this::evidence);
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
      return s.sender() >= cfg.clientBase();
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
    retransmission.onTick();
    return flush();
  }

  /** The results of the {@link Effect.Execute} for seq, in request order. */
  public Ready executed(long seq, List<byte[]> results) {
    execution.executed(seq, results);
    if (coins.changing()) {
      execution.settleKeys();
      execution.executeCommitted(); // a batch that waited for these results may have its shares now
    }
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
    execution.stateCaptured(seq, appState);
    return flush();
  }

  // ---------------------------------------------------------------- dispatch

  private void dispatch(Signed s) {
    switch (s.kind()) {
      case REQUEST -> normalCase.onRequest(s, Request.decode(s.body()));
      case READ_ONLY_REQUEST -> readOnly.onRequest(s, Request.decode(s.body()), out);
      case PRE_PREPARE -> normalCase.onPrePrepare(s, PrePrepare.decode(s.body()));
      case PREPARE -> normalCase.onPrepare(s, Vote.decode(s.body()));
      case COMMIT -> normalCase.onCommit(s, Vote.decode(s.body()));
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

  // ---------------------------------------------------------------- the log

  boolean isPrimary() {
    return cfg.primaryOf(view) == id;
  }

  boolean inWindow(long seq) {
    long h = checkpoints.stableSeq();
    return seq > h && seq <= h + cfg.logWindow();
  }

  Slot slot(long seq) {
    return log.computeIfAbsent(seq, s -> new Slot(s, view));
  }

  /** What prepares and commits at this pre-prepared slot are on: d, or with BA d' (null until R is known). */
  byte[] voteDigest(Slot slot) {
    return contributions.voteDigest(slot);
  }

  /** A status shows the view its sender is in (§4.5.2's f+1 rule counts it); peers resend what it lacks. */
  private void onStatus(int sender, Status st) {
    viewChanges.noteView(sender, st.view());
    statuses.onStatus(sender, st);
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
    normalCase.forgetProposed();
    resetSlotsForView(w);
  }

  /**
   * NEW-VIEW for w accepted (§4.4): enter w (a replica that sent no VIEW-CHANGE for w resets its slots now)
   * with nothing proposed; the pre-prepares of O follow ({@link NormalCase#markProposed}, {@link
   * NormalCase#assignFrom}).
   */
  void enterView(long w) {
    if (view != w) {
      resetSlotsForView(w);
    }
    view = w;
    active = true;
    normalCase.forgetProposed();
    lateCommits.entered();
  }

  private void resetSlotsForView(long w) {
    for (Slot slot : log.values()) {
      slot.resetForView(w);
    }
  }

  /**
   * §4.5.2: the view-change timer starts when a request arrives and it is not already running; not once the
   * membership epoch's last batch executed (its requests wait for the next epoch, which no view change here
   * brings closer).
   */
  void startTimer() {
    if (timerStart < 0 && lastExecuted < epochEnd) {
      timerStart = now;
    }
  }

  /**
   * §4.5.2: after an execution, or on entering a view, the timer runs again only if requests still wait, or
   * batches up to the end of a membership epoch ({@link #endEpochAt}) are still to execute; never past that end.
   */
  void restartTimer() {
    boolean waiting = normalCase.pendingCount() > 0 || lastExecuted < normalCase.fillTo();
    timerStart = waiting && lastExecuted < epochEnd ? now : -1;
  }

  /**
   * A reconfiguration ends the membership epoch at {@code seq} (docs/design/reconfiguration.md): nothing above
   * it is proposed, accepted or executed here (its requests stay pending, for the next epoch); the primary
   * proposes batches, empty ones if no request waits, up to it, and backups watch it do so with the view-change
   * timer as they watch pending requests (§4.5.2), so a faulty primary cannot hold the epoch open.
   */
  public Ready endEpochAt(long seq) {
    epochEnd = Math.min(epochEnd, seq);
    normalCase.fillTo(seq);
    if (lastExecuted < seq) {
      startTimer();
    } else {
      timerStart = -1;
    }
    execution.executeCommitted(); // resumes after the batch that ended the epoch, up to its end (and proposes)
    return flush();
  }

  /**
   * The requests the next membership epoch takes over: those waiting here and those in batches accepted above
   * the epoch's end, which no correct replica executes in this epoch (oldest first, one signed copy each).
   */
  public List<Signed> carriedRequests() {
    return normalCase.carried(epochEnd);
  }

  /** The view-change timer has run for at least {@code timeout} ticks (§4.4: the backup moves to v+1). */
  boolean timerExpired(long timeout) {
    return timerStart >= 0 && now - timerStart >= timeout;
  }

  /** A checkpoint at seq is stable or installed (§4.3): discard the log up to it; number above it. */
  void discardUpTo(long seq) {
    log.headMap(seq, true).clear();
    normalCase.assignAbove(seq);
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
        .append(" stable=").append(checkpoints.stableSeq()).append(" nextSeq=").append(normalCase.nextSeq())
        .append(" pending=").append(normalCase.pendingCount()).append(" capture=")
        .append(execution.pendingCapture()).append(" log=[");
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
    return checkpoints.stableSeq();
  }

  @Override
  public int logSize() {
    return log.size();
  }

  public int pendingRequests() {
    return normalCase.pendingCount();
  }

  @Override
  public int clientTableEntries() {
    return requests.table().size();
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
