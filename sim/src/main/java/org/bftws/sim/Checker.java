package org.bftws.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.BaRandomness;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.replication.ReplicatedClients;
import org.bftws.core.engine.Event;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.testkit.HashChainApp;

/**
 * The invariants of docs/design/testing.md, checked on what correct replicas and clients report: one canonical
 * history that every commit must match (S1, S4), exactly-once execution (S2), only client-issued
 * requests (S3), agreeing checkpoints and state transfers (S5), view changes that keep what committed
 * (S6), client-accepted replies equal to a replay of the agreed history on a model (S7), random numbers
 * that are the threshold coin of their (group, n, request) — the same at every correct replica and client,
 * and recomputed here from k of the dealt key shares (S8, integrity paper §6 C1) — and nothing of a sequence
 * executed after the batch that terminated it, nor a terminate handed to the application (S9).
 */
final class Checker {
  /**
   * S8's reference: the dealt keys, with which the checker computes every coin itself (k shares of the
   * dealer's key shares, combined), as an auditor holding the group key would.
   */
  record CoinOracle(ThresholdScheme scheme, GroupKey group, List<KeyShare> shares, byte[] groupId, boolean perBatch) {
    CoinOracle(ThresholdScheme scheme, Dealt dealt, byte[] groupId, boolean perBatch) {
      this(scheme, dealt.group(), dealt.shares(), groupId, perBatch);
    }
  }

  private final CoinOracle oracle;

  /**
   * S8's reference for the BA algorithm (integrity paper §4): the group's size and public keys, with which
   * the checker re-checks every certified set S_R a correct replica committed with and recomputes R.
   */
  record BaOracle(int n, int f, boolean hardened, Verifier verifier) {}

  private BaOracle ba;
  /** BA: per committed seq, the random number of each request index of the canonical batch (null: none). */
  private final Map<Long, byte[][]> agreed = new HashMap<>();

  void agreement(BaOracle ba) {
    this.ba = ba;
  }
  private final Map<String, byte[]> coinCache = new HashMap<>();
  /** S8: the random number each (seq, request) was executed with, first seen. */
  private final Map<String, byte[]> executedRandoms = new HashMap<>();
  private final Map<RequestId, byte[]> deliveredRandoms = new HashMap<>();
  long randomsChecked;

  /** Which requests are randomized: the replicas' own predicate (integrity paper §4). */
  private RandomizedOperations ops = RandomizedOperations.AS_FLAGGED;
  /** Correct replicas' evidence against needlessly randomized requests or batches holding them. */
  long refused;

  Checker(CoinOracle oracle) {
    this.oracle = oracle;
  }

  /** {@code --keys dkg}: the key generation's invariants, and the keys S8 and S7 judge by (null otherwise). */
  private KeyGenChecks keyGen;
  /** With {@code --keys dkg}: agreed requests refused because no keys served their seq (after {@link #finish}). */
  long refusedBeforeKeys;

  void keyGen(KeyGenChecks checks) {
    this.keyGen = checks;
  }

  KeyGenChecks keyGen() {
    return keyGen;
  }

  void operations(RandomizedOperations ops) {
    this.ops = ops;
  }

  private final Set<String> violations = new LinkedHashSet<>();
  /** Canonical history: seq → digest, and the batch behind each digest. */
  private final TreeMap<Long, byte[]> canonical = new TreeMap<>();
  private final Map<Long, Long> committedView = new HashMap<>();
  private final Map<Long, List<Signed>> batches = new HashMap<>();
  private final List<long[]> prePrepared = new ArrayList<>();
  private final List<byte[]> prePreparedDigests = new ArrayList<>();
  private final Map<Long, byte[]> checkpointDigests = new HashMap<>();
  private final Map<Long, byte[]> stableDigests = new HashMap<>();
  /** Configuration II's execution digests: of correct executing replicas' checkpoints, and certified ones. */
  private final Map<Long, byte[]> executionDigests = new HashMap<>();
  private final Map<Long, byte[]> stableExecutionDigests = new HashMap<>();
  private final ExecutionIntegrity integrity = new ExecutionIntegrity("S2", this::violation);
  private final Set<String> issued = new HashSet<>();
  /** S9: the first canonical seq whose batch terminates a sequence; nothing of it executes in a later one. */
  private final Map<String, Long> terminatedAt = new HashMap<>();
  private final Map<RequestId, byte[]> delivered = new HashMap<>();
  long commits;
  long committedRequests;
  long viewChanges;
  long stateTransfers;
  long evidence;

  void violation(String v) {
    violations.add(v);
  }

  List<String> violations() {
    return new ArrayList<>(violations);
  }

  static String key(Request q) {
    return q.client() + "|" + q.sequenceId() + "|" + q.messageNumber() + "|" + Digests.hex(Digests.sha256(q.operation()), 32);
  }

  /** Which clients form one replicated client: their sequences belong to its principal (BFT-WS §3.4). */
  void replicatedClients(ReplicatedClients clients) {
    this.replicated = clients;
  }

  private ReplicatedClients replicated = ReplicatedClients.none();

  void issued(Request q) {
    issued.add(key(q));
  }

  /** Plaintexts of sealed requests (SINTRA §2.6) by the key of the request as ordered, with its ciphertext. */
  private final Map<String, byte[]> sealed = new HashMap<>();

  /** Requests clients sealed. */
  int sealedCount() {
    return sealed.size();
  }

  /** A client sealed {@code plaintext} into {@code ordered}: S7 replays the plaintext where it is ordered. */
  void sealed(Request ordered, byte[] plaintext) {
    sealed.put(key(ordered), plaintext.clone());
  }

  /** The request as the replicas must execute it: a sealed one opened. */
  private Request opened(Request q) {
    byte[] plaintext = sealed.get(key(q));
    return plaintext == null ? q : new Request(q.client(), q.sequenceId(), q.messageNumber(), q.randomized(), plaintext);
  }

  /**
   * S11's subjects: PBFT replicas (and asynchronous and hybrid ones in runs with journal restarts) that are correct and keep
   * their memory (restarted from a journal at most).
   * An amnesiac may sign what contradicts its first incarnation, and counts among the f faulty.
   */
  private final Set<Integer> remembering = new HashSet<>();

  void remembering(Set<Integer> replicas) {
    remembering.addAll(replicas);
  }

  /** Evidence texts of the correct replicas that name two conflicting messages of one sender for one seq. */
  private static final List<String> CONTRADICTIONS =
      List.of("equivocation: two pre-prepares", "double prepare", "double commit", "two contributions");
  /**
   * The asynchronous engine's, after the instance id of the channel's round ({@code abc/r...: }): two
   * different SENDs, ECHOs or READYs of a broadcast, two different votes of a binary agreement, a second
   * multi-valued agreement vote or round proposal (SINTRA §2.2-2.5).
   */
  private static final List<String> ASYNC_CONTRADICTIONS =
      List.of(": two different ", ": second vote in round ", ": second proposal in round ");
  /**
   * The hybrid engine's, after an epoch's instance id ({@code hyb/e...: }): its fast lane's (two batches
   * proposed or two PREPAREs for one seq, Castro-Liskov §4.2), two SWITCHes in one epoch, and its fallback
   * agreement's, the asynchronous engine's.
   */
  private static final List<String> HYBRID_CONTRADICTIONS =
      List.of(": two batches proposed for seq ", ": two PREPAREs for seq ", ": two SWITCHes in epoch ");

  private static boolean contradiction(String what) {
    return CONTRADICTIONS.stream().anyMatch(what::startsWith)
        || what.startsWith("abc/") && ASYNC_CONTRADICTIONS.stream().anyMatch(what::contains)
        || what.startsWith("hyb/") && (ASYNC_CONTRADICTIONS.stream().anyMatch(what::contains)
            || HYBRID_CONTRADICTIONS.stream().anyMatch(what::contains));
  }

  /** A replica restarted without its state: a new incarnation, tracked afresh for S2. */
  void amnesia(int replica) {
    remembering.remove(replica);
    integrity.forget(replica);
  }

  /**
   * A replica restarted from its journal (TOCS 2002 §4.3): the same correct replica, whose service is back at
   * its stable checkpoint {@code seq}; what it executed above it, it executes again (S2 counts from there).
   */
  void restarted(int replica, long seq) {
    integrity.restarted(replica, seq);
  }

  void event(int replica, Event e) {
    if (e instanceof Event.Committed c) {
      commits++;
      byte[] before = canonical.putIfAbsent(c.seq(), c.digest());
      if (before != null && !Arrays.equals(before, c.digest())) {
        violation("S1 agreement: seq " + c.seq() + " committed with two digests (replica " + replica + ")");
      }
      committedView.merge(c.seq(), c.view(), Math::min);
      if (batches.putIfAbsent(c.seq(), c.batch()) == null) {
        for (Signed q : c.batch()) {
          Request r = Request.decode(q.body());
          if (r.terminates()) {
            terminatedAt.merge(r.sequenceId(), c.seq(), Math::min);
          }
        }
      }
    } else if (e instanceof Event.RandomnessAgreed ra) {
      agreed(replica, ra);
    } else if (e instanceof Event.PrePrepared p) {
      prePrepared.add(new long[] {p.view(), p.seq()});
      prePreparedDigests.add(p.digest());
    } else if (e instanceof Event.CheckpointTaken t) {
      same(checkpointDigests, t.seq(), t.digest(), "S5 checkpoints: replicas took different checkpoints at ");
      if (t.executionDigest().length > 0) { // configuration II: only executing replicas have service state
        same(executionDigests, t.seq(), t.executionDigest(), "S5 checkpoints: replicas reached different service"
            + " states at ");
      }
    } else if (e instanceof Event.CheckpointStable s) {
      same(stableDigests, s.seq(), s.digest(), "S5 checkpoints: different stable checkpoints at ");
      if (s.executionDigest().length > 0) { // configuration III's agreement replicas certify no service state
        same(stableExecutionDigests, s.seq(), s.executionDigest(), "S5 checkpoints: different certified service"
            + " states at ");
        same(executionDigests, s.seq(), s.executionDigest(), "S5 checkpoints: a certified service state no"
            + " correct replica reached at ");
      }
    } else if (e instanceof Event.StateInstalled s) {
      stateTransfers++;
      same(stableDigests, s.seq(), s.digest(), "S5 state transfer: installed a state other than the proven one at ");
      if (s.executionDigest().length > 0) {
        same(stableExecutionDigests, s.seq(), s.executionDigest(), "S5 state transfer: installed a service state"
            + " other than the certified one at ");
      }
      integrity.installed(replica, s.seq());
    } else if (e instanceof Event.ViewEntered) {
      viewChanges++;
    } else if (e instanceof Event.Evidence ev) {
      evidence++;
      if (remembering.contains(ev.node()) && contradiction(ev.what())) {
        violation("S11 votes: replica " + replica + " caught correct replica " + ev.node() + " contradicting itself: "
            + ev.what());
      }
      if (ev.what().contains("flagged randomized")) {
        refused++;
      }
    }
  }

  /**
   * S8 for BA: the certified set a correct replica committed with must check out (2f+1 distinct, authentic
   * contributions for this batch; hardened: reveals opening 2f+1 commitments), and every correct replica's
   * set must give the same R.
   */
  private void agreed(int replica, Event.RandomnessAgreed ra) {
    List<Signed> batch = batches.get(ra.seq());
    if (ba == null || batch == null || !Arrays.equals(canonical.get(ra.seq()), ra.batchDigest())) {
      violation("S8 randomness: replica " + replica + " agreed on a random number for seq " + ra.seq()
          + (ba == null ? " without BA" : " outside the canonical history"));
      return;
    }
    List<byte[]> randoms;
    try {
      randoms = BaRandomness.checkCertificate(ra.certificate(), ra.seq(), ra.batchDigest(), batch, ops, ba.n(), ba.f(),
          ba.hardened(), s -> s.verify(ba.verifier()));
    } catch (IllegalArgumentException ex) {
      violation("S8 randomness: replica " + replica + " committed seq " + ra.seq() + " with a set that does not check: "
          + ex.getMessage());
      return;
    }
    int[] idx = ops.randomizedIndices(batch);
    byte[][] per = new byte[batch.size()][];
    for (int j = 0; j < idx.length; j++) {
      per[idx[j]] = randoms.get(j);
    }
    byte[][] before = agreed.putIfAbsent(ra.seq(), per);
    if (before != null && !Arrays.deepEquals(before, per)) {
      violation("S8 randomness: correct replicas committed seq " + ra.seq() + " with different random numbers");
    }
  }

  private void same(Map<Long, byte[]> m, long seq, byte[] d, String what) {
    byte[] before = m.putIfAbsent(seq, d);
    if (before != null && !Arrays.equals(before, d)) {
      violation(what + seq);
    }
  }

  void executed(int replica, Effect.Execute ex) {
    integrity.executed(replica, ex.seq(), ex.requests().stream().map(Request::id).toList());
    byte[] d = canonical.get(ex.seq());
    if (d == null || !Arrays.equals(d, ex.batchDigest())) {
      violation("S4 history: replica " + replica + " executed seq " + ex.seq() + " outside the canonical history");
    }
    checkRandoms(replica, ex);
    for (Request q : ex.requests()) {
      Long end = terminatedAt.get(q.sequenceId());
      if (q.terminates() || (end != null && end < ex.seq())) {
        violation("S9 terminate: replica " + replica + " executed " + q.id() + (q.terminates()
            ? ", a terminate, as an operation" : " at seq " + ex.seq() + ", after its sequence's terminate (seq "
            + end + ")"));
      }
      if (!issued.contains(key(q))) {
        violation("S3 validity: replica " + replica + " executed " + q.id() + ", which no client issued");
      }
      if (q.randomized() && !ops.isRandomized(q)) {
        violation("S3 validity: replica " + replica + " executed " + q.id()
            + ", flagged randomized for an operation that is not (integrity paper §4: refused)");
      }
    }
  }

  /**
   * S8: each executed request's random number equals the coin recomputed from the dealt keys (empty for a
   * request that is not randomized, or without coins) and what other correct replicas executed it with.
   */
  private void checkRandoms(int replica, Effect.Execute ex) {
    if (ex.randoms().size() != ex.requests().size()) {
      violation("S8 randomness: replica " + replica + " executed seq " + ex.seq() + " with "
          + ex.randoms().size() + " random numbers for " + ex.requests().size() + " requests");
      return;
    }
    List<Signed> batch = batches.get(ex.seq());
    for (int i = 0; i < ex.requests().size(); i++) {
      Request q = ex.requests().get(i);
      byte[] got = ex.randoms().get(i);
      byte[] body = batch == null ? null : bodyOf(batch, q.id());
      if (body == null) {
        continue; // outside the canonical history: S4 reports it
      }
      byte[] want = expectedRandom(ex.seq(), ex.batchDigest(), body);
      if (want == null) {
        violation("S8 randomness: replica " + replica + " executed " + q.id() + " at seq " + ex.seq() + ", which the"
            + " generated keys serve, before k replicas had a share of them");
        continue;
      }
      if (!Arrays.equals(got, want)) {
        violation("S8 randomness: replica " + replica + " executed " + q.id() + " at seq " + ex.seq()
            + " with a random number that is not " + (ba != null ? "the combination of its certified set"
            : "the coin of (group, n, d)") + (got.length == 0 ? " (none)" : ""));
      }
      byte[] before = executedRandoms.putIfAbsent(ex.seq() + "|" + q.id(), got);
      if (before != null && !Arrays.equals(before, got)) {
        violation("S8 randomness: correct replicas executed " + q.id() + " at seq " + ex.seq() + " with different random numbers");
      }
      if (got.length > 0) {
        randomsChecked++;
      }
    }
  }

  /** The body of the request of the batch with this id that executes: its first occurrence. */
  private static byte[] bodyOf(List<Signed> batch, RequestId id) {
    for (Signed s : batch) {
      if (Request.decode(s.body()).id().equals(id)) {
        return s.body();
      }
    }
    return null;
  }

  /** The random number a request with this body must get at seq in the batch with this digest. */
  private byte[] expectedRandom(long seq, byte[] batchDigest, byte[] requestBody) {
    if (ba != null && ops.isRandomized(Request.decode(requestBody))) {
      byte[][] per = agreed.get(seq);
      List<Signed> batch = batches.get(seq);
      for (int i = 0; per != null && i < batch.size(); i++) {
        if (Arrays.equals(batch.get(i).body(), requestBody)) {
          return per[i] == null ? new byte[0] : per[i];
        }
      }
      return new byte[0]; // committed without an agreed set: any random number delivered is a violation
    }
    CoinOracle o = oracle;
    if (keyGen != null && ops.isRandomized(Request.decode(requestBody))) {
      if (keyGen.keysAt() < 0 || seq <= keyGen.keysAt()) {
        return new byte[0]; // no keys serve seq: refused alike everywhere
      }
      o = keyGen.oracle();
      if (o == null) {
        return null;
      }
    }
    if (o == null || !ops.isRandomized(Request.decode(requestBody))) {
      return new byte[0];
    }
    if (o.perBatch()) {
      return CoinConfig.perBatchRandom(coin(o, CoinConfig.batchCoinMessage(o.groupId(), seq, batchDigest)), requestBody);
    }
    return coin(o, CoinConfig.requestCoinMessage(o.groupId(), seq, requestBody));
  }

  /** The coin on a message, from the dealer's key shares 1..k (any k give the same unique value). */
  private byte[] coin(CoinOracle oracle, byte[] message) {
    return coinCache.computeIfAbsent(Digests.hex(Digests.sha256(message), 64), h -> {
      List<SignatureShare> shares = new ArrayList<>();
      int k = oracle.group().params().k();
      for (KeyShare share : oracle.shares().subList(0, k)) {
        shares.add(oracle.scheme().share(oracle.group(), share, message));
      }
      try {
        return oracle.scheme().coinValue(oracle.scheme().combine(oracle.group(), message, shares));
      } catch (ThresholdException e) {
        throw new IllegalStateException("the checker's own coin failed", e);
      }
    });
  }

  void delivered(RequestId id, byte[] result, byte[] random) {
    delivered.put(id, result);
    deliveredRandoms.put(id, random);
  }

  /** End of run: S6 (what committed stays), S7 (replies equal a replay of the canonical history). */
  void finish() {
    for (int i = 0; i < prePrepared.size(); i++) {
      long view = prePrepared.get(i)[0];
      long seq = prePrepared.get(i)[1];
      Long cv = committedView.get(seq);
      if (cv != null && view > cv && !Arrays.equals(canonical.get(seq), prePreparedDigests.get(i))) {
        violation("S6 view change: seq " + seq + " committed in view " + cv + " but re-proposed differently in view " + view);
      }
    }
    Map<RequestId, byte[]> expected = replay();
    committedRequests = expected.keySet().stream().filter(id -> id.messageNumber() != Request.TERMINATE).count();
    for (Map.Entry<RequestId, byte[]> e : delivered.entrySet()) {
      byte[] want = expected.get(e.getKey());
      if (want == null && complete) {
        violation("S7 clients: a reply for " + e.getKey() + " was accepted but it is not in the agreed history");
      } else if (want != null && !Arrays.equals(want, e.getValue())) {
        violation("S7 clients: the accepted reply for " + e.getKey() + " differs from the replayed history");
      }
      byte[] wantRandom = replayedRandoms.get(e.getKey());
      if (wantRandom != null && !Arrays.equals(wantRandom, deliveredRandoms.get(e.getKey()))) {
        violation("S8 randomness: the client accepted a random number for " + e.getKey() + " other than the coin");
      }
    }
  }

  private final Map<RequestId, byte[]> replayedRandoms = new HashMap<>();

  private boolean complete;

  private Map<RequestId, byte[]> replay() {
    HashChainApp model = new HashChainApp();
    Map<String, Long> last = new HashMap<>();
    Map<String, Integer> owner = new HashMap<>();
    Map<RequestId, byte[]> results = new HashMap<>();
    complete = true;
    long expect = 1;
    for (Map.Entry<Long, byte[]> e : canonical.entrySet()) {
      if (e.getKey() != expect) {
        complete = false; // a gap: nothing after it can be replayed
        break;
      }
      expect++;
      for (Signed s : batches.get(e.getKey())) {
        Request ordered = Request.decode(s.body());
        Request q = opened(ordered);
        int principal = replicated.principal(q.client());
        if (owner.computeIfAbsent(q.sequenceId(), k -> principal) != principal) {
          continue; // a sequence belongs to the client (or replicated client) that used it first
        }
        if (q.messageNumber() > last.getOrDefault(q.sequenceId(), 0L)) {
          last.put(q.sequenceId(), q.messageNumber());
          if (q.terminates()) {
            results.put(q.id(), new byte[0]); // the replicas' own business: an empty reply, nothing executed
            continue;
          }
          if (keyGen != null && (keyGen.reserved(q.client()) || keyGen.refused(e.getKey(), ordered))) {
            // the key generation's own operations reach no service; those needing keys before they serve are refused
            results.put(q.id(), keyGen.reserved(q.client()) ? new byte[0] : SimDkg.NOT_YET.clone());
            refusedBeforeKeys += keyGen.reserved(q.client()) ? 0 : 1;
            replayedRandoms.put(q.id(), new byte[0]);
            continue;
          }
          byte[] random = expectedRandom(e.getKey(), e.getValue(), s.body());
          if (random == null) {
            violation("S8 randomness: seq " + e.getKey() + " is served by the generated keys, but fewer than k"
                + " replicas had a share of them");
            random = new byte[0];
          }
          replayedRandoms.put(q.id(), random);
          results.put(q.id(), model.execute(q, random));
        }
      }
    }
    return results;
  }
}
