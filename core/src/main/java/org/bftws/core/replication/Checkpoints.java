package org.bftws.core.replication;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.FetchState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.StateTransfer;

/**
 * Checkpoints, garbage collection and state transfer (Castro-Liskov §4.3; BFT-WS §3.3.1.8), for both
 * ordering engines: PBFT's {@code pbft.Replica} and the asynchronous {@code async.AsyncReplica}.
 *
 * <p>A checkpoint has two parts (BFT-WS §3.3.2, configuration II, where f replicas only order). The
 * ordering part, (tag, seq, the client table's ordering part), is alike at every correct replica; its
 * digest d is what all replicas vote on. The execution part, (tag, seq, cached replies, application state),
 * exists only at replicas that execute ({@link GroupConfig#executes}); its digest e rides in their votes. A
 * checkpoint is stable, and everything at and below it is discarded ({@link Host#discardUpTo}), on 2f+1
 * matching d of which f+1 come from executing replicas with matching e: these f+1 hold at least one correct
 * executing replica, so e is the state every correct executing replica reached, and the proof (the signed
 * votes) certifies both parts to anyone. Without the f+1 an agreement-only replica could help make a
 * checkpoint stable that only one correct executing replica reached, and a lagging executing replica could
 * then be left with no log to replay and fewer than f+1 correct sources of the state. In configuration I
 * every replica executes and nothing changes but the vote's second digest; when no replica executes
 * (configuration III's agreement replicas) 2f+1 matching d suffice.
 *
 * <p>A replica that learns of a stable checkpoint above what it reached ({@link Host#reached}) fetches it
 * from a signer of the proof (an executing replica fetches from one whose e is the certified one), checks
 * each part against its certified digest and installs it: the client table here, the application state by
 * {@link Effect.InstallState}, the rest through {@link Host#installed}.
 *
 * <p>When to fetch is the engine's choice: PBFT fetches as soon as it sees it is behind (a stable
 * checkpoint above its last execution); the asynchronous engine fetches only on a retransmission tick on
 * which it made no progress, since a replica that is merely slow catches up by ordering.
 */
public final class Checkpoints {
  static final byte[] GENESIS = new byte[Digests.LENGTH];
  /** PBFT's checkpoint tag; the asynchronous engine's differs, so that the two never match. */
  public static final byte[] PBFT_TAG = "BFT-WS/1 checkpoint".getBytes(StandardCharsets.US_ASCII);

  /** What the engine does around checkpoints. */
  public interface Host {
    /** The step's output: messages, events and effects go there. */
    Ready out();

    /** The highest sequence number this replica has (or will have without a state transfer) executed. */
    long reached();

    /**
     * This replica holds a pre-prepare for every sequence number above {@link #reached} up to seq: it is
     * ordering towards seq (one restarted empty, or cut off, holds none and fetches at once).
     */
    default boolean orderingTowards(long seq) {
      return false;
    }

    /** Logical time (ticks), to serve a whole state at most once per retransmission interval per peer. */
    long now();

    /** A checkpoint at seq is stable or installed: nothing at or below it is needed any more. */
    void discardUpTo(long seq);

    /** A proven checkpoint at seq was installed (the client table already holds its table). */
    void installed(long seq);

    /** After the installed state's {@link Effect.InstallState}: execution may go on. */
    void resume();

    /**
     * Where the engine's ordering stood at the checkpoint after seq (e.g. the hybrid engine's epoch and chain
     * digest), the same at every correct replica; it goes into the checkpoint's ordering part, so the proof
     * covers it. Empty (the default): nothing, and the part is as without it.
     */
    default byte[] position(long seq) {
      return new byte[0];
    }

    /** A proven checkpoint's {@link #position} at seq, before {@link #installed}; not called for an empty one. */
    default void installedPosition(long seq, byte[] position) {
    }
  }

  /** One checkpoint's encoded parts and their digests; {@code execution} null where it is not held. */
  public record Parts(byte[] ordering, byte[] digest, byte[] execution, byte[] executionDigest) {
    Parts withoutExecution() {
      return new Parts(ordering, digest, null, Checkpoint.NO_EXECUTION);
    }
  }

  private final GroupConfig cfg;
  private final int n;
  private final int id;
  /** This replica executes: its checkpoints have an execution part ({@link GroupConfig#executes}). */
  private final boolean executes;
  private final Signer signer;
  private final Verifier verifier;
  private final ClientTable clients;
  private final byte[] tag;
  /** Fetch as soon as a stable checkpoint above {@link Host#reached} is known (else only when stalled). */
  private final boolean fetchEagerly;
  private final Host host;
  private long stableSeq;
  private byte[] stableDigest = GENESIS;
  /** The stable checkpoint's certified execution digest (NO_EXECUTION when no replica executes). */
  private byte[] stableExecution = GENESIS;
  private List<Signed> stableProof = List.of();
  /** The stable checkpoint's parts, when this replica has them (to serve fetch-state). */
  private Parts stableParts;
  private final TreeMap<Long, Parts> own = new TreeMap<>();
  private Signed lastOwn;
  private long lastOwnSeq;
  /** Votes per sender, bounded: a Byzantine replica cannot fill memory with checkpoint messages. */
  private final Map<Integer, TreeMap<Long, Signed>> votes = new HashMap<>();
  private final Map<Integer, TreeMap<Long, Checkpoint>> voteValues = new HashMap<>();
  /** Per peer, the last state served to it: when, and which checkpoint. */
  private final Map<Integer, long[]> lastServed = new HashMap<>();
  /** Per peer, the checkpoint whose proof was last relayed to it ({@link #relayProof}). */
  private final Map<Integer, Long> proofRelayed = new HashMap<>();
  private int fetchRotation;
  /**
   * The highest checkpoint that peers' votes prove but this replica, merely slow, has not reached yet (0:
   * none): it becomes stable when this replica reaches it, or when its ordering stalls ({@link #retransmit}).
   */
  private long deferred;
  /** What this replica had reached when it deferred or last progressed since, and when (ticks). */
  private long deferredReached;
  private long deferredSince;
  /** Where this membership epoch began (null: the group's first epoch). */
  private Genesis genesis;
  /** Emit a {@link Journal.Type#STABLE} record whenever the stable checkpoint's parts are held ({@code pbft.Replica#journaled}). */
  private boolean journaled;

  public Checkpoints(GroupConfig cfg, int id, Signer signer, Verifier verifier, ClientTable clients, byte[] tag,
      boolean fetchEagerly, Host host) {
    this.cfg = cfg;
    this.n = cfg.n();
    this.id = id;
    this.executes = cfg.executes(id);
    this.signer = signer;
    this.verifier = verifier;
    this.clients = clients;
    this.tag = tag.clone();
    this.fetchEagerly = fetchEagerly;
    this.host = host;
    if (cfg.executingReplicas().isEmpty()) {
      stableExecution = Checkpoint.NO_EXECUTION;
    }
  }

  /**
   * The asynchronous engine's checkpoints: its own {@code tag}, the client table of {@code requests}, and a
   * fetch only when stalled ({@link #retransmit}).
   */
  public static Checkpoints forEngine(GroupConfig cfg, int id, Signer signer, Verifier verifier,
      ClientRequests requests, byte[] tag, Host host) {
    return new Checkpoints(cfg, id, signer, verifier, requests.table(), tag, false, host);
  }

  /** PBFT with a journal: from now on a stable checkpoint whose parts this replica holds is journaled. */
  public void journaled() {
    journaled = true;
  }

  /** The stable checkpoint's sequence number (0: none yet). */
  public long stableSeq() {
    return stableSeq;
  }

  /** The stable checkpoint's digest (all zeros before the first). */
  public byte[] stableDigest() {
    return stableDigest;
  }

  /** The 2f+1 checkpoint votes that make the stable checkpoint stable (§4.3; empty before the first). */
  public List<Signed> stableProof() {
    return stableProof;
  }

  private int maxVotesPerSender() {
    return cfg.logWindow() / cfg.checkpointInterval() + 2;
  }

  /**
   * Our own checkpoint after seq: encode, vote, and check stability. {@code appState} is the application
   * state captured at seq ({@code get_state}), or null at a replica that does not execute.
   */
  public void own(long seq, byte[] appState) {
    if (executes != (appState != null)) {
      throw new IllegalStateException("replica " + id + (executes ? " executes but captured no state at "
          : " does not execute but captured state at ") + seq);
    }
    Parts mine = encode(seq, appState);
    if (seq == stableSeq && stableParts == null) {
      hold(servable(mine));
    }
    if (seq <= stableSeq) {
      return;
    }
    own.put(seq, mine);
    host.out().events.add(new Event.CheckpointTaken(seq, mine.digest(), mine.executionDigest()));
    Signed msg = sign(Kind.CHECKPOINT, new Checkpoint(seq, mine.digest(), mine.executionDigest()).encode());
    lastOwn = msg;
    lastOwnSeq = seq;
    send(Ready.ALL_REPLICAS, msg);
    store(id, seq, msg, Checkpoint.decode(msg.body()));
    checkStable(seq);
  }

  /** The stable checkpoint's parts when this replica holds them whole (null otherwise). */
  public Parts heldStable() {
    return stableParts != null && (!executes || stableParts.execution() != null) ? stableParts : null;
  }

  /**
   * Where a membership epoch begins (docs/design/reconfiguration.md): the previous epoch's last checkpoint at
   * {@code seq}, proven by a quorum of the previous epoch ({@code cfg}, its replicas' signatures checked by
   * {@code verifier}). A proof of that checkpoint is checked under the previous epoch, wherever it comes (state
   * transfer, view change); every other under this one.
   */
  public record Genesis(long seq, GroupConfig cfg, Verifier verifier) {}

  /**
   * The first step of a replica of a new membership epoch that was a member of the one before: the previous
   * epoch's last checkpoint at {@code genesis.seq()}, whose parts it holds ({@code previous}) and whose proof is
   * {@code proof}, becomes its stable checkpoint, with the client table it holds.
   */
  public void beginAt(Genesis genesis, Parts previous, List<Signed> proof) {
    this.genesis = genesis;
    long seq = genesis.seq();
    if (!validProof(seq, previous.digest(), proof)) {
      throw new IllegalArgumentException("the previous epoch's checkpoint at " + seq + " with an invalid proof");
    }
    ClientTable table = new ClientTable();
    CheckpointCodec.decode(tag, seq, previous.ordering(), previous.execution(), table);
    clients.copyFrom(table);
    host.installed(seq);
    own.put(seq, previous);
    makeStable(seq, previous.digest(), proof);
  }

  /**
   * The first step of a replica joining a new membership epoch: the previous epoch's last checkpoint, digest
   * {@code digest} proven by {@code proof}, is stable; the replica fetches it by state transfer (§4.3).
   */
  public void joinAt(Genesis genesis, byte[] digest, List<Signed> proof) {
    this.genesis = genesis;
    if (!validProof(genesis.seq(), digest, proof)) {
      throw new IllegalArgumentException("the previous epoch's checkpoint at " + genesis.seq() + " with an invalid proof");
    }
    makeStable(genesis.seq(), digest, proof);
  }

  private boolean isGenesis(long seq) {
    return genesis != null && seq == genesis.seq();
  }

  private GroupConfig configAt(long seq) {
    return isGenesis(seq) ? genesis.cfg() : cfg;
  }

  private Parts encode(long seq, byte[] appState) {
    return CheckpointCodec.withPosition(CheckpointCodec.encode(tag, seq, clients, appState), host.position(seq));
  }

  /**
   * The stable checkpoint's parts as held here (null: none). Once held whole (with the execution part at a
   * replica that executes) they are what a restart reinstalls ({@link #restore}): journaled as the STATE
   * reply that would carry them, so the journal never needs anything below (TOCS 2002 §4.3).
   */
  private void hold(Parts parts) {
    stableParts = parts;
    if (journaled && parts != null && (!executes || parts.execution() != null)) {
      byte[] execution = executes ? parts.execution() : Checkpoint.NO_EXECUTION;
      host.out().persist.add(new Journal.Record(Journal.Type.STABLE, stableSeq,
          new StateTransfer(stableSeq, parts.ordering(), execution, stableProof).encode()));
    }
  }

  /** What of {@code p} matches the stable checkpoint and can be served (null: not even its ordering part). */
  private Parts servable(Parts p) {
    if (!Arrays.equals(p.digest(), stableDigest)) {
      return null;
    }
    return p.execution() != null && Arrays.equals(p.executionDigest(), stableExecution) ? p : p.withoutExecution();
  }

  /** An authentic CHECKPOINT from a peer (the caller checked sender and signature). */
  public void onCheckpoint(Signed s) {
    Checkpoint cp = Checkpoint.decode(s.body());
    if (cp.seq() <= stableSeq) {
      return;
    }
    if (cp.seq() % cfg.checkpointInterval() != 0) {
      evidence(s.sender(), "checkpoint at " + cp.seq() + ", not a multiple of " + GroupConfig.CHECKPOINT_INTERVAL.name());
      return;
    }
    if (cp.hasExecution() != cfg.executes(s.sender())) {
      evidence(s.sender(), cp.hasExecution() ? "checkpoint with an execution digest from a replica that does not execute"
          : "checkpoint without an execution digest from a replica that executes");
      return;
    }
    Checkpoint before = voteValues.getOrDefault(s.sender(), new TreeMap<>()).get(cp.seq());
    if (before != null) {
      if (!Arrays.equals(before.stateDigest(), cp.stateDigest())
          || !Arrays.equals(before.executionDigest(), cp.executionDigest())) {
        evidence(s.sender(), "two checkpoint digests for " + cp.seq());
        if (support(cp, s.sender()) > support(before, s.sender())) {
          store(s.sender(), cp.seq(), s, cp);
          checkStable(cp.seq());
        }
      }
      return;
    }
    store(s.sender(), cp.seq(), s, cp);
    checkStable(cp.seq());
  }

  /**
   * How many replicas other than {@code sender} voted {@code cp} (same seq and digests). Of an equivocating
   * replica's two votes the one more others share is kept: a replica that missed the checkpoint's forming
   * gets the proof's votes relayed ({@link #retransmit}), and if it kept the faulty replica's first, other
   * vote it would never see 2f+1 matching ones, nor fetch the state below which its peers forgot everything.
   * Either vote is the sender's authentic signature, so stability still rests on 2f+1 distinct senders.
   */
  private int support(Checkpoint cp, int sender) {
    int count = 0;
    for (Map.Entry<Integer, TreeMap<Long, Checkpoint>> e : voteValues.entrySet()) {
      Checkpoint other = e.getKey() == sender ? null : e.getValue().get(cp.seq());
      if (other != null && Arrays.equals(other.stateDigest(), cp.stateDigest())
          && Arrays.equals(other.executionDigest(), cp.executionDigest())) {
        count++;
      }
    }
    return count;
  }

  private void store(int sender, long seq, Signed msg, Checkpoint cp) {
    TreeMap<Long, Signed> mine = votes.computeIfAbsent(sender, k -> new TreeMap<>());
    TreeMap<Long, Checkpoint> values = voteValues.computeIfAbsent(sender, k -> new TreeMap<>());
    mine.put(seq, msg);
    values.put(seq, cp);
    while (mine.size() > maxVotesPerSender()) {
      values.remove(mine.pollFirstEntry().getKey());
    }
  }

  /**
   * Stable once the votes at seq that match on d make a proof ({@link #certifiedExecution}), unless this
   * replica is ordering towards it ({@link #defers}).
   */
  private void checkStable(long seq) {
    checkStable(seq, true);
  }

  private void checkStable(long seq, boolean mayDefer) {
    Map<String, List<Signed>> byDigest = new HashMap<>();
    for (int sender = 0; sender < n; sender++) {
      TreeMap<Long, Signed> mine = votes.get(sender);
      if (mine != null && mine.containsKey(seq)) {
        String key = Digests.hex(voteValues.get(sender).get(seq).stateDigest(), Digests.LENGTH);
        byDigest.computeIfAbsent(key, k -> new ArrayList<>()).add(mine.get(seq));
      }
    }
    for (List<Signed> votesOnD : byDigest.values()) {
      byte[] execution = votesOnD.size() >= cfg.quorum() ? certifiedExecution(votesOnD) : null;
      if (execution != null && mayDefer && defers(seq)) {
        if (deferred == 0) {
          deferredReached = host.reached();
          deferredSince = host.now();
        }
        deferred = Math.max(deferred, seq);
        return;
      }
      if (execution != null) {
        makeStable(seq, voteValues.get(votesOnD.get(0).sender()).get(seq).stateDigest(), proof(votesOnD, execution));
        return;
      }
    }
  }

  /** 2f+1 of the votes on d, the f+1 (or, with no executing replica, none) on {@code execution} first. */
  private List<Signed> proof(List<Signed> votesOnD, byte[] execution) {
    List<Signed> proof = new ArrayList<>();
    for (Signed s : votesOnD) {
      if (proof.size() < cfg.f() + 1 && execution.length > 0 && cfg.executes(s.sender())
          && Arrays.equals(Checkpoint.decode(s.body()).executionDigest(), execution)) {
        proof.add(s);
      }
    }
    for (Signed s : votesOnD) {
      if (proof.size() < cfg.quorum() && !proof.contains(s)) {
        proof.add(s);
      }
    }
    return List.copyOf(proof);
  }

  /**
   * The execution digest that f+1 executing replicas' votes of {@code proof} agree on; NO_EXECUTION when no
   * replica executes; null when no such f+1 are there. The votes are authentic, from distinct senders, at one
   * seq and one d. Two digests with f+1 votes each cannot both be there: each set holds a correct replica.
   */
  private byte[] certifiedExecution(List<Signed> proof) {
    return certifiedExecution(cfg, proof);
  }

  private static byte[] certifiedExecution(GroupConfig cfg, List<Signed> proof) {
    if (cfg.executingReplicas().isEmpty()) {
      return Checkpoint.NO_EXECUTION;
    }
    Map<String, Integer> counts = new HashMap<>();
    for (Signed s : proof) {
      Checkpoint cp = Checkpoint.decode(s.body());
      if (cfg.executes(s.sender()) && cp.hasExecution()) {
        int c = counts.merge(Digests.hex(cp.executionDigest(), Digests.LENGTH), 1, Integer::sum);
        if (c >= cfg.f() + 1) {
          return cp.executionDigest();
        }
      }
    }
    return null;
  }

  /**
   * A proof of a checkpoint this replica has not reached, within its log window and with the pre-prepares
   * that lead there at hand ({@link Host#orderingTowards}), waits until it reaches it (PBFT only). Making it
   * stable at once would discard the log below it and fetch the whole state, although the prepares and
   * commits that take this replica there are on their way: peers' checkpoint votes overtake them (a vote
   * leaves a peer just after its commit, on another connection), and a replica merely slower than 2f+1
   * others (a loaded machine) would transfer state whenever it trails at a checkpoint, never running the
   * requests it skips. BFT-WS §3.3.1 fetches when a missed message is older than the stable checkpoint,
   * Castro-Liskov (TOCS 2002 §5.3.2) when a stable checkpoint lies beyond the high water mark; a replica
   * whose ordering stalls meanwhile fetches at its next retransmission round. Waiting changes nothing but
   * timing: it is what this replica would do if the votes were late.
   */
  private boolean defers(long seq) {
    long reached = host.reached();
    return fetchEagerly && reached < seq && reached >= stableSeq && seq <= stableSeq + cfg.logWindow()
        && host.orderingTowards(seq);
  }

  /** A proven checkpoint (2f+1 votes, here or in a view change) becomes the stable one. */
  public void makeStable(long seq, byte[] digest, List<Signed> proof) {
    if (seq >= deferred) {
      deferred = 0;
    }
    if (seq <= stableSeq) {
      return;
    }
    stableSeq = seq;
    stableDigest = digest;
    stableExecution = certifiedExecution(configAt(seq), proof);
    stableProof = proof;
    Parts mine = own.get(seq);
    hold(mine == null ? null : servable(mine));
    if (mine != null && (stableParts == null || executes && stableParts.execution() == null)) {
      evidence(id, "own checkpoint at " + seq + " differs from the stable one");
    }
    host.discardUpTo(seq);
    own.headMap(seq, false).clear();
    for (int sender : votes.keySet()) {
      votes.get(sender).headMap(seq, true).clear();
      voteValues.get(sender).headMap(seq, true).clear();
    }
    host.out().events.add(new Event.CheckpointStable(seq, digest, stableExecution));
    if (fetchEagerly && host.reached() < seq) {
      fetch();
    }
  }

  /**
   * A checkpoint proof: authentic checkpoint messages from distinct replicas for (seq, d), 2f+1 or more,
   * with f+1 of executing replicas matching on e ({@link #certifiedExecution}).
   */
  public boolean validProof(long seq, byte[] digest, List<Signed> proof) {
    if (seq == 0) {
      return proof.isEmpty() && Arrays.equals(digest, GENESIS);
    }
    if (seq < 0 || seq % cfg.checkpointInterval() != 0) {
      return false;
    }
    GroupConfig c = configAt(seq);
    Verifier v = isGenesis(seq) ? genesis.verifier() : verifier;
    Set<Integer> senders = new HashSet<>();
    for (Signed s : proof) {
      if (s.kind() != Kind.CHECKPOINT || s.sender() < 0 || s.sender() >= c.n() || !senders.add(s.sender())) {
        return false;
      }
      Checkpoint cp;
      try {
        cp = Checkpoint.decode(s.body());
      } catch (DecodeException e) {
        return false;
      }
      if (cp.seq() != seq || !Arrays.equals(cp.stateDigest(), digest) || !s.verify(v)) {
        return false;
      }
    }
    return senders.size() >= c.quorum() && certifiedExecution(c, proof) != null;
  }

  /**
   * Ask one replica (a different one each round) for the stable checkpoint; an executing replica asks, of the
   * proof's signers, only those whose execution digest is the certified one, which hold the execution part.
   */
  private void fetch() {
    fetch(1);
  }

  /**
   * The asynchronous engine's catch-up without ticks ({@code AsyncReplica}): nothing repeats a request, so
   * ask f+1 replicas at once, the stable checkpoint's signers first; one of those is correct and answers.
   */
  public void fetchNow() {
    if (host.reached() < stableSeq) {
      fetch(cfg.f() + 1);
    }
  }

  /**
   * Asks {@code count} replicas, a different first one each time, for the stable checkpoint: the proof's
   * signers first, then every other replica. A replica that installed the checkpoint by state transfer holds
   * it without having signed it, and may be the only one left that does: every signer may have been restarted
   * empty since (seen on real processes, with the group idle, so no newer checkpoint came to help).
   */
  private void fetch(int count) {
    List<Integer> holders = new ArrayList<>();
    for (Signed s : isGenesis(stableSeq) ? List.<Signed>of() : stableProof) {
      if (s.sender() != id && (!executes || Arrays.equals(Checkpoint.decode(s.body()).executionDigest(), stableExecution))) {
        holders.add(s.sender());
      }
    }
    for (int r = 0; r < n; r++) {
      if (r != id && !holders.contains(r) && (!executes || cfg.executes(r))) {
        holders.add(r);
      }
    }
    if (holders.isEmpty()) {
      return;
    }
    Signed ask = sign(Kind.FETCH_STATE, new FetchState(stableSeq).encode());
    int first = fetchRotation++;
    for (int k = 0; k < Math.min(count, holders.size()); k++) {
      send(holders.get(Math.floorMod(first + k, holders.size())), ask);
    }
  }

  /**
   * Relays the stable checkpoint's proof, its votes as signed, to {@code to}, which showed that it is behind
   * it (the asynchronous engine: it fetched a decided round that this replica forgot at the checkpoint); once
   * per peer and checkpoint. A Byzantine signer may have sent its vote to the others only, so without this
   * the peer might never see 2f+1 of them.
   */
  public void relayProof(int to) {
    if (stableSeq == 0 || isGenesis(stableSeq) || proofRelayed.getOrDefault(to, 0L) >= stableSeq) {
      return;
    }
    proofRelayed.put(to, stableSeq);
    for (Signed vote : stableProof) {
      send(to, vote); // the peer's own vote too: it lacks it if it restarted since it signed it
    }
  }

  /**
   * Our latest checkpoint vote until it is stable; when stalled, our vote for the stable one too, so a
   * replica that restarted empty learns what is stable (and fetches it) even when no request flows. A
   * replica behind the stable checkpoint asks for it (the asynchronous engine only when stalled).
   *
   * <p>The asynchronous engine, when stalled, also relays the other votes of the stable checkpoint's
   * proof, as signed by their senders: a replica that was down while the checkpoint formed may otherwise
   * never see 2f+1 of them (a Byzantine signer of the proof does not resend its vote), and it needs the
   * proven checkpoint to catch up, because the rounds below it are forgotten everywhere. PBFT's replica
   * gets the same proof in view-change and new-view messages.
   */
  public void retransmit(boolean stalled) {
    retryDeferred();
    if (lastOwn != null && (lastOwnSeq > stableSeq || stalled && lastOwnSeq == stableSeq)) {
      send(Ready.ALL_REPLICAS, lastOwn);
    }
    if (stalled && !fetchEagerly) {
      for (Signed vote : stableProof) {
        if (vote.sender() != id) {
          send(Ready.ALL_REPLICAS, vote);
        }
      }
    }
    if (host.reached() < stableSeq && (fetchEagerly || stalled)) {
      fetch();
    }
  }

  /**
   * The deferred checkpoint becomes stable once reached, or once this replica executed nothing for a whole
   * retransmission interval since it deferred or last progressed: then ordering will not take it there
   * (its peers discarded what it lacks), and it fetches. Measured from the deferral, not from the last
   * round: a replica idle until the batch that reaches the checkpoint came is not stalled.
   */
  private void retryDeferred() {
    if (deferred <= stableSeq) {
      return;
    }
    long reached = host.reached();
    if (reached > deferredReached && reached < deferred) {
      deferredReached = reached;
      deferredSince = host.now();
    } else if (reached >= deferred || host.now() - deferredSince >= cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      checkStable(deferred, false);
    }
  }

  /** An authentic FETCH-STATE from a peer: the execution part only to a replica that executes. */
  public void onFetchState(Signed s) {
    FetchState fs = FetchState.decode(s.body());
    if (stableParts == null || stableSeq < fs.seq()) {
      return;
    }
    long[] last = lastServed.get(s.sender());
    if (last != null && last[1] == stableSeq && host.now() - last[0] < cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      // one whole state per peer, checkpoint and retransmission interval: fetch-state is no amplifier, and a
      // newer checkpoint is served at once (the asynchronous engine may run without ticks)
      return;
    }
    lastServed.put(s.sender(), new long[] {host.now(), stableSeq});
    byte[] execution = cfg.executes(s.sender()) && stableParts.execution() != null ? stableParts.execution()
        : Checkpoint.NO_EXECUTION;
    send(s.sender(), sign(Kind.STATE, new StateTransfer(stableSeq, stableParts.ordering(), execution, stableProof).encode()));
  }

  /**
   * An authentic STATE from a peer: installed when above what this replica reached, its proof valid and
   * each part it needs hashing to the proven digest; anything else from a correct peer cannot be, and is
   * evidence. A STATE without the execution part (a peer that holds none) leaves an executing replica to ask
   * another.
   */
  public void onStateTransfer(Signed s) {
    StateTransfer st = StateTransfer.decode(s.body());
    if (st.seq() <= host.reached() || st.proof().isEmpty()) {
      return;
    }
    if (executes && st.execution().length == 0) {
      return;
    }
    String problem = installProven(st);
    if (problem != null) {
      evidence(s.sender(), "state transfer " + problem);
    }
  }

  /**
   * A restarted replica's stable checkpoint from its own journal ({@link #hold}): installed as a state
   * transfer would install it, and checked alike (its proof and digests), since a journal that fails them
   * is damaged, not trusted.
   */
  public void restore(byte[] journaled) {
    StateTransfer st;
    try {
      st = StateTransfer.decode(journaled);
    } catch (DecodeException e) {
      throw new IllegalArgumentException("journal: stable checkpoint record does not decode: " + e.getMessage(), e);
    }
    String problem = st.proof().isEmpty() ? "without a proof" : installProven(st);
    if (problem != null) {
      throw new IllegalArgumentException("journal: stable checkpoint at " + st.seq() + " " + problem);
    }
  }

  /**
   * Installs a checkpoint whose proof is valid and whose parts (those this replica needs) hash to the proven
   * digests; otherwise says what is wrong with it (null: installed).
   */
  private String installProven(StateTransfer st) {
    byte[] digest = Checkpoint.decode(st.proof().get(0).body()).stateDigest();
    if (!validProof(st.seq(), digest, st.proof())) {
      return "with an invalid checkpoint proof";
    }
    byte[] execution = certifiedExecution(configAt(st.seq()), st.proof());
    if (!Arrays.equals(Digests.sha256(st.checkpoint()), digest)) {
      return "whose state does not match its proof";
    }
    if (executes && !Arrays.equals(Digests.sha256(st.execution()), execution)) {
      return "whose execution state does not match its proof";
    }
    ClientTable table = new ClientTable();
    byte[] appState;
    byte[] position;
    try {
      position = CheckpointCodec.position(tag, st.seq(), st.checkpoint());
      appState = CheckpointCodec.decode(tag, st.seq(), st.checkpoint(), executes ? st.execution() : null, table);
    } catch (DecodeException e) {
      // replicas of which one is correct signed these digests, so a correct one produced the bytes: cannot happen.
      return "with a proven checkpoint that does not decode: " + e.getMessage();
    }
    Parts parts = new Parts(st.checkpoint(), digest, executes ? st.execution() : null,
        executes ? execution : Checkpoint.NO_EXECUTION);
    if (position.length > 0) {
      host.installedPosition(st.seq(), position);
    }
    install(st.seq(), digest, st.proof(), parts, table, appState);
    return null;
  }

  private void install(long seq, byte[] digest, List<Signed> proof, Parts parts, ClientTable table, byte[] appState) {
    clients.copyFrom(table);
    host.installed(seq);
    makeStable(seq, digest, proof);
    if (seq == stableSeq) {
      hold(parts);
    }
    host.discardUpTo(seq);
    if (executes) {
      host.out().effects.add(new Effect.InstallState(seq, appState));
    }
    host.out().events.add(new Event.StateInstalled(seq, digest, parts.executionDigest()));
    host.resume();
  }

  // ---------------------------------------------------------------- helpers

  private Signed sign(Kind kind, byte[] body) {
    return Signed.sign(kind, id, body, signer);
  }

  /** {@code to}: a replica, or {@link Ready#ALL_REPLICAS}. */
  private void send(int to, Signed msg) {
    host.out().messages.add(new Ready.Outbound(to, msg.encode()));
  }

  private void evidence(int node, String what) {
    host.out().events.add(new Event.Evidence(node, what));
  }
}
