package org.bftws.core.pbft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.FetchState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.StateTransfer;

/**
 * Checkpoints, garbage collection and state transfer (Castro-Liskov §4.3; BFT-WS §3.3.1.8), for both
 * ordering engines: PBFT's {@link Replica} and the asynchronous {@code async.AsyncReplica}. A checkpoint
 * is the canonical encoding of (tag, seq, client table, application state); its digest is what replicas
 * vote on. At 2f+1 matching votes it is stable: the engine discards what is at and below it ({@link
 * Host#discardUpTo}). A replica that learns of a stable checkpoint above what it reached ({@link
 * Host#reached}) fetches it with its proof from a signer of the proof, checks it against the certified
 * digest and installs it: the client table here, the application state by {@link Effect.InstallState},
 * the rest through {@link Host#installed}.
 *
 * <p>When to fetch is the engine's choice: PBFT fetches as soon as it sees it is behind (a stable
 * checkpoint above its last execution); the asynchronous engine fetches only on a retransmission tick on
 * which it made no progress, since a replica that is merely slow catches up by ordering.
 */
public final class Checkpoints {
  static final byte[] GENESIS = new byte[Digests.LENGTH];
  /** PBFT's checkpoint tag; the asynchronous engine's differs, so that the two never match. */
  static final byte[] PBFT_TAG = "BFT-WS/1 checkpoint".getBytes(StandardCharsets.US_ASCII);

  /** What the engine does around checkpoints. */
  public interface Host {
    /** The step's output: messages, events and effects go there. */
    Ready out();

    /** The highest sequence number this replica has (or will have without a state transfer) executed. */
    long reached();

    /** Logical time (ticks), to serve a whole state at most once per retransmission interval per peer. */
    long now();

    /** A checkpoint at seq is stable or installed: nothing at or below it is needed any more. */
    void discardUpTo(long seq);

    /** A proven checkpoint at seq was installed (the client table already holds its table). */
    void installed(long seq);

    /** After the installed state's {@link Effect.InstallState}: execution may go on. */
    void resume();
  }

  private final GroupConfig cfg;
  private final int n;
  private final int id;
  private final Signer signer;
  private final Verifier verifier;
  private final ClientTable clients;
  private final byte[] tag;
  /** Fetch as soon as a stable checkpoint above {@link Host#reached} is known (else only when stalled). */
  private final boolean fetchEagerly;
  private final Host host;
  long stableSeq;
  byte[] stableDigest = GENESIS;
  List<Signed> stableProof = List.of();
  /** The stable checkpoint's bytes, when this replica has them (to serve fetch-state). */
  private byte[] stableBytes;
  private final TreeMap<Long, byte[]> ownBytes = new TreeMap<>();
  private final TreeMap<Long, byte[]> ownDigests = new TreeMap<>();
  private Signed lastOwn;
  private long lastOwnSeq;
  /** Votes per sender, bounded: a Byzantine replica cannot fill memory with checkpoint messages. */
  private final Map<Integer, TreeMap<Long, Signed>> votes = new HashMap<>();
  private final Map<Integer, TreeMap<Long, byte[]>> voteDigests = new HashMap<>();
  private final Map<Integer, Long> lastServed = new HashMap<>();
  private int fetchRotation;

  Checkpoints(GroupConfig cfg, int id, Signer signer, Verifier verifier, ClientTable clients, byte[] tag,
      boolean fetchEagerly, Host host) {
    this.cfg = cfg;
    this.n = cfg.n();
    this.id = id;
    this.signer = signer;
    this.verifier = verifier;
    this.clients = clients;
    this.tag = tag.clone();
    this.fetchEagerly = fetchEagerly;
    this.host = host;
  }

  /**
   * The asynchronous engine's checkpoints: its own {@code tag}, the client table of {@code requests}, and a
   * fetch only when stalled ({@link #retransmit}).
   */
  public static Checkpoints forEngine(GroupConfig cfg, int id, Signer signer, Verifier verifier,
      ClientRequests requests, byte[] tag, Host host) {
    return new Checkpoints(cfg, id, signer, verifier, requests.table, tag, false, host);
  }

  /** The stable checkpoint's sequence number (0: none yet). */
  public long stableSeq() {
    return stableSeq;
  }

  private int maxVotesPerSender() {
    return cfg.logWindow() / cfg.checkpointInterval() + 2;
  }

  /** Our own checkpoint after seq: encode, vote, and check stability. */
  public void own(long seq, byte[] appState) {
    ByteWriter w = new ByteWriter(appState.length + 256).raw(tag).i64(seq);
    clients.write(w);
    byte[] bytes = w.bytes(appState).toBytes();
    byte[] digest = Digests.sha256(bytes);
    if (seq == stableSeq && Arrays.equals(digest, stableDigest)) {
      stableBytes = bytes;
    }
    if (seq <= stableSeq) {
      return;
    }
    ownBytes.put(seq, bytes);
    ownDigests.put(seq, digest);
    host.out().events.add(new Event.CheckpointTaken(seq, digest));
    Signed msg = sign(Kind.CHECKPOINT, new Checkpoint(seq, digest).encode());
    lastOwn = msg;
    lastOwnSeq = seq;
    send(Ready.ALL_REPLICAS, msg);
    store(id, seq, msg, digest);
    checkStable(seq);
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
    byte[] before = voteDigests.getOrDefault(s.sender(), new TreeMap<>()).get(cp.seq());
    if (before != null) {
      if (!Arrays.equals(before, cp.stateDigest())) {
        evidence(s.sender(), "two checkpoint digests for " + cp.seq());
      }
      return;
    }
    store(s.sender(), cp.seq(), s, cp.stateDigest());
    checkStable(cp.seq());
  }

  private void store(int sender, long seq, Signed msg, byte[] digest) {
    TreeMap<Long, Signed> mine = votes.computeIfAbsent(sender, k -> new TreeMap<>());
    TreeMap<Long, byte[]> digests = voteDigests.computeIfAbsent(sender, k -> new TreeMap<>());
    mine.put(seq, msg);
    digests.put(seq, digest);
    while (mine.size() > maxVotesPerSender()) {
      digests.remove(mine.pollFirstEntry().getKey());
    }
  }

  private void checkStable(long seq) {
    Map<String, List<Signed>> byDigest = new HashMap<>();
    for (int sender = 0; sender < n; sender++) {
      TreeMap<Long, Signed> mine = votes.get(sender);
      if (mine != null && mine.containsKey(seq)) {
        String key = Digests.hex(voteDigests.get(sender).get(seq), Digests.LENGTH);
        byDigest.computeIfAbsent(key, k -> new ArrayList<>()).add(mine.get(seq));
      }
    }
    for (List<Signed> proof : byDigest.values()) {
      if (proof.size() >= cfg.quorum()) {
        byte[] digest = voteDigests.get(proof.get(0).sender()).get(seq);
        makeStable(seq, digest, List.copyOf(proof.subList(0, cfg.quorum())));
        return;
      }
    }
  }

  /** A proven checkpoint (2f+1 votes, here or in a view change) becomes the stable one. */
  void makeStable(long seq, byte[] digest, List<Signed> proof) {
    if (seq <= stableSeq) {
      return;
    }
    stableSeq = seq;
    stableDigest = digest;
    stableProof = proof;
    byte[] mine = ownDigests.get(seq);
    stableBytes = mine != null && Arrays.equals(mine, digest) ? ownBytes.get(seq) : null;
    if (mine != null && stableBytes == null) {
      evidence(id, "own checkpoint at " + seq + " differs from the stable one");
    }
    host.discardUpTo(seq);
    ownBytes.headMap(seq, false).clear();
    ownDigests.headMap(seq, false).clear();
    for (int sender : votes.keySet()) {
      votes.get(sender).headMap(seq, true).clear();
      voteDigests.get(sender).headMap(seq, true).clear();
    }
    host.out().events.add(new Event.CheckpointStable(seq, digest));
    if (fetchEagerly && host.reached() < seq) {
      fetch();
    }
  }

  /** A checkpoint proof: 2f+1 authentic checkpoint messages from distinct replicas for (seq, digest). */
  boolean validProof(long seq, byte[] digest, List<Signed> proof) {
    if (seq == 0) {
      return proof.isEmpty() && Arrays.equals(digest, GENESIS);
    }
    if (seq < 0 || seq % cfg.checkpointInterval() != 0) {
      return false;
    }
    Set<Integer> senders = new HashSet<>();
    for (Signed s : proof) {
      if (s.kind() != Kind.CHECKPOINT || s.sender() < 0 || s.sender() >= n || !senders.add(s.sender())) {
        return false;
      }
      Checkpoint cp;
      try {
        cp = Checkpoint.decode(s.body());
      } catch (DecodeException e) {
        return false;
      }
      if (cp.seq() != seq || !Arrays.equals(cp.stateDigest(), digest) || !s.verify(verifier)) {
        return false;
      }
    }
    return senders.size() >= cfg.quorum();
  }

  /** Ask one replica of the proof (a different one each round) for the stable checkpoint. */
  private void fetch() {
    List<Integer> holders = new ArrayList<>();
    for (Signed s : stableProof) {
      if (s.sender() != id) {
        holders.add(s.sender());
      }
    }
    if (holders.isEmpty()) {
      return;
    }
    int to = holders.get(Math.floorMod(fetchRotation++, holders.size()));
    send(to, sign(Kind.FETCH_STATE, new FetchState(stableSeq).encode()));
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

  /** An authentic FETCH-STATE from a peer. */
  public void onFetchState(Signed s) {
    FetchState fs = FetchState.decode(s.body());
    if (stableBytes == null || stableSeq < fs.seq()) {
      return;
    }
    Long last = lastServed.get(s.sender());
    if (last != null && host.now() - last < cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return; // one whole state per peer per retransmission interval: fetch-state is no amplifier
    }
    lastServed.put(s.sender(), host.now());
    send(s.sender(), sign(Kind.STATE, new StateTransfer(stableSeq, stableBytes, stableProof).encode()));
  }

  /**
   * An authentic STATE from a peer: installed when above what this replica reached, its proof valid and
   * its bytes hashing to the proven digest; anything else from a correct peer cannot be, and is evidence.
   */
  public void onStateTransfer(Signed s) {
    StateTransfer st = StateTransfer.decode(s.body());
    if (st.seq() <= host.reached() || st.proof().isEmpty()) {
      return;
    }
    byte[] digest = Checkpoint.decode(st.proof().get(0).body()).stateDigest();
    if (!validProof(st.seq(), digest, st.proof())) {
      evidence(s.sender(), "state transfer with an invalid checkpoint proof");
      return;
    }
    if (!Arrays.equals(Digests.sha256(st.checkpoint()), digest)) {
      evidence(s.sender(), "state transfer whose state does not match its proof");
      return;
    }
    ClientTable table = new ClientTable();
    byte[] appState;
    try {
      ByteReader rd = new ByteReader(st.checkpoint());
      if (!Arrays.equals(rd.raw(tag.length), tag) || rd.i64() != st.seq()) {
        throw new DecodeException("checkpoint header");
      }
      table.readFrom(rd);
      appState = rd.bytes();
      rd.end();
    } catch (DecodeException e) {
      // 2f+1 replicas signed these bytes, so at least one correct one produced them: cannot happen.
      evidence(s.sender(), "proven checkpoint that does not decode: " + e.getMessage());
      return;
    }
    install(st.seq(), digest, st.proof(), st.checkpoint(), table, appState);
  }

  private void install(long seq, byte[] digest, List<Signed> proof, byte[] bytes, ClientTable table, byte[] appState) {
    clients.copyFrom(table);
    host.installed(seq);
    makeStable(seq, digest, proof);
    stableBytes = seq == stableSeq ? bytes : stableBytes;
    host.discardUpTo(seq);
    host.out().effects.add(new Effect.InstallState(seq, appState));
    host.out().events.add(new Event.StateInstalled(seq, digest));
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
