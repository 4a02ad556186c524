package org.bftws.core.dkg;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;

/**
 * One replica's proactive refresh of the group's coin and TDH2 keys over the group's own ordering
 * (Herzberg, Jarecki, Krawczyk, Yung, "Proactive secret sharing", CRYPTO 1995, §3 share renewal): two runs of
 * {@link Dkg} in mode REFRESH side by side, every replica dealing a Feldman sharing of 0; the group keys stay,
 * every share and verification key changes, and old shares do not combine with new ones. Pure, as {@link
 * GroupDkg}: the embedding submits {@link Step#toOrder} for ordering and delivers every ordered operation, in
 * the agreed order, with the replica the ordering authenticated as its submitter.
 *
 * <p>Operation format: {@link #MAGIC} ‖ tag (1 = vote to start, 2 = coin refresh message, 3 = TDH2 refresh
 * message, 4 = ask for share recovery) ‖ u32 epoch ‖ body. Epoch e is the e-th refresh (or recovery) of the keys
 * the group generated (epoch 0).
 *
 * <p><b>Share recovery.</b> A replica that holds no share of the current epoch (it was down during a refresh, or
 * caught up past one by state transfer) asks with {@link #recover()}; where its ask is ordered, every replica
 * starts a redistribution of the current keys to the same members (Desmedt and Jajodia 1997, as {@link
 * DkgConfig.Mode#RESHARE}): each replica holding a share deals a Feldman sharing of it, encrypted share by share
 * to each member's individual key; complaints and justifications settle a qualified set as in the generation; each
 * member's new share is the Lagrange combination of the qualified dealers' sub-shares, checked against the
 * commitments, whose constant terms are the current verification keys. It gives what HJKY §4's share recovery
 * gives (the lost share, learned from at least f+1 others and checked against the epoch's verification keys,
 * without any one of them learning it), and renews every other share too, so it ends an epoch like a refresh.
 * The recovering replica needs the current group keys (verification keys), not a share: it deals nothing.
 * A replica's ask starts a recovery at most once between two refreshes started by votes, so up to f faulty
 * replicas start at most f recoveries per refresh.
 *
 * <p><b>Bound.</b> A refresh of epoch e starts at the point of the sequence where votes for e from f+1
 * distinct replicas are ordered: at least one of them is correct and was asked (an operator's command, or its
 * every-N-checkpoints trigger), so up to f faulty replicas can never start one, however many votes they submit.
 * One refresh runs at a time; a vote counts only for the next epoch, once per replica; everything else is
 * ignored. So the refreshes are at most as many as correct replicas asked for, each costing one HJKY run.
 */
public final class GroupRefresh {
  /** The first bytes of every operation of a refresh (reserved, like {@link GroupDkg#MAGIC}). */
  public static final byte[] MAGIC = "BFTWS-REFRESH-1".getBytes(StandardCharsets.US_ASCII);
  private static final int VOTE = 1;
  private static final int COIN = 2;
  private static final int TDH2 = 3;
  private static final int RECOVER = 4;
  /**
   * Operations of one replica a run takes at most: a correct one submits at most two per key (its dealing, then
   * its complaints or a justification or an opening), so eight leave room; beyond them a faulty replica's
   * operations are dropped alike everywhere, which bounds what a checkpoint carries of a running run.
   */
  public static final int MAX_RUN_OPERATIONS = 8;

  /** The renewed keys: the same group keys with new verification keys, this replica's new shares (null: none). */
  public record Output(GroupKeys group, ReplicaKeys keys, long epoch) {}

  /** The operations to submit, whether the refresh started at this operation, its output once, misbehaviour. */
  public record Step(List<byte[]> toOrder, boolean started, Output output, List<String> faults) {}

  private final GroupMembers members;
  private final ReplicaIdentity me;
  private final SecureRandom random;
  private GroupKeys current;
  private ReplicaKeys mine;
  private long epoch;
  private final Set<Integer> votes = new TreeSet<>();
  /** The replicas whose asks started a recovery since the last refresh started by votes (at most n). */
  private final Set<Integer> recovered = new TreeSet<>();
  /** Whether the running run is a recovery (a redistribution) rather than a refresh. */
  private boolean recovery;
  /** The running refresh's two runs; null when none runs. */
  private KeyRuns runs;
  /** The running run's operations taken so far, in the agreed order (for checkpoints; at most n × the bound). */
  private final List<RefreshCheckpoint.Logged> log = new ArrayList<>();
  private List<byte[]> out;
  private List<String> faults;
  private boolean started;
  private Output output;

  /**
   * {@code current}: the group's keys of epoch {@code epoch}; {@code mine}: this replica's shares of them (null
   * if it holds none: it then deals nothing and gets no new share).
   */
  public GroupRefresh(GroupMembers members, ReplicaIdentity me, GroupKeys current, ReplicaKeys mine, long epoch,
      SecureRandom random) {
    this.members = members;
    this.me = me;
    this.current = current;
    this.mine = mine;
    this.epoch = epoch;
    this.random = random;
  }

  /** Whether {@code operation} is one of a refresh's (a client must never get one ordered). */
  public static boolean isRefreshOperation(byte[] operation) {
    return ReservedOperations.is(MAGIC, operation);
  }

  /** The epoch of the keys in use. */
  public long epoch() {
    return epoch;
  }

  public boolean running() {
    return runs != null;
  }

  /** Whether the running run is a share recovery (a redistribution), not a refresh started by votes. */
  public boolean recovering() {
    return running() && recovery;
  }

  /** This replica asks for the next refresh: its vote, to submit (nothing while one runs). */
  public Step request() {
    begin();
    if (!running()) {
      out.add(ReservedOperations.encode(MAGIC, VOTE, epochBytes(epoch + 1)));
    }
    return end();
  }

  /**
   * This replica, holding no share of the current epoch, asks the others for its share: the ask, to submit
   * (nothing while a refresh or recovery runs: it asks again once that ended).
   */
  public Step recover() {
    begin();
    if (!running()) {
      out.add(ReservedOperations.encode(MAGIC, RECOVER, epochBytes(epoch + 1)));
    }
    return end();
  }

  /** Whether this replica holds a share of the current epoch's keys. */
  public boolean holdsShare() {
    return mine != null;
  }

  /** The next ordered operation of a refresh, submitted by replica {@code submitter} (1..n). */
  public Step deliver(int submitter, byte[] operation) {
    begin();
    ReservedOperations.guarded(submitter, "refresh", () -> take(submitter, operation), faults);
    return end();
  }

  private void take(int submitter, byte[] operation) {
    if (!isRefreshOperation(operation) || operation.length > GroupDkg.MAX_OPERATION_BYTES
        || operation.length < MAGIC.length + 5) {
      throw new IllegalArgumentException("not a refresh operation of at most " + GroupDkg.MAX_OPERATION_BYTES
          + " bytes");
    }
    int tag = operation[MAGIC.length];
    Codec.Reader r = new Codec.Reader(Arrays.copyOfRange(operation, MAGIC.length + 1, MAGIC.length + 5));
    long e = Integer.toUnsignedLong(r.u32());
    byte[] body = Arrays.copyOfRange(operation, MAGIC.length + 5, operation.length);
    if (e != epoch + 1) {
      return; // a late message of a finished refresh, or a vote for a later one: changes nothing
    }
    if (tag == VOTE) {
      vote(submitter);
      return;
    }
    if (tag == RECOVER) {
      ask(submitter);
      return;
    }
    if (tag != COIN && tag != TDH2) {
      throw new IllegalArgumentException("unknown tag " + tag);
    }
    if (!running()) {
      faults.add("replica " + submitter + " sent refresh " + e + "'s messages before it started: ignored");
      return;
    }
    if (log.stream().filter(l -> l.submitter() == submitter).count() >= MAX_RUN_OPERATIONS) {
      faults.add("replica " + submitter + " sent more than " + MAX_RUN_OPERATIONS + " operations in refresh " + e
          + ": ignored");
      return;
    }
    log.add(new RefreshCheckpoint.Logged(submitter, operation));
    Dkg.Step s = runs.deliver(submitter, tag == COIN, body, faults);
    if (s != null) {
      wrap(tag, s);
      if (s.output() != null && runs.done()) {
        finish();
      }
    }
  }

  private void vote(int submitter) {
    if (running() || submitter < 1 || submitter > members.n() || !votes.add(submitter)) {
      return;
    }
    if (votes.size() == members.f() + 1) {
      // f+1 replicas asked for this epoch: at least one correct one did. Everyone starts here, in the sequence.
      startRuns(DkgConfig.Mode.REFRESH, true);
    }
  }

  private void ask(int submitter) {
    if (running() || submitter < 1 || submitter > members.n() || !recovered.add(submitter)) {
      return; // one recovery per replica between two voted refreshes: its ask again starts nothing
    }
    startRuns(DkgConfig.Mode.RESHARE, true);
  }

  /**
   * Starts the coin's and the TDH2 key's runs. {@code deals}: this replica deals from its share (a run it
   * resumes from a checkpoint it takes part in as a receiver only: the polynomial it dealt before it stopped is
   * gone, and one drawn afresh would not match its ordered commitments, so it could justify nothing with it).
   */
  private void startRuns(DkgConfig.Mode mode, boolean deals) {
    recovery = mode == DkgConfig.Mode.RESHARE;
    log.clear();
    runs = new KeyRuns(Dkg.create(config(current.threshold(), mode), member(mine == null ? null : mine.share(), deals),
        random), Dkg.create(config(current.encryption(), mode), member(mine == null ? null : mine.decryption(), deals),
        random));
    started = true;
    wrap(COIN, runs.startCoin());
    wrap(TDH2, runs.startTdh2());
  }

  private void finish() {
    GroupKeys renewed = runs.group(members);
    ReplicaKeys keys = runs.keys(me);
    if (keys == null) {
      faults.add("no renewed share of its own from " + (recovery ? "recovery " : "refresh ") + (epoch + 1)
          + ": this replica needs its share recovered");
    }
    epoch++;
    current = renewed;
    mine = keys;
    output = new Output(renewed, keys, epoch);
    runs = null;
    log.clear();
    votes.clear();
    if (!recovery) {
      recovered.clear();
    }
  }

  /** What this replica decided from the agreed sequence so far, for the group's checkpoints. */
  public RefreshCheckpoint checkpoint() {
    RefreshCheckpoint.Run run = !running() ? RefreshCheckpoint.Run.NONE
        : recovery ? RefreshCheckpoint.Run.RECOVERY : RefreshCheckpoint.Run.REFRESH;
    return new RefreshCheckpoint(epoch, current, List.copyOf(votes), List.copyOf(recovered), run, log);
  }

  /**
   * The refresh of a replica that installed checkpoint {@code c} (state transfer, or its journal at restart):
   * its epoch, keys, votes and asks, and a running run followed from its operations so far. {@code mine}: this
   * replica's shares of epoch {@code c.epoch()}'s keys (null if it holds none: a replica behind, which then asks
   * {@link #recover()}). Replaying the run's operations computes what they computed at the others; what this
   * replica would submit in answer is dropped (it submitted it before, or was absent: the run decides by counts
   * on the agreed sequence either way), so it justifies nothing of a dealing it dealt before it stopped.
   */
  public static GroupRefresh resume(GroupMembers members, ReplicaIdentity me, RefreshCheckpoint c, ReplicaKeys mine,
      SecureRandom random) {
    GroupRefresh g = new GroupRefresh(members, me, c.current(), mine, c.epoch(), random);
    g.votes.addAll(c.votes());
    g.recovered.addAll(c.recovered());
    g.begin();
    if (c.run() != RefreshCheckpoint.Run.NONE) {
      g.startRuns(c.run() == RefreshCheckpoint.Run.RECOVERY ? DkgConfig.Mode.RESHARE : DkgConfig.Mode.REFRESH, false);
      for (RefreshCheckpoint.Logged l : c.log()) {
        g.deliver(l.submitter(), l.operation());
      }
    }
    g.end();
    return g;
  }

  private DkgConfig config(GroupKey key, DkgConfig.Mode mode) {
    byte[] session = session(members, key, epoch + 1);
    if (mode == DkgConfig.Mode.RESHARE) { // a recovery's run is never confused with a refresh's of the same epoch
      session = Digests.sha256(new Codec.Writer().bytes("BFTWS-DKG-recover-v1".getBytes(StandardCharsets.US_ASCII))
          .bytes(session).toByteArray());
    }
    return new DkgConfig(mode, key.scheme(), session, members.params(), members.params(), members.encryptionKeys(),
        key);
  }

  private Dkg.Member member(KeyShare share, boolean deals) {
    return new Dkg.Member(share == null || !deals ? 0 : me.index(), me.index(), me.encryptionSecret(), share);
  }

  /** The session id of refresh {@code epoch} of {@code key}: bound into every encryption and proof of that run. */
  static byte[] session(GroupMembers members, GroupKey key, long epoch) {
    byte[] generation = GroupDkg.session(members, key.scheme() == SchemeId.TDH2 ? SchemeId.TDH2 : members.scheme());
    return Digests.sha256(new Codec.Writer().bytes("BFTWS-DKG-refresh-v1".getBytes(StandardCharsets.US_ASCII))
        .bytes(generation).u32((int) epoch).toByteArray());
  }

  private void begin() {
    out = new ArrayList<>();
    faults = new ArrayList<>();
    started = false;
  }

  private Step end() {
    Step s = new Step(List.copyOf(out), started, output, List.copyOf(faults));
    output = null;
    return s;
  }

  private void wrap(int tag, Dkg.Step s) {
    ReservedOperations.wrap(MAGIC, tag, epochBytes(epoch + 1), s, out);
  }

  private static byte[] epochBytes(long epoch) {
    return new Codec.Writer().u32((int) epoch).toByteArray();
  }
}
