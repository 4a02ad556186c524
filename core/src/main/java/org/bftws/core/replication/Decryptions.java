package org.bftws.core.replication;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.threshold.InvalidCiphertextException;
import org.bftws.core.crypto.threshold.InvalidSharesException;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.DecryptionShares;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;

/**
 * Secure causal atomic broadcast (SINTRA §2.6) on top of either ordering engine: a confidential request is
 * ordered as its TDH2 ciphertext, and "whenever the channel delivers a ciphertext, all parties release and
 * exchange a decryption share ... after obtaining a quorum of decryption shares, the cleartext payload message
 * is recovered and delivered". PBFT's {@code pbft.Replica} calls {@link #committed} when a batch commits locally,
 * the asynchronous {@code async.AsyncReplica} when the channel delivers a round; both then execute a batch
 * only once {@link #ready}, with each request {@link #opened}.
 *
 * <p>For each confidential request of the final batch at seq this replica checks the ciphertext — well-formed,
 * labelled for this request ({@link ConfidentialConfig#label}), validity proof holding — and releases its
 * decryption share only for a valid one, multicasting them in one {@link Kind#DECRYPTION_SHARE}. The check is
 * a function of the ordered bytes alone, so every correct replica finds the same ciphertexts invalid: those
 * are skipped at execution everywhere (evidence against the client) and never wait for shares, so an invalid
 * ciphertext that a Byzantine primary ordered neither executes nor blocks the order. With k shares from
 * distinct replicas a ciphertext is combined, each share verified against the group's verification keys; a
 * bad share names its sender in evidence, who is dropped for the whole seq. A valid ciphertext whose payload
 * does not open under the group's key (a Byzantine client's) opens nowhere, alike: skipped too.
 *
 * <p>Shares are released only once the order is final, never before: no f colluding replicas learn a request
 * before its position is fixed, which stops front-running. The state is kept per sequence number (a view
 * change commits the same batch again: our shares are sent again), bounded by the log window, and dropped at
 * the stable checkpoint, and retransmitted, as {@link Coins}' are ({@link ShareRounds}).
 */
public final class Decryptions {
  /** What the engine provides. */
  public interface Host extends ShareRounds.Host {
    /** Every confidential request of a batch opened or was refused: execution may go on. */
    void decrypted();
  }

  private final GroupConfig cfg;
  private final int id;
  private final Signer signer;
  private final Host host;
  /** Null: no request is confidential. */
  private ConfidentialOperations operations;
  /** The TDH2 keys per seq ({@link KeyEpochs}); none serving a seq: its confidential requests stay sealed. */
  private KeyEpochs<ConfidentialConfig> keys = new KeyEpochs<>(null, false);
  private final ShareRounds<Opening> openings;

  /**
   * The confidential requests of one sequence number: {@code requests} holds their batch positions, and per
   * request its client, its ciphertext (null if refused) and its plaintext once opened.
   */
  private static final class Opening extends ShareRounds.Round {
    int[] clients;
    /** The keys this seq's ciphertexts are opened with. */
    ConfidentialConfig c;
    Tdh2Ciphertext[] ciphertexts;
    byte[][] plaintexts;
  }

  public Decryptions(GroupConfig cfg, int id, Signer signer, Host host) {
    this.cfg = cfg;
    this.id = id;
    this.signer = signer;
    this.host = host;
    this.openings = new ShareRounds<>(cfg, host, Opening::new);
  }

  /** This replica's TDH2 material and the group's confidential operations; before the first step. */
  public void declare(ConfidentialConfig config) {
    declare(config, false);
  }

  /** As {@link #declare(ConfidentialConfig)}; with {@code changing}, later keys may be {@link #install}ed. */
  public void declare(ConfidentialConfig config, boolean changing) {
    check(config);
    this.operations = config.operations();
    this.keys = new KeyEpochs<>(config, changing);
  }

  /**
   * Keys that change while the group runs: {@code operations} are the group's confidential requests, opened
   * with {@code initial} (null: none yet) until other keys are {@link #install}ed; before the first step,
   * instead of {@link #declare}.
   */
  public void declareChanging(ConfidentialOperations operations, ConfidentialConfig initial) {
    this.operations = operations;
    this.keys = new KeyEpochs<>(initial, true);
  }

  /** The TDH2 keys serving every seq above {@code afterSeq} (the seq their outcome was ordered at). */
  public void install(long afterSeq, ConfidentialConfig config) {
    check(config);
    keys.install(afterSeq, config);
  }

  /** The TDH2 key is the group's (n, t) and the share this replica's (index id + 1). */
  private void check(ConfidentialConfig config) {
    if (config.key().params().n() != cfg.n() || config.key().params().t() != cfg.f()) {
      throw new IllegalArgumentException("TDH2 key for (n, t) = (" + config.key().params().n() + ", "
          + config.key().params().t() + "), the group has (" + cfg.n() + ", " + cfg.f() + ")");
    }
    if (config.share().index() != id + 1) {
      throw new IllegalArgumentException("replica " + id + " needs TDH2 key share " + (id + 1) + ", got "
          + config.share().index());
    }
  }

  /** The keys per seq, for {@link ShareRelease}. */
  KeyEpochs<?> epochs() {
    return keys;
  }

  /** A deferred batch now free to release its shares under the keys that serve it ({@link ShareRelease}). */
  void release(KeyEpochs.Deferred d) {
    if (d != null) {
      open(d.seq(), d.digest(), d.batch());
    }
  }

  // ---------------------------------------------------------------- admission and checks

  /**
   * Why a client's request must not be ordered (its ciphertext is malformed, labelled for another request or
   * fails its validity proof); null if it may. A correct primary never proposes such a request.
   */
  public String refusal(Request q) {
    ConfidentialConfig c = keys.latest();
    byte[] bytes = c == null ? null : operations.ciphertext(q);
    return bytes == null ? null : ConfidentialConfig.check(c.groupId(), q, bytes).problem();
  }

  // ---------------------------------------------------------------- share release

  /** The batch with {@code digest} is final at seq here (committed, again after a view change; or delivered). */
  public void committed(long seq, byte[] digest, List<Signed> batch) {
    if (operations == null) {
      return;
    }
    if (openings.finalAgain(openings.get(seq)) || keys.defer(seq, digest, batch)) {
      return;
    }
    open(seq, digest, batch);
  }

  private void open(long seq, byte[] digest, List<Signed> batch) {
    int[] confidential = confidentialIndices(batch);
    if (confidential.length == 0) {
      openings.unneeded(seq, "decryption shares for seq " + seq + ", whose batch has no confidential request");
      return;
    }
    ConfidentialConfig c = keys.at(seq);
    if (c == null) {
      // no TDH2 key serves seq: its confidential requests execute sealed, and the embedding refuses them
      openings.unneeded(seq, "decryption shares for seq " + seq + ", which no TDH2 key serves");
      return;
    }
    Opening o = openings.open(seq);
    o.c = c;
    start(o, seq, digest, batch, confidential);
    openings.takeEarly(o, (sender, msg) -> take(o, seq, sender, DecryptionShares.decode(msg.body())));
    combine(o, seq);
  }

  private void start(Opening o, long seq, byte[] digest, List<Signed> batch, int[] confidential) {
    o.digest = digest;
    o.requests = confidential;
    o.clients = new int[confidential.length];
    o.ciphertexts = new Tdh2Ciphertext[confidential.length];
    o.plaintexts = new byte[confidential.length][];
    o.candidates = new ArrayList<>(confidential.length);
    List<CoinShare.Entry> entries = new ArrayList<>();
    for (int j = 0; j < confidential.length; j++) {
      Request q = Request.decode(batch.get(confidential[j]).body());
      o.clients[j] = q.client();
      ConfidentialConfig.Check check = ConfidentialConfig.check(o.c.groupId(), q, operations.ciphertext(q));
      if (check.problem() != null) {
        evidence(q.client(), check.problem() + ", ordered at seq " + seq + ": not executed");
        o.candidates.add(null);
        continue;
      }
      o.ciphertexts[j] = check.ciphertext();
      SignatureShare mine = ownShare(o.c, check.ciphertext());
      Map<Integer, SignatureShare> cand = new LinkedHashMap<>();
      cand.put(id, mine);
      o.candidates.add(cand);
      entries.add(new CoinShare.Entry(confidential[j], mine.encode()));
      o.missing++;
    }
    if (!entries.isEmpty()) { // else every ciphertext was refused: nothing to share
      openings.release(o, id, Signed.sign(Kind.DECRYPTION_SHARE, id,
          new DecryptionShares(seq, digest, entries).encode(), signer));
    }
  }

  private static SignatureShare ownShare(ConfidentialConfig c, Tdh2Ciphertext ct) {
    try {
      return ConfidentialConfig.TDH2.share(c.key(), c.share(), ct);
    } catch (InvalidCiphertextException e) {
      throw new IllegalStateException("a ciphertext found valid was refused", e);
    }
  }

  private int[] confidentialIndices(List<Signed> batch) {
    int[] out = new int[batch.size()];
    int count = 0;
    for (int i = 0; i < batch.size(); i++) {
      if (operations.ciphertext(Request.decode(batch.get(i).body())) != null) {
        out[count++] = i;
      }
    }
    return Arrays.copyOf(out, count);
  }

  // ---------------------------------------------------------------- shares from peers

  /** An authentic DECRYPTION-SHARE from a peer (the caller checked sender and signature). */
  public void onShare(Signed s) {
    DecryptionShares ds = DecryptionShares.decode(s.body());
    if (operations == null || (!keys.changing() && keys.latest() == null)) {
      evidence(s.sender(), "decryption shares, but this group has no confidential requests");
      return;
    }
    Opening o = openings.admit(s, ds.seq(), ds.shares().size(), "decryption shares");
    if (o == null) {
      return;
    }
    take(o, ds.seq(), s.sender(), ds);
    if (combine(o, ds.seq())) {
      host.decrypted();
    }
  }

  /** Checks the form of one sender's shares (one per valid ciphertext, in order) and adds them as candidates. */
  private void take(Opening o, long seq, int sender, DecryptionShares ds) {
    if (!ShareRounds.untaken(o, sender)) {
      return;
    }
    String problem = null;
    List<SignatureShare> shares = new ArrayList<>();
    if (!Arrays.equals(ds.digest(), o.digest)) {
      problem = "decryption shares for seq " + seq + " on a batch that is not final there";
    } else {
      int e = 0;
      for (int j = 0; j < o.requests.length && problem == null; j++) {
        if (o.ciphertexts[j] == null) {
          continue;
        }
        if (e >= ds.shares().size() || ds.shares().get(e).request() != o.requests[j]) {
          problem = "decryption shares for seq " + seq + " do not cover its valid confidential requests";
          break;
        }
        try {
          SignatureShare share = SignatureShare.decode(ds.shares().get(e++).share());
          if (share.scheme() != SchemeId.TDH2 || share.index() != sender + 1) {
            problem = "decryption share for seq " + seq + " with key index " + share.index() + " of "
                + share.scheme().label();
          }
          shares.add(share);
        } catch (IllegalArgumentException ex) {
          problem = "malformed decryption share for seq " + seq + ": " + ex.getMessage();
        }
      }
      if (problem == null && e != ds.shares().size()) {
        problem = "decryption shares for seq " + seq + " for requests that need none";
      }
    }
    if (problem != null) {
      openings.drop(o, sender, problem);
      return;
    }
    o.heard.add(sender);
    int e = 0;
    for (int j = 0; j < o.requests.length; j++) {
      if (o.ciphertexts[j] != null) {
        SignatureShare share = shares.get(e++);
        if (o.candidates.get(j) != null) {
          o.candidates.get(j).put(sender, share);
        }
      }
    }
  }

  /**
   * Combines every ciphertext of the seq with k candidates; bad shares name their senders, who are dropped
   * from the whole seq, and it is tried again.
   *
   * @return whether the last ciphertext of the seq opened (or was refused)
   */
  private boolean combine(Opening o, long seq) {
    if (o.missing == 0) {
      return false;
    }
    ConfidentialConfig c = o.c;
    int k = c.key().params().k();
    for (int j = 0; j < o.requests.length; j++) {
      Map<Integer, SignatureShare> cand = o.candidates.get(j);
      while (cand != null && cand.size() >= k) {
        try {
          o.plaintexts[j] = ConfidentialConfig.TDH2.combine(c.key(), o.ciphertexts[j], cand.values());
          cand = resolved(o, j);
        } catch (InvalidSharesException e) {
          for (int index : e.badIndices()) {
            openings.drop(o, index - 1, "invalid decryption share for seq " + seq + " request " + o.requests[j]);
          }
        } catch (InvalidCiphertextException e) {
          evidence(o.clients[j], "confidential request " + o.requests[j] + " at seq " + seq + " does not open"
              + " under the group's key: not executed");
          cand = resolved(o, j);
        } catch (ThresholdException e) {
          throw new IllegalStateException("decryption bookkeeping broken at seq " + seq, e);
        }
      }
    }
    return o.missing == 0;
  }

  private static Map<Integer, SignatureShare> resolved(Opening o, int j) {
    o.candidates.set(j, null);
    o.missing--;
    return null;
  }

  // ---------------------------------------------------------------- execution

  /** Whether every confidential request of the final batch at seq opened or was refused. */
  public boolean ready(long seq, List<Signed> batch) {
    if (operations == null) {
      return true;
    }
    if (keys.isDeferred(seq)) {
      return confidentialIndices(batch).length == 0;
    }
    if (keys.at(seq) == null) {
      return true;
    }
    Opening o = openings.get(seq);
    if (o == null || o.digest == null) {
      return confidentialIndices(batch).length == 0;
    }
    return o.missing == 0;
  }

  /**
   * Request {@code index} of the final batch at seq as it executes: itself if not confidential, its opened
   * form, or null if its ciphertext was refused or did not open (skipped alike at every correct replica).
   */
  public Request opened(long seq, int index, Request r) {
    if (operations == null || keys.at(seq) == null || operations.ciphertext(r) == null) {
      return r;
    }
    Opening o = openings.get(seq);
    int j = o == null ? -1 : Arrays.binarySearch(o.requests, index);
    if (j < 0 || o.plaintexts[j] == null) {
      return null;
    }
    return operations.opened(r, o.plaintexts[j]);
  }

  // ---------------------------------------------------------------- retransmission and memory

  /** Stalled: resend our shares for final batches not executed; peers that hold theirs answer. */
  public void retransmit() {
    openings.retransmit();
  }

  /** The checkpoint at seq became stable: nothing at or below it needs opening. */
  public void discardUpTo(long seq) {
    openings.discardUpTo(seq);
    keys.discardUpTo(seq);
  }

  /** For tests and traces: ciphertexts still waiting at seq (-1 if nothing is opened there). */
  public int missing(long seq) {
    return openings.missing(seq);
  }

  private void evidence(int node, String what) {
    openings.evidence(node, what);
  }
}
