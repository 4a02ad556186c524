package org.bftws.core.pbft;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Envelopes;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.ExecutionState;
import org.bftws.core.message.FetchState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.OrderedBatch;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CheckpointCodec;
import org.bftws.core.replication.Checkpoints;
import org.bftws.core.replication.ClientRequests;
import org.bftws.core.replication.ClientTable;
import org.bftws.core.replication.ExecutionPipeline;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.replication.ReplicatedClients;

/**
 * An execution node of configuration III (BFT-WS §3.3.3; Yin et al., SOSP'03, "Separating agreement from
 * execution", §3) as a pure state machine in the contract of {@link Engine}: the 3f+1 agreement replicas
 * order, and hand each committed batch with its agreement certificate ({@link Kind#ORDERED}); this node
 * checks every certificate, executes the batches in sequence order exactly once (the same {@link
 * ClientRequests} as a replica's), and answers clients itself, so a client's Voter gets f+1 matching
 * replies from the 2f+1 execution nodes (f of which may be faulty).
 *
 * <p>Checkpoints (Yin et al. §3.3): every K sequence numbers the node captures its state and sends its vote,
 * a {@link Checkpoint} with the digest of the client table's ordering part (the agreement replicas' own
 * ordering digest, the same bytes) and of its execution part, to the other execution nodes and to the
 * agreement replicas. f+1 matching votes make it stable: one of them is correct, so the state is right and
 * held by a correct node. The node then drops the certified batches at and below it that it executed; the
 * agreement replicas drop theirs ({@link Handouts}).
 *
 * <p>Catching up: a node that made no progress in a retransmission round while it knows of more (a batch
 * above its next one, or a vote or stable checkpoint above its last execution) asks one other execution
 * node, in rotation, with {@link Kind#EXECUTION_FETCH}; the answer is that node's stable checkpoint ({@link
 * Kind#EXECUTION_STATE}, checked against its proof) when the asker is below it, and the certified batches it
 * holds above, relayed unchanged (their certificates prove them). A restarted node does the same from
 * nothing.
 *
 * <p>It keeps no {@link Journal}: its {@link Ready#persist} stays empty, and a restarted one starts empty and
 * catches up from the other execution nodes, counted among their f faulty.
 */
public final class ExecutionNode implements Engine {
  /** One certified batch as received: the envelope to relay and what it holds. */
  private record Held(Signed envelope, OrderedBatch batch, byte[] digest) {}

  private final GroupConfig cfg;
  private final int id;
  private final int f;
  private final Signer signer;
  private final Verifier verifier;
  private final ClientRequests requests;
  /** The other execution nodes. */
  private final List<Integer> peers = new ArrayList<>();
  /** Certified batches above the stable checkpoint (executed or not), by seq. */
  private final TreeMap<Long, Held> certified = new TreeMap<>();
  /** Certified batches to the service, their results and the checkpoints' state captures. */
  private final ExecutionPipeline execution;
  private long lastExecuted;
  /** Own checkpoints above the stable one: seq to its parts. */
  private final TreeMap<Long, Checkpoints.Parts> own = new TreeMap<>();
  /** Each execution node's checkpoint votes above the stable one, bounded. */
  private final Map<Integer, TreeMap<Long, Signed>> votes = new HashMap<>();
  private long stableSeq;
  private Checkpoints.Parts stableParts;
  private List<Signed> stableProof = List.of();
  private Signed lastOwnVote;
  private final Map<Integer, Long> lastServed = new HashMap<>();
  private int fetchRotation;
  private long now;
  private long lastRetransmit;
  private long executedAtLastRound = -1;
  private Ready out = new Ready();

  public ExecutionNode(GroupConfig cfg, int id, Signer signer, Verifier verifier) {
    if (!cfg.isExecutionNode(id)) {
      throw new IllegalArgumentException("node " + id + " is not one of the execution nodes "
          + cfg.executionNodes() + " (" + GroupConfig.EXECUTION_NODES.name() + ")");
    }
    this.cfg = cfg;
    this.id = id;
    this.f = cfg.f();
    this.signer = signer;
    this.verifier = verifier;
    this.requests = new ClientRequests(cfg, id, signer, verifier, RandomizedOperations.AS_FLAGGED);
    this.execution = new ExecutionPipeline(requests, () -> out, new PlainRequests(), true);
    for (int node : cfg.executionNodes()) {
      if (node != id) {
        peers.add(node);
      }
    }
  }

  /** The replicated clients (BFT-WS §3.4), as the agreement replicas declare them: replies go to every member. */
  public ExecutionNode replicatedClients(ReplicatedClients clients) {
    requests.replicatedClients(clients);
    return this;
  }

  // ---------------------------------------------------------------- inputs

  @Override
  public Ready receive(byte[] bytes) {
    Signed s = Envelopes.open(bytes, this::allowedSender,
        kind -> "sender not allowed to send " + kind + " to an execution node", this::evidence);
    if (s != null) {
      Envelopes.deliver(s, this::authentic, this::dispatch, this::evidence);
    }
    return flush();
  }

  /** A certified batch's certificate is what counts, not who relays it: {@link #onOrdered} checks that. */
  private boolean authentic(Signed s) {
    return s.kind() == Kind.ORDERED || s.verify(verifier);
  }

  /** Certified batches come from agreement replicas or are relayed by peers; clients send requests. */
  private boolean allowedSender(Signed s) {
    boolean peer = cfg.isExecutionNode(s.sender()) && s.sender() != id;
    return switch (s.kind()) {
      case REQUEST -> s.sender() >= cfg.clientBase() && !cfg.isExecutionNode(s.sender());
      case ORDERED -> s.sender() >= 0 && s.sender() < cfg.n();
      case EXECUTION_CHECKPOINT, EXECUTION_FETCH, EXECUTION_STATE -> peer;
      default -> false;
    };
  }

  private void dispatch(Signed s) {
    switch (s.kind()) {
      case REQUEST -> onRequest(Request.decode(s.body()));
      case ORDERED -> onOrdered(s);
      case EXECUTION_CHECKPOINT -> onVote(s, Checkpoint.decode(s.body()));
      case EXECUTION_FETCH -> onFetch(s.sender(), FetchState.decode(s.body()).seq());
      case EXECUTION_STATE -> onState(s.sender(), ExecutionState.decode(s.body()));
      default -> throw new IllegalStateException("not dispatched: " + s.kind());
    }
  }

  @Override
  public Ready tick() {
    now++;
    if (now - lastRetransmit >= cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      lastRetransmit = now;
      retransmit();
    }
    return flush();
  }

  @Override
  public Ready executed(long seq, List<byte[]> results) {
    execution.executed(seq, results);
    return flush();
  }

  @Override
  public Ready stateCaptured(long seq, byte[] appState) {
    if (execution.stateCaptured(seq)) {
      ownCheckpoint(seq, CheckpointCodec.encode(Checkpoints.PBFT_TAG, seq, requests.table(), appState));
      executeCertified();
    }
    return flush();
  }

  // ---------------------------------------------------------------- certified batches and execution

  /**
   * A certified batch: kept when its certificate checks (a forged or altered one is evidence against its
   * sender) and it lies within the bound above the stable checkpoint; a second certificate for a seq held
   * is checked only when its batch differs, which two valid certificates never do.
   */
  private void onOrdered(Signed s) {
    OrderedBatch b = OrderedBatch.decode(s.body());
    if (b.seq() <= lastExecuted) {
      return;
    }
    if (b.seq() > Math.max(lastExecuted, stableSeq) + 3L * cfg.logWindow()) {
      return; // bounded memory: fetched again once this node is nearer
    }
    Held held = certified.get(b.seq());
    byte[] d = b.digest();
    if (held != null && Arrays.equals(held.digest(), d)) {
      return;
    }
    String bad = AgreementCertificate.invalid(cfg, verifier, b);
    if (bad != null) {
      // the envelope's signer is to blame only if it signed it: a relaying node may have altered it
      evidence(s.verify(verifier) ? s.sender() : -1, "invalid agreement certificate for seq " + b.seq() + ": " + bad);
      return;
    }
    if (held != null) {
      evidence(s.sender(), "two agreement certificates for seq " + b.seq() + " with different batches");
      return;
    }
    certified.put(b.seq(), new Held(s, b, d));
    out.events.add(new Event.Committed(b.view(), b.seq(), d, b.requests()));
    executeCertified();
  }

  /**
   * Hands certified batches to execution in sequence order, exactly once per request (the client table, as at
   * a replica); pauses after a checkpoint boundary until its state is captured.
   */
  private void executeCertified() {
    while (!execution.paused()) {
      Held h = certified.get(lastExecuted + 1);
      if (h == null) {
        return;
      }
      lastExecuted = h.batch().seq();
      execution.execute(lastExecuted, h.batch().view(), h.digest(), h.batch().requests());
      if (lastExecuted <= stableSeq) {
        certified.remove(lastExecuted); // executed below a checkpoint already stable: garbage now
      }
      if (lastExecuted % cfg.checkpointInterval() == 0) {
        execution.capture(lastExecuted);
      }
    }
  }

  /** Configuration III hands out batches as ordered: no ciphertexts to open, no random numbers. */
  private static final class PlainRequests implements ExecutionPipeline.Hooks {
    @Override
    public void ordered(Request q) {
    }

    @Override
    public Request opened(long seq, int i, Request q) {
      return q;
    }

    @Override
    public byte[] random(long seq, int i) {
      return ClientTable.EMPTY;
    }

    @Override
    public CoinProof proof(long seq, int i) {
      return CoinProof.NONE;
    }
  }

  /** A client's request: answered from the reply cache when this node executed it (the client missed it). */
  private void onRequest(Request q) {
    if (!requests.isNew(q.id())) {
      requests.answeredFromCache(q, 0, out);
    }
  }

  // ---------------------------------------------------------------- checkpoints (Yin et al. §3.3)

  private void ownCheckpoint(long seq, Checkpoints.Parts parts) {
    if (seq <= stableSeq) {
      if (seq == stableSeq && stableParts == null && matches(parts, stableProof)) {
        stableParts = parts;
      }
      return;
    }
    own.put(seq, parts);
    out.events.add(new Event.CheckpointTaken(seq, parts.digest(), parts.executionDigest()));
    Signed vote = Signed.sign(Kind.EXECUTION_CHECKPOINT, id,
        new Checkpoint(seq, parts.digest(), parts.executionDigest()).encode(), signer);
    lastOwnVote = vote;
    sendVote(vote);
    onVote(vote, Checkpoint.decode(vote.body()));
  }

  /** Our vote goes to the other execution nodes and to every agreement replica ({@link Handouts}). */
  private void sendVote(Signed vote) {
    for (int p : peers) {
      send(p, vote);
    }
    for (int r = 0; r < cfg.n(); r++) {
      send(r, vote);
    }
  }

  private void onVote(Signed s, Checkpoint cp) {
    if (cp.seq() <= stableSeq || cp.seq() % cfg.checkpointInterval() != 0 || !cp.hasExecution()) {
      return;
    }
    TreeMap<Long, Signed> mine = votes.computeIfAbsent(s.sender(), k -> new TreeMap<>());
    mine.putIfAbsent(cp.seq(), s);
    while (mine.size() > cfg.logWindow() / cfg.checkpointInterval() + 2) {
      mine.pollFirstEntry(); // a Byzantine node cannot fill memory with votes
    }
    List<Signed> proof = new ArrayList<>();
    for (TreeMap<Long, Signed> v : votes.values()) {
      Signed other = v.get(cp.seq());
      if (other != null && Arrays.equals(other.body(), s.body())) {
        proof.add(other);
      }
    }
    if (proof.size() >= f + 1) {
      proof.sort((a, b) -> Integer.compare(a.sender(), b.sender()));
      becomeStable(cp, proof, own.get(cp.seq()));
    }
  }

  /** f+1 matching votes (or an installed state with them): discard what is at or below, as far as executed. */
  private void becomeStable(Checkpoint cp, List<Signed> proof, Checkpoints.Parts parts) {
    stableSeq = cp.seq();
    stableProof = List.copyOf(proof);
    stableParts = parts != null && matches(parts, proof) ? parts : null;
    own.headMap(stableSeq, true).clear();
    for (TreeMap<Long, Signed> v : votes.values()) {
      v.headMap(stableSeq, true).clear();
    }
    certified.headMap(Math.min(stableSeq, lastExecuted), true).clear();
    out.events.add(new Event.CheckpointStable(cp.seq(), cp.stateDigest(), cp.executionDigest()));
  }

  private static boolean matches(Checkpoints.Parts parts, List<Signed> proof) {
    Checkpoint cp = Checkpoint.decode(proof.get(0).body());
    return Arrays.equals(parts.digest(), cp.stateDigest()) && Arrays.equals(parts.executionDigest(), cp.executionDigest());
  }

  // ---------------------------------------------------------------- catching up

  /**
   * A peer asks for what follows {@code from}: our stable checkpoint when it is below it, and the certified
   * batches we hold above; at most once per retransmission interval per peer (a whole state is costly).
   */
  private void onFetch(int peer, long from) {
    Long last = lastServed.get(peer);
    if (last != null && now - last < cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return;
    }
    lastServed.put(peer, now);
    long after = from;
    if (from < stableSeq && stableParts != null) {
      ExecutionState st = new ExecutionState(stableSeq, stableParts.ordering(), stableParts.execution(), stableProof);
      send(peer, Signed.sign(Kind.EXECUTION_STATE, id, st.encode(), signer));
      after = stableSeq;
    }
    for (Held h : certified.tailMap(after, false).values()) {
      send(peer, h.envelope());
    }
  }

  /** A peer's stable checkpoint: installed when above our last execution and proven by f+1 votes. */
  private void onState(int peer, ExecutionState st) {
    if (st.seq() <= lastExecuted) {
      return;
    }
    String bad = invalidProof(st);
    if (bad != null) {
      evidence(peer, "execution state at " + st.seq() + ": " + bad);
      return;
    }
    ClientTable table = new ClientTable();
    byte[] appState = CheckpointCodec.decode(Checkpoints.PBFT_TAG, st.seq(), st.ordering(), st.execution(), table);
    requests.table().copyFrom(table);
    requests.forgetExecutedCopies();
    execution.installed(st.seq(), lastExecuted);
    lastExecuted = st.seq();
    Checkpoint cp = Checkpoint.decode(st.proof().get(0).body());
    Checkpoints.Parts parts = new Checkpoints.Parts(st.ordering(), cp.stateDigest(), st.execution(), cp.executionDigest());
    if (st.seq() > stableSeq) {
      becomeStable(cp, st.proof(), parts);
    }
    certified.headMap(st.seq(), true).clear();
    own.headMap(st.seq(), true).clear();
    out.effects.add(new Effect.InstallState(st.seq(), appState));
    out.events.add(new Event.StateInstalled(st.seq(), cp.stateDigest(), cp.executionDigest()));
    executeCertified();
  }

  /** Null when f+1 distinct execution nodes signed votes for st's seq whose digests its parts hash to. */
  private String invalidProof(ExecutionState st) {
    Set<Integer> signers = new HashSet<>();
    byte[] d = Digests.sha256(st.ordering());
    byte[] e = Digests.sha256(st.execution());
    for (Signed v : st.proof()) {
      Checkpoint cp = Checkpoint.decode(v.body());
      if (!cfg.isExecutionNode(v.sender()) || !signers.add(v.sender()) || cp.seq() != st.seq()
          || !Arrays.equals(cp.stateDigest(), d) || !Arrays.equals(cp.executionDigest(), e) || !v.verify(verifier)) {
        return "a proof vote that does not match its state";
      }
    }
    return signers.size() >= f + 1 ? null : "fewer than f+1 votes in its proof";
  }

  /**
   * A retransmission round: our latest vote again (an agreement replica that restarted, or a peer that lost
   * it, needs it), and a fetch from the next peer in rotation when nothing executed since the last round
   * though more is known to exist.
   */
  private void retransmit() {
    if (lastOwnVote != null) {
      sendVote(lastOwnVote);
    }
    boolean stalled = lastExecuted == executedAtLastRound;
    executedAtLastRound = lastExecuted;
    if (stalled && behind() && !peers.isEmpty()) {
      int peer = peers.get(Math.floorMod(fetchRotation++, peers.size()));
      send(peer, Signed.sign(Kind.EXECUTION_FETCH, id, new FetchState(lastExecuted).encode(), signer));
    }
  }

  /** Something above our last execution exists: a batch beyond the next, a stable checkpoint or a vote. */
  private boolean behind() {
    if (stableSeq > lastExecuted || certified.higherKey(lastExecuted) != null) {
      return true;
    }
    for (TreeMap<Long, Signed> v : votes.values()) {
      if (!v.isEmpty() && v.lastKey() > lastExecuted) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- helpers

  private void send(int to, Signed msg) {
    out.messages.add(new Ready.Outbound(to, msg.encode()));
  }

  private void evidence(int node, String what) {
    out.events.add(new Event.Evidence(node, what));
  }

  private Ready flush() {
    Ready r = out;
    out = new Ready();
    return r;
  }

  // ---------------------------------------------------------------- observers

  @Override
  public int id() {
    return id;
  }

  @Override
  public long lastExecuted() {
    return lastExecuted;
  }

  @Override
  public long stableCheckpoint() {
    return stableSeq;
  }

  @Override
  public int pendingRequests() {
    return execution.awaitingResults();
  }

  @Override
  public int clientTableEntries() {
    return requests.table().size();
  }

  /** Certified batches held (executed ones above the stable checkpoint included). */
  public int heldBatches() {
    return certified.size();
  }

  @Override
  public String describe() {
    return "execution node " + id + " executed=" + lastExecuted + " stable=" + stableSeq + " held="
        + certified.keySet() + " capture=" + execution.pendingCapture();
  }
}
