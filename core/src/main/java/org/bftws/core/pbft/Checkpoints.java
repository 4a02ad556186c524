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
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.FetchState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.message.StateTransfer;

/**
 * Checkpoints, garbage collection and state transfer (Castro-Liskov §4.3; BFT-WS §3.3.1.8). A checkpoint
 * is the canonical encoding of (seq, client table, application state); its digest is what replicas
 * vote on. At 2f+1 matching votes it is stable: the log at and below it is discarded and the low
 * watermark moves. A replica that learns of a stable checkpoint above what it executed fetches it with
 * its proof and installs it.
 */
final class Checkpoints {
  static final byte[] GENESIS = new byte[Digests.LENGTH];
  private static final byte[] TAG = "BFT-WS/1 checkpoint".getBytes(StandardCharsets.US_ASCII);

  private final Replica r;
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

  Checkpoints(Replica r) {
    this.r = r;
  }

  private int maxVotesPerSender() {
    return r.cfg.logWindow() / r.cfg.checkpointInterval() + 2;
  }

  /** Our own checkpoint after seq: encode, vote, and check stability. */
  void own(long seq, byte[] appState) {
    ByteWriter w = new ByteWriter(appState.length + 256).raw(TAG).i64(seq);
    r.clients.write(w);
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
    r.out.events.add(new Event.CheckpointTaken(seq, digest));
    Signed msg = r.sign(Kind.CHECKPOINT, new Checkpoint(seq, digest).encode());
    lastOwn = msg;
    lastOwnSeq = seq;
    r.multicast(msg);
    store(r.id, seq, msg, digest);
    checkStable(seq);
  }

  void onCheckpoint(Signed s) {
    Checkpoint cp = Checkpoint.decode(s.body());
    if (cp.seq() <= stableSeq) {
      return;
    }
    if (cp.seq() % r.cfg.checkpointInterval() != 0) {
      r.evidence(s.sender(), "checkpoint at " + cp.seq() + ", not a multiple of " + GroupConfig.CHECKPOINT_INTERVAL.name());
      return;
    }
    byte[] before = voteDigests.getOrDefault(s.sender(), new TreeMap<>()).get(cp.seq());
    if (before != null) {
      if (!Arrays.equals(before, cp.stateDigest())) {
        r.evidence(s.sender(), "two checkpoint digests for " + cp.seq());
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
    for (int sender = 0; sender < r.n; sender++) {
      TreeMap<Long, Signed> mine = votes.get(sender);
      if (mine != null && mine.containsKey(seq)) {
        String key = Digests.hex(voteDigests.get(sender).get(seq), Digests.LENGTH);
        byDigest.computeIfAbsent(key, k -> new ArrayList<>()).add(mine.get(seq));
      }
    }
    for (List<Signed> proof : byDigest.values()) {
      if (proof.size() >= r.cfg.quorum()) {
        byte[] digest = voteDigests.get(proof.get(0).sender()).get(seq);
        makeStable(seq, digest, List.copyOf(proof.subList(0, r.cfg.quorum())));
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
      r.evidence(r.id, "own checkpoint at " + seq + " differs from the stable one");
    }
    r.discardUpTo(seq);
    r.coins.discardUpTo(seq);
    r.contributions.discardUpTo(seq);
    ownBytes.headMap(seq, false).clear();
    ownDigests.headMap(seq, false).clear();
    for (int sender : votes.keySet()) {
      votes.get(sender).headMap(seq, true).clear();
      voteDigests.get(sender).headMap(seq, true).clear();
    }
    r.out.events.add(new Event.CheckpointStable(seq, digest));
    if (r.lastExecuted() < seq) {
      fetch();
    }
  }

  /** A checkpoint proof: 2f+1 authentic checkpoint messages from distinct replicas for (seq, digest). */
  boolean validProof(long seq, byte[] digest, List<Signed> proof) {
    if (seq == 0) {
      return proof.isEmpty() && Arrays.equals(digest, GENESIS);
    }
    if (seq < 0 || seq % r.cfg.checkpointInterval() != 0) {
      return false;
    }
    Set<Integer> senders = new HashSet<>();
    for (Signed s : proof) {
      if (s.kind() != Kind.CHECKPOINT || s.sender() < 0 || s.sender() >= r.n || !senders.add(s.sender())) {
        return false;
      }
      Checkpoint cp;
      try {
        cp = Checkpoint.decode(s.body());
      } catch (DecodeException e) {
        return false;
      }
      if (cp.seq() != seq || !Arrays.equals(cp.stateDigest(), digest) || !s.verify(r.verifier)) {
        return false;
      }
    }
    return senders.size() >= r.cfg.quorum();
  }

  /** Ask one replica of the proof (a different one each round) for the stable checkpoint. */
  private void fetch() {
    List<Integer> holders = new ArrayList<>();
    for (Signed s : stableProof) {
      if (s.sender() != r.id) {
        holders.add(s.sender());
      }
    }
    if (holders.isEmpty()) {
      return;
    }
    int to = holders.get(Math.floorMod(fetchRotation++, holders.size()));
    r.send(to, r.sign(Kind.FETCH_STATE, new FetchState(stableSeq).encode()));
  }

  /**
   * Our latest checkpoint vote until it is stable; when stalled, our vote for the stable one too, so a
   * replica that restarted empty learns what is stable (and fetches it) even when no request flows.
   */
  void retransmit(boolean stalled) {
    if (lastOwn != null && (lastOwnSeq > stableSeq || stalled && lastOwnSeq == stableSeq)) {
      r.multicast(lastOwn);
    }
    if (r.lastExecuted() < stableSeq) {
      fetch();
    }
  }

  void onFetchState(Signed s) {
    FetchState fs = FetchState.decode(s.body());
    if (stableBytes == null || stableSeq < fs.seq()) {
      return;
    }
    Long last = lastServed.get(s.sender());
    if (last != null && r.now() - last < r.cfg.get(GroupConfig.RETRANSMIT_INTERVAL)) {
      return; // one whole state per peer per retransmission interval: fetch-state is no amplifier
    }
    lastServed.put(s.sender(), r.now());
    r.send(s.sender(), r.sign(Kind.STATE, new StateTransfer(stableSeq, stableBytes, stableProof).encode()));
  }

  void onStateTransfer(Signed s) {
    StateTransfer st = StateTransfer.decode(s.body());
    if (st.seq() <= r.lastExecuted() || st.proof().isEmpty()) {
      return;
    }
    byte[] digest = Checkpoint.decode(st.proof().get(0).body()).stateDigest();
    if (!validProof(st.seq(), digest, st.proof())) {
      r.evidence(s.sender(), "state transfer with an invalid checkpoint proof");
      return;
    }
    if (!Arrays.equals(Digests.sha256(st.checkpoint()), digest)) {
      r.evidence(s.sender(), "state transfer whose state does not match its proof");
      return;
    }
    ClientTable table = new ClientTable();
    byte[] appState;
    try {
      ByteReader rd = new ByteReader(st.checkpoint());
      if (!Arrays.equals(rd.raw(TAG.length), TAG) || rd.i64() != st.seq()) {
        throw new DecodeException("checkpoint header");
      }
      table.readFrom(rd);
      appState = rd.bytes();
      rd.end();
    } catch (DecodeException e) {
      // 2f+1 replicas signed these bytes, so at least one correct one produced them: cannot happen.
      r.evidence(s.sender(), "proven checkpoint that does not decode: " + e.getMessage());
      return;
    }
    install(st.seq(), digest, st.proof(), st.checkpoint(), table, appState);
  }

  private void install(long seq, byte[] digest, List<Signed> proof, byte[] bytes, ClientTable table, byte[] appState) {
    r.installed(seq, table);
    makeStable(seq, digest, proof);
    stableBytes = seq == stableSeq ? bytes : stableBytes;
    r.discardUpTo(seq);
    r.out.effects.add(new Effect.InstallState(seq, appState));
    r.out.events.add(new Event.StateInstalled(seq, digest));
    r.executeCommitted();
  }
}
