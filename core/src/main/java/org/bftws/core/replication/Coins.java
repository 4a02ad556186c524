package org.bftws.core.replication;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.InvalidSharesException;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;

/**
 * Threshold coin-tossing of the CT algorithm (integrity paper §5): the share-generation and
 * shares-combination steps, and execution's wait for the coins.
 *
 * <p>When a batch with randomized requests commits locally, this replica signs, for each of them, the
 * canonical (group, n, D(request)) — one (group, n, d) for the whole batch with {@code bftws.coinPerBatch}
 * — with its key share, and multicasts the shares in one {@link Kind#COIN_SHARE}. With k shares from
 * distinct replicas for a coin it combines them optimistically (docs/design/cryptography.md pitfall 9); a failed combination
 * names the bad shares, whose senders are recorded as evidence and dropped. The random number is
 * {@code coinValue} of the unique group value; execution of the batch waits until all its coins are known.
 *
 * <p>Shares are released only after the batch committed here, never at prepare time: once (n, d) committed
 * at a correct replica no later view can order anything else at n, so no coin is revealed for a request
 * that might then be ordered elsewhere for a second draw. The coin names no view (docs/design/cryptography.md pitfall 6), so
 * the state here is kept per sequence number, outside the per-view {@code pbft.Slot} fields, and survives view
 * changes. Memory is bounded by the log window: one entry per sequence number above the stable checkpoint,
 * per entry at most one buffered message per replica; entries at or below the stable checkpoint are
 * discarded (state transfer to a checkpoint needs no coins below it).
 *
 * <p>Both ordering engines use it: PBFT's {@code pbft.Replica} from a batch's local commit, the asynchronous
 * {@code async.AsyncReplica} from a round's delivery (seq = round, d = the digest of the decided vector),
 * which is final as a commit is.
 */
public final class Coins {
  /** What the engine provides. */
  public interface Host extends ShareRounds.Host {
    /** Every coin of a batch became known: execution may go on. */
    void coinsKnown();
  }

  private final GroupConfig cfg;
  private final int id;
  private final Signer signer;
  private final RandomizedOperations operations;
  private final Host host;
  /** The coin keys per seq; none serving a seq: randomized requests there get empty random numbers. */
  private final KeyEpochs<CoinConfig> keys;
  private final boolean perBatch;
  private final ShareRounds<Toss> tosses;

  /**
   * The coins of one sequence number: {@code requests} holds, per coin, the request index it is for ({@link
   * CoinShare#BATCH} for the batch's coin).
   */
  private static final class Toss extends ShareRounds.Round {
    List<Signed> batch;
    /** The keys this seq's coins are tossed with ({@link KeyEpochs#at}). */
    CoinConfig c;
    byte[][] messages;
    byte[][] coins;
    GroupValue[] values;
  }

  /**
   * {@code c}: the group's dealt coin with this replica's share, or null (randomized requests then get empty
   * random numbers); {@code operations} says which requests are randomized. Keys fixed here.
   */
  public Coins(GroupConfig cfg, int id, Signer signer, RandomizedOperations operations, CoinConfig c, Host host) {
    this(cfg, id, signer, operations, c, false, host);
  }

  /** As above; with {@code changing}, later keys may be {@link #install}ed ({@link KeyEpochs}). */
  public Coins(GroupConfig cfg, int id, Signer signer, RandomizedOperations operations, CoinConfig c,
      boolean changing, Host host) {
    this.cfg = cfg;
    this.id = id;
    this.signer = signer;
    this.operations = operations;
    this.host = host;
    this.tosses = new ShareRounds<>(cfg, host, Toss::new);
    check(c);
    this.keys = new KeyEpochs<>(c, changing);
    this.perBatch = cfg.flag(GroupConfig.COIN_PER_BATCH);
  }

  /** The coin keys serving every seq above {@code afterSeq} (the seq their outcome was ordered at). */
  public void install(long afterSeq, CoinConfig c) {
    if (c == null) {
      throw new IllegalArgumentException("no coin keys to install");
    }
    check(c);
    keys.install(afterSeq, c);
  }

  /** Whether later keys may be installed. */
  public boolean changing() {
    return keys.changing();
  }

  /** The keys per seq, for {@link ShareRelease}. */
  KeyEpochs<?> epochs() {
    return keys;
  }

  /** A deferred batch now free to release its shares under the keys that serve it ({@link ShareRelease}). */
  void release(KeyEpochs.Deferred d) {
    if (d != null) {
      toss(d.seq(), d.digest(), d.batch());
    }
  }

  private void check(CoinConfig c) {
    if (c != null) {
      if (c.group().params().n() != cfg.n() || c.group().params().t() != cfg.f()) {
        throw new IllegalArgumentException("coin key dealt for (n, t) = (" + c.group().params().n() + ", "
            + c.group().params().t() + "), the group has (" + cfg.n() + ", " + cfg.f() + ")");
      }
      if (c.share().index() != id + 1) {
        throw new IllegalArgumentException("replica " + id + " needs key share " + (id + 1) + ", got "
            + c.share().index());
      }
    }
  }

  // ---------------------------------------------------------------- share generation

  /**
   * The batch of client request envelopes {@code batch} with digest {@code digest} is final at seq here
   * (committed locally, again after a view change; or delivered by the channel): release our shares.
   */
  public void committed(long seq, byte[] digest, List<Signed> batch) {
    if (keys.at(seq) == null && !keys.changing()) {
      return;
    }
    if (tosses.finalAgain(tosses.get(seq)) || keys.defer(seq, digest, batch)) {
      return; // committed again in a new view (peers that lost our shares got them now), or waiting for keys
    }
    toss(seq, digest, batch);
  }

  private void toss(long seq, byte[] digest, List<Signed> batch) {
    CoinConfig c = keys.at(seq);
    if (c == null) {
      // no keys serve seq: its randomized requests get empty random numbers, alike everywhere
      tosses.unneeded(seq, "coin shares for seq " + seq + ", which no coin key serves");
      return;
    }
    int[] randomized = randomizedIndices(batch);
    if (randomized.length == 0) {
      tosses.unneeded(seq, "coin shares for seq " + seq + ", whose batch has no randomized request");
      return;
    }
    Toss t = tosses.open(seq);
    t.c = c;
    start(t, seq, digest, batch, randomized);
    tosses.takeEarly(t, (sender, msg) -> take(t, seq, sender, CoinShare.decode(msg.body())));
    combine(t, seq);
  }

  private void start(Toss t, long seq, byte[] digest, List<Signed> batch, int[] randomized) {
    CoinConfig c = t.c;
    t.digest = digest;
    t.batch = batch;
    t.requests = perBatch ? new int[] {CoinShare.BATCH} : randomized;
    int coins = t.requests.length;
    t.messages = new byte[coins][];
    t.coins = new byte[coins][];
    t.values = new GroupValue[coins];
    t.candidates = new ArrayList<>(coins);
    t.missing = coins;
    List<CoinShare.Entry> entries = new ArrayList<>(coins);
    for (int j = 0; j < coins; j++) {
      t.messages[j] = perBatch ? CoinConfig.batchCoinMessage(c.groupId(), seq, digest)
          : CoinConfig.requestCoinMessage(c.groupId(), seq, batch.get(t.requests[j]).body());
      SignatureShare mine = c.scheme().share(c.group(), c.share(), t.messages[j]);
      Map<Integer, SignatureShare> cand = new LinkedHashMap<>();
      cand.put(id, mine);
      t.candidates.add(cand);
      entries.add(new CoinShare.Entry(t.requests[j], mine.encode()));
    }
    tosses.release(t, id, Signed.sign(Kind.COIN_SHARE, id, new CoinShare(seq, digest, entries).encode(), signer));
  }

  private int[] randomizedIndices(List<Signed> batch) {
    return operations.randomizedIndices(batch);
  }

  // ---------------------------------------------------------------- shares from peers

  /** An authentic COIN-SHARE from a peer (the caller checked sender and signature). */
  public void onShare(Signed s) {
    CoinShare cs = CoinShare.decode(s.body());
    if (!keys.changing() && keys.at(cs.seq()) == null) {
      evidence(s.sender(), "coin shares, but this group tosses no coins");
      return;
    }
    Toss t = tosses.admit(s, cs.seq(), cs.shares().size(), "coin shares");
    if (t == null) {
      return;
    }
    take(t, cs.seq(), s.sender(), cs);
    if (combine(t, cs.seq())) {
      host.coinsKnown();
    }
  }

  /** Check one sender's shares for a committed batch and add them to the candidates (not yet verified). */
  private void take(Toss t, long seq, int sender, CoinShare cs) {
    if (!ShareRounds.untaken(t, sender)) {
      return;
    }
    String problem = null;
    List<SignatureShare> shares = new ArrayList<>(cs.shares().size());
    if (!Arrays.equals(cs.digest(), t.digest)) {
      problem = "coin shares for seq " + seq + " on a batch that did not commit there";
    } else if (cs.shares().size() != t.requests.length) {
      problem = "coin shares for seq " + seq + " do not cover its randomized requests";
    } else {
      for (int j = 0; j < t.requests.length && problem == null; j++) {
        CoinShare.Entry e = cs.shares().get(j);
        if (e.request() != t.requests[j]) {
          problem = "coin share for seq " + seq + " request " + e.request() + ", which needs none";
          break;
        }
        try {
          SignatureShare share = SignatureShare.decode(e.share());
          if (share.scheme() != t.c.scheme().id() || share.index() != sender + 1) {
            problem = "coin share for seq " + seq + " with key index " + share.index() + " of " + share.scheme().label();
          }
          shares.add(share);
        } catch (IllegalArgumentException ex) {
          problem = "malformed coin share for seq " + seq + ": " + ex.getMessage();
        }
      }
    }
    if (problem != null) {
      tosses.drop(t, sender, problem);
      return;
    }
    t.heard.add(sender);
    for (int j = 0; j < t.requests.length; j++) {
      if (t.candidates.get(j) != null) {
        t.candidates.get(j).put(sender, shares.get(j));
      }
    }
  }

  /**
   * Shares-combination step for every coin of the toss with k candidates; on a failed combination the bad
   * shares' senders are named in evidence and dropped from all coins of this seq, and it is tried again.
   *
   * @return whether the last missing coin of the toss became known
   */
  private boolean combine(Toss t, long seq) {
    if (t.missing == 0) {
      return false;
    }
    CoinConfig c = t.c;
    int k = c.group().params().k();
    for (int j = 0; j < t.requests.length; j++) {
      Map<Integer, SignatureShare> cand = t.candidates.get(j);
      while (cand != null && cand.size() >= k) {
        try {
          GroupValue v = c.scheme().combine(c.group(), t.messages[j], cand.values());
          t.coins[j] = c.scheme().coinValue(v);
          t.values[j] = v;
          t.candidates.set(j, null);
          cand = null;
          t.missing--;
        } catch (InvalidSharesException e) {
          if (e.badIndices().isEmpty()) {
            throw new IllegalStateException("combination failed without a bad share", e);
          }
          for (int index : e.badIndices()) {
            tosses.drop(t, index - 1, "invalid coin share for seq " + seq + (t.requests[j] == CoinShare.BATCH ? ""
                : " request " + t.requests[j]));
          }
        } catch (ThresholdException e) {
          // Candidates are keyed by sender with index = sender + 1 checked: duplicates and too few cannot be.
          throw new IllegalStateException("coin bookkeeping broken at seq " + seq, e);
        }
      }
    }
    return t.missing == 0;
  }

  // ---------------------------------------------------------------- execution

  /** Whether every randomized request of the final batch at seq has its random number. */
  public boolean ready(long seq, List<Signed> batch) {
    if (keys.isDeferred(seq)) {
      return randomizedIndices(batch).length == 0;
    }
    if (keys.at(seq) == null) {
      return true;
    }
    Toss t = tosses.get(seq);
    if (t == null || t.digest == null) {
      return randomizedIndices(batch).length == 0;
    }
    return t.missing == 0;
  }

  /** The random number of request {@code index} of the final batch at seq (empty if not randomized). */
  public byte[] random(long seq, int index) {
    Toss t = tosses.get(seq);
    if (t == null || t.digest == null) {
      return new byte[0];
    }
    if (perBatch) {
      return operations.isRandomized(Request.decode(t.batch.get(index).body()))
          ? CoinConfig.perBatchRandom(t.coins[0], t.batch.get(index).body()) : new byte[0];
    }
    int j = Arrays.binarySearch(t.requests, index);
    return j >= 0 ? t.coins[j].clone() : new byte[0];
  }

  /**
   * The signed message and combined value of the random number of request {@code index} of the final batch
   * at seq, for third parties to check; {@link CoinProof#NONE} if the request is not randomized, and with
   * one coin per batch, whose value is not the request's number.
   */
  public CoinProof proof(long seq, int index) {
    Toss t = tosses.get(seq);
    if (t == null || t.digest == null || perBatch) {
      return CoinProof.NONE;
    }
    int j = Arrays.binarySearch(t.requests, index);
    return j >= 0 ? new CoinProof(t.messages[j], t.values[j]) : CoinProof.NONE;
  }

  // ---------------------------------------------------------------- retransmission and memory

  /**
   * Stalled path of {@code pbft.Replica#tick}: resend our shares for committed batches we have not executed —
   * we may be waiting for their coins, and peers that hold theirs answer with them.
   */
  public void retransmit() {
    tosses.retransmit();
  }

  /** The checkpoint at seq became stable: nothing at or below it needs a coin any more. */
  public void discardUpTo(long seq) {
    tosses.discardUpTo(seq);
    keys.discardUpTo(seq);
  }

  /** For tests and traces: sequence numbers with coin state (bounded by the log window). */
  public int size() {
    return tosses.size();
  }

  /** For tests and traces: coins still missing at seq (-1 if nothing is tossed there). */
  public int missing(long seq) {
    return tosses.missing(seq);
  }

  private void evidence(int node, String what) {
    tosses.evidence(node, what);
  }
}
