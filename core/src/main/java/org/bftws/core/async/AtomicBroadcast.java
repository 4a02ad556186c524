package org.bftws.core.async;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.async.AbcBatch;
import org.bftws.core.message.async.AbcDecided;
import org.bftws.core.message.async.AbcFetchBatch;
import org.bftws.core.message.async.AbcFetchDecided;
import org.bftws.core.message.async.AbcProposal;

/**
 * The atomic broadcast channel (SINTRA §2.5; Cachin-Kursawe-Petzold-Shoup, CRYPTO 2001): all correct
 * parties deliver the same payloads in the same order. The parties proceed in global rounds 1, 2, …; in
 * round r each party
 * <ol>
 *   <li>multicasts its round proposal ({@link #PROPOSAL} on the round's instance {@code pid/r}): the
 *       payloads it holds, at most {@code maxBatch} of them, signed over {@code pid.bind("abc-batch", r ||
 *       digest)}; with nothing of its own it adopts the payloads of the proposal that made it join (SINTRA:
 *       "a party may also adopt a message that was first signed by another party and sign that");
 *   <li>on n−f proposals from distinct parties, at least one non-empty, proposes the vector of them to the
 *       round's multi-valued agreement ({@code pid/r/mvba}), whose external validity is exactly that: n−f
 *       proposals of round r properly signed by distinct parties, at least one non-empty, every payload of
 *       them valid ({@code validPayload}: for the replica, a well-formed client-signed request);
 *   <li>delivers the decided vector's payloads in a fixed order (party index, then position), each bit
 *       string once per round; duplicates across rounds are the layer above's business (SINTRA §2.5: the
 *       client table of the replica filters them).
 * </ol>
 * The vector names each proposal by (party, digest, the party's signature), not by its payloads: every
 * proposal was multicast already, so the vector's consistent broadcast no longer carries, signs and hashes
 * n−f batches again (HoneyBadgerBFT and Dumbo-NG disseminate a batch once in the same way). A party judges a
 * vector once it holds the proposals it names ({@link Validity.Verdict#NOT_YET} until then); those it lacks
 * it asks all for ({@link #FETCH_BATCH}: a correct sender of the vector holds them), and any holder answers
 * ({@link #BATCH_ANSWER}, the proposal as its party signed it). So every valid certificate of a vector has
 * f+1 correct signers that held its proposals, and a party that lacks some of a decided vector's proposals
 * fetches them likewise, or from the decided vectors its peers keep (below), before it delivers the round.
 * Batching grows with load: a round takes everything queued meanwhile, up to {@code maxBatch} per party.
 *
 * <p>Selection (HoneyBadgerBFT's idea, Miller et al., CCS 2016 §4.4, made deterministic): clients send
 * each request to every party, so if every party proposed its whole queue, each payload would sit in n−f
 * proposals of the decided vector and be broadcast, signed and checked n−f times over. Instead, in round r
 * a payload is <em>owned</em> by party (h + r) mod n, h from its digest, and a party proposes the payloads it
 * owns; the owner rotates, so a payload whose owner's proposal missed the vector of one round has another
 * owner in the next. Censorship resistance stays SINTRA's (§2.5 fairness, delayed by {@link #FAIR_ROUNDS}):
 * a payload queued here for {@code FAIR_ROUNDS} rounds without being delivered is <em>due</em>, and every
 * party puts the oldest of its due payloads, up to maxBatch / n, first in its proposal whoever owns them
 * (the scheduler can keep one owner's proposal out of every vector; it cannot keep out all of f+1 correct
 * parties' proposals, and a vector holds at least f+1 correct parties' proposals). The quota keeps an
 * overloaded group, where most payloads wait that long, from falling back to every party proposing the same
 * ones. The rest of the proposal is what this party owns, then more due payloads; a party that holds neither
 * proposes its oldest payloads (light load: the owner may be slow or faulty). The rules read only what this
 * party queued and delivered.
 *
 * <p>A round starts when the previous one decided and something is pending somewhere: this party holds a
 * payload it wants, or a proposal of the round arrived holding one. An idle group sends nothing, and
 * since every correct party's proposal is then non-empty and wanted, every correct party joins every round
 * that some correct party starts. "Wanted" ({@code wanted}) is evaluated only after the previous round was
 * delivered, so it may depend on the delivered prefix (the replica's client table) and is the same at all
 * correct parties. No timer takes part: progress is driven by messages alone.
 *
 * <p>The decided vector of a round may have to be fetched (its agreement decided a proposal this party
 * never received, {@link MultiValuedAgreement}), and the peers that hold it may have closed the round
 * already, so that the fetch of its broadcast finds nobody. The channel therefore keeps the decided vectors
 * of recent rounds (until {@link #forgetBelow}, at most {@link #KEPT_ROUNDS}) and answers, on the instance
 * {@code pid/decided}, a FETCH_DECIDED (round, digest) with the vector (DECIDED), which the asking party
 * accepts only if it hashes to the digest its agreement decided. The same holds for rounds as for the resend
 * log: a party further behind catches up by state transfer. So that it can without any timer, a fetch of a
 * round delivered here and forgotten since is reported ({@code askedForgotten}: the engine shows the peer
 * the checkpoint that settled it), and the engine reads {@link #fetchingRound} to start its own transfer.
 *
 * <p>Memory: a round's instances (its proposals, the agreement and its broadcasts and binary agreements)
 * are closed ({@link Router#closeBelow}) when the round delivers: a correct party that decided needs none of
 * their later messages, and those it sent already are what slower parties need (the binary agreements
 * relay their decision proofs). Nothing stays per round: the router remembers only the bound below which
 * the channel's rounds are closed. Messages of rounds this party has not reached wait in the router's
 * bounded per-sender buffer.
 */
public final class AtomicBroadcast {
  /**
   * The channel's messages, codes by position: on a round's instance PROPOSAL, FETCH_BATCH and BATCH_ANSWER,
   * on the decided-vector instance FETCH_DECIDED and DECIDED.
   */
  public enum Type implements AsyncKind {
    /** A party's signed batch for the round. */
    PROPOSAL,
    /** The decided vector of a round, asked of all by a party that cannot finish it. */
    FETCH_DECIDED,
    /** The answer: (round, vector, the proposals it names in its order). */
    DECIDED,
    /** On a round's instance: the proposals (party, digest) a vector names and this party lacks. */
    FETCH_BATCH,
    /** The answer: one signed round proposal (party, batch, signature). */
    BATCH_ANSWER
  }

  /** Rounds after which a queued payload is proposed by every party that holds it (class comment). */
  public static final int FAIR_ROUNDS = 2;
  /** Decided vectors kept for peers that fetch them, at most this many rounds (see the class comment). */
  public static final int KEPT_ROUNDS = 256;
  /** Purpose string of the round-proposal signature. */
  static final String BATCH = "abc-batch";

  /** A queued payload with the last round delivered when it was queued, and its owner offset h. */
  private record Queued(byte[] payload, long since, int h) {}

  /** One delivered round: its payloads in the channel's order and the digest of the decided vector. */
  public record Delivery(long round, byte[] digest, List<byte[]> payloads) {}

  /** A party's signed round proposal, with its encoding and that encoding's digest (what it signs). */
  record SignedBatch(int party, List<byte[]> payloads, byte[] batchBytes, byte[] digest, byte[] signature) {
    SignedBatch(int party, List<byte[]> payloads, byte[] batchBytes, byte[] signature) {
      this(party, payloads, batchBytes, Digests.sha256(batchBytes), signature);
    }

    ByteBuffer key() {
      return batchKey(party, digest);
    }
  }

  /** An entry of the agreement's vector: a party's round proposal by digest, with the party's signature. */
  record Entry(int party, byte[] digest, byte[] signature) {
    ByteBuffer key() {
      return batchKey(party, digest);
    }
  }

  /** A round's decided vector, kept for peers that fetch it: the vector and its proposals, in its order. */
  private record Kept(byte[] vector, byte[] digest, List<byte[]> batches) {}

  private final Context ctx;
  private final Pid pid;
  private final int maxBatch;
  private final Predicate<byte[]> validPayload;
  private final Predicate<byte[]> wanted;
  private final Consumer<Delivery> deliver;
  /** Told of a peer that fetched a decided vector this party delivered and no longer keeps (class comment). */
  private final IntConsumer askedForgotten;
  /** Payloads to order, by digest, oldest first. */
  private final LinkedHashMap<ByteBuffer, Queued> queue = new LinkedHashMap<>();
  /** The decided vectors of recent rounds with their proposals, by round, for peers that fetch them. */
  private final TreeMap<Long, Kept> decidedVectors = new TreeMap<>();
  private final Decided decidedInstance;
  private Round current;
  private long delivered;
  private long roundsRun;
  private long payloadsDelivered;

  /**
   * The channel {@code pid} (e.g. {@code Pid.root("abc")}); registers round 1's instance. All predicates
   * must be deterministic; {@code validPayload} the same at every correct party, {@code wanted} the same at
   * every correct party that delivered the same rounds.
   */
  public AtomicBroadcast(Context ctx, Pid pid, int maxBatch, Predicate<byte[]> validPayload,
      Predicate<byte[]> wanted, Consumer<Delivery> deliver) {
    this(ctx, pid, maxBatch, validPayload, wanted, deliver, peer -> { });
  }

  /**
   * With {@code askedForgotten}, told of a peer that fetched the decided vector of a round this party
   * delivered and has forgotten since (a checkpoint settled it): the peer is to learn that checkpoint.
   */
  public AtomicBroadcast(Context ctx, Pid pid, int maxBatch, Predicate<byte[]> validPayload,
      Predicate<byte[]> wanted, Consumer<Delivery> deliver, IntConsumer askedForgotten) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("batch size " + maxBatch);
    }
    this.ctx = ctx;
    this.pid = pid;
    this.maxBatch = maxBatch;
    this.validPayload = validPayload;
    this.wanted = wanted;
    this.deliver = deliver;
    this.askedForgotten = askedForgotten;
    this.decidedInstance = ctx.router().register(new Decided());
    this.current = ctx.router().register(new Round(1));
  }

  /** SINTRA §2.5 {@code send}: queues a payload (once per bit string) and starts a round if idle. */
  public void send(byte[] payload) {
    ByteBuffer k = key(payload);
    queue.putIfAbsent(k, new Queued(payload, delivered, k.getInt(0)));
    current.maybeStart(null);
  }

  /**
   * State transfer: the rounds up to {@code round} are settled by a proven checkpoint that was installed
   * instead of delivered here. Their instances close, as delivered rounds' do, and round + 1 begins (this
   * party joins it as it joins any round). Not in SINTRA, whose channel has no checkpoints.
   */
  public void skipTo(long round) {
    if (round <= delivered) {
      throw new IllegalStateException("skip to round " + round + ", delivered " + delivered + " already");
    }
    delivered = round;
    decidedInstance.delivered(round);
    ctx.router().closeBelow(pid, round + 1);
    current = ctx.router().register(new Round(round + 1));
    current.maybeStart(null);
  }

  /** Forgets the decided vectors of the rounds below {@code round} (they are settled by a checkpoint). */
  public void forgetBelow(long round) {
    decidedVectors.headMap(round).clear();
  }

  /** The last round delivered here (0: none). */
  public long deliveredRound() {
    return delivered;
  }

  /**
   * The round whose decided vector this party is fetching (its agreement decided a proposal it does not
   * hold), or 0. Peers answer only for rounds they keep; below their stable checkpoint, state transfer must.
   */
  public long fetchingRound() {
    return current.fetchingDecision() ? current.number : 0;
  }

  /** Rounds this party took part in (sent a proposal). */
  public long roundsRun() {
    return roundsRun;
  }

  /** Payloads delivered (each bit string once per round). */
  public long payloadsDelivered() {
    return payloadsDelivered;
  }

  public int queued() {
    return queue.size();
  }

  /** The current round for diagnostics: its number, proposals held, and its agreement's state. */
  public String describeRound() {
    Round c = current;
    return "r" + c.number + " proposals=" + c.proposals.keySet() + " vector=" + c.proposedVector
        + (c.mvba == null ? " not joined" : " mvba=" + c.mvba.describe());
  }

  // ---------------------------------------------------------------- encoding

  /** The agreement's vector: (party, digest of its proposal, its signature) per proposal. */
  static byte[] encodeVector(List<SignedBatch> vector) {
    ByteWriter w = new ByteWriter(128 * vector.size() + 8).i32(vector.size());
    for (SignedBatch b : vector) {
      w.i32(b.party()).bytes(b.digest()).bytes(b.signature());
    }
    return w.toBytes();
  }

  private List<Entry> decodeVector(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    int count = r.count(ctx.n());
    List<Entry> vector = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int party = r.i32();
      byte[] digest = r.bytes();
      if (digest.length != Digests.LENGTH) {
        throw new DecodeException("proposal digest of " + digest.length + " bytes");
      }
      vector.add(new Entry(party, digest, r.bytes()));
    }
    r.end();
    return vector;
  }

  /** A signed proposal as it travels (PROPOSAL without the party, BATCH_ANSWER with it), its batch decoded. */
  private SignedBatch signedBatch(AbcProposal p) {
    return new SignedBatch(p.party(), AbcBatch.decode(p.batch(), maxBatch).payloads(), p.batch(), p.signature());
  }

  /** The bytes a party signs for its round-r proposal with digest {@code digest}. */
  byte[] signedName(long round, byte[] digest) {
    return pid.bind(BATCH, new ByteWriter(48).i64(round).raw(digest).toBytes());
  }

  private static ByteBuffer batchKey(int party, byte[] digest) {
    return ByteBuffer.allocate(4 + digest.length).putInt(party).put(digest).flip();
  }

  private static ByteBuffer key(byte[] payload) {
    return ByteBuffer.wrap(Digests.sha256(payload));
  }

  // ---------------------------------------------------------------- rounds

  /**
   * The round's agreement decided {@code vectorBytes}: delivered once this party holds every proposal it
   * names; those it lacks are fetched (every correct signer of the vector's broadcast holds them, and at
   * least f+1 signers are correct), from the round's instance and from the decided vectors peers keep.
   */
  private void decided(Round round, byte[] vectorBytes) {
    round.decidedVector = vectorBytes;
    round.decidedEntries = decodeVector(vectorBytes); // external validity held: parties ascending
    List<Entry> missing = round.missing(round.decidedEntries);
    if (missing.isEmpty()) {
      deliverDecided(round);
    } else {
      round.askBatches(missing);
      decidedInstance.ask(round.number, Digests.sha256(vectorBytes));
    }
  }

  private void deliverDecided(Round round) {
    byte[] vectorBytes = round.decidedVector;
    List<SignedBatch> batches = new ArrayList<>();
    for (Entry e : round.decidedEntries) {
      batches.add(round.batch(e));
    }
    List<byte[]> out = new ArrayList<>();
    Set<ByteBuffer> seen = new HashSet<>();
    for (SignedBatch b : batches) {
      for (byte[] p : b.payloads()) {
        ByteBuffer k = key(p);
        if (seen.add(k)) {
          out.add(p);
          queue.remove(k);
        }
      }
    }
    delivered = round.number;
    payloadsDelivered += out.size();
    byte[] digest = Digests.sha256(vectorBytes);
    decidedVectors.put(round.number, new Kept(vectorBytes, digest,
        batches.stream().map(SignedBatch::batchBytes).toList()));
    while (decidedVectors.size() > KEPT_ROUNDS) {
      decidedVectors.pollFirstEntry();
    }
    decidedInstance.delivered(round.number);
    ctx.router().closeBelow(pid, round.number + 1);
    deliver.accept(new Delivery(round.number, digest, List.copyOf(out)));
    current = ctx.router().register(new Round(round.number + 1));
    current.maybeStart(null);
  }

  /**
   * Round {@code round}'s proposal (class comment): up to {@code maxBatch} wanted payloads: the oldest of
   * those queued for {@link #FAIR_ROUNDS} rounds, at most maxBatch / n of them, then those this party owns
   * in the round, then more of the old ones; if there are none of either, the oldest payloads. Unwanted
   * payloads leave the queue.
   */
  private List<byte[]> takeBatch(long round) {
    List<byte[]> due = new ArrayList<>();
    List<byte[]> owned = new ArrayList<>();
    List<byte[]> oldest = new ArrayList<>();
    for (Iterator<Queued> it = queue.values().iterator(); it.hasNext(); ) {
      Queued q = it.next();
      if (!wanted.test(q.payload())) {
        it.remove();
      } else if (round - 1 - q.since() >= FAIR_ROUNDS) {
        if (due.size() < maxBatch) {
          due.add(q.payload());
        }
      } else if (Math.floorMod(q.h() + round, ctx.n()) == ctx.id()) {
        if (owned.size() < maxBatch) {
          owned.add(q.payload());
        }
      } else if (oldest.size() < maxBatch) {
        oldest.add(q.payload());
      }
    }
    if (due.isEmpty() && owned.isEmpty()) {
      return oldest;
    }
    int dueFirst = Math.min(due.size(), Math.max(1, maxBatch / ctx.n()));
    List<byte[]> batch = new ArrayList<>(due.subList(0, dueFirst));
    owned.stream().limit(maxBatch - batch.size()).forEach(batch::add);
    due.stream().skip(dueFirst).limit(maxBatch - batch.size()).forEach(batch::add);
    return batch;
  }

  /** The instance {@code pid/r}: round r's proposals, and its agreement once this party joined. */
  private final class Round extends Protocol {
    final long number;
    /** The first proposal of each party, in arrival order (what this party's vector is made of). */
    final Map<Integer, SignedBatch> proposals = new LinkedHashMap<>();
    /** Every valid proposal held, by (party, digest): the first of each party and those fetched. */
    final Map<ByteBuffer, SignedBatch> batches = new HashMap<>();
    /** Proposals this party asked for ({@link #FETCH_BATCH}), by (party, digest). */
    final Set<ByteBuffer> asked = new HashSet<>();
    /** Per peer, the proposals it asked for that this party does not hold yet (answered when they come). */
    final Map<Integer, Set<ByteBuffer>> openAsks = new HashMap<>();
    /** Per peer, the proposals sent to it already. */
    final Map<Integer, Set<ByteBuffer>> answered = new HashMap<>();
    /** Vectors judged already, by digest (the agreement asks many times). */
    final Map<ByteBuffer, Validity.Verdict> checked = new HashMap<>();
    MultiValuedAgreement mvba;
    boolean proposedVector;
    /** The decided vector while this party fetches proposals it names; null before the decision. */
    byte[] decidedVector;
    /** The decided vector's entries, decoded once (each proposal answer checks them). */
    List<Entry> decidedEntries;
    /** The digest of the decided vector while the agreement fetches it (it does not hold it); or null. */
    byte[] fetchDigest;

    Round(long number) {
      super(AtomicBroadcast.this.ctx, AtomicBroadcast.this.pid.child(number));
      this.number = number;
    }

    /** Starts the round if this party wants something ordered, or {@code trigger} holds such a payload. */
    void maybeStart(SignedBatch trigger) {
      if (mvba != null) {
        return;
      }
      List<byte[]> batch = takeBatch(number);
      if (batch.isEmpty() && trigger != null) {
        trigger.payloads().stream().filter(wanted).limit(maxBatch).forEach(batch::add);
      }
      if (batch.isEmpty()) {
        return;
      }
      roundsRun++;
      mvba = ctx.router().register(new MultiValuedAgreement(ctx, pid.child("mvba"),
          new MultiSignature(ctx), this::externallyValid, v -> decided(this, v), this::fetchDecided));
      byte[] batchBytes = new AbcBatch(batch).encode();
      multicast(Type.PROPOSAL, new AbcProposal(ctx.id(), batchBytes,
          ctx.sign(signedName(number, Digests.sha256(batchBytes)))).encodeProposal());
    }

    /** The agreement decided a vector this party does not hold: it asks the peers that delivered the round. */
    private void fetchDecided(byte[] digest) {
      fetchDigest = digest;
      decidedInstance.ask(number, digest);
    }

    /** Whether this party is fetching for the round's decision: the decided vector or proposals it names. */
    boolean fetchingDecision() {
      return mvba != null && (mvba.fetching() || decidedVector != null);
    }

    SignedBatch batch(Entry e) {
      return batches.get(e.key());
    }

    /** The entries of {@code vector} whose proposals this party does not hold. */
    List<Entry> missing(List<Entry> vector) {
      return vector.stream().filter(e -> !batches.containsKey(e.key())).toList();
    }

    /** Asks all, once per proposal, for those of {@code entries}. */
    void askBatches(List<Entry> entries) {
      List<Entry> fresh = entries.stream().filter(e -> asked.add(e.key())).toList();
      if (fresh.isEmpty()) {
        return;
      }
      multicast(Type.FETCH_BATCH, new AbcFetchBatch(fresh.stream()
          .map(e -> new AbcFetchBatch.Wanted(e.party(), e.digest())).toList()).encode());
    }

    /** This party's one signed PROPOSAL for the round (SINTRA §2.5); fetches and answers commit it to nothing. */
    @Override
    protected byte[] slot(AsyncKind type, byte[] payload) {
      return type == Type.PROPOSAL ? new byte[0] : null;
    }

    @Override
    protected void onMessage(int from, int type, byte[] body) {
      switch (AsyncKind.of(Type.class, type, "atomic broadcast")) {
        case PROPOSAL -> onProposal(from, body);
        case FETCH_BATCH -> onFetchBatch(from, body);
        case BATCH_ANSWER -> onBatch(from, body);
        default -> throw new DecodeException("unknown atomic broadcast message type " + type);
      }
    }

    private void onProposal(int from, byte[] body) {
      SignedBatch b = signedBatch(AbcProposal.decodeProposal(from, body));
      if (proposals.containsKey(from)) {
        evidence(from, "second proposal in round " + number);
        return;
      }
      if (!valid(b)) {
        evidence(from, "round " + number + " proposal badly signed or with an invalid payload");
        return;
      }
      proposals.put(from, b);
      hold(b);
      if (current != this) {
        return; // the proposal completed a decided vector: the round is delivered
      }
      if (!b.payloads().isEmpty()) {
        maybeStart(b);
      }
      maybeProposeVector();
    }

    private void onFetchBatch(int from, byte[] body) {
      if (from == ctx.id()) {
        return;
      }
      Set<ByteBuffer> wanted = new HashSet<>();
      for (AbcFetchBatch.Wanted w : AbcFetchBatch.decode(body, ctx.n()).wanted()) {
        wanted.add(batchKey(w.party(), w.digest()));
      }
      Set<ByteBuffer> open = openAsks.computeIfAbsent(from, k -> new HashSet<>());
      for (ByteBuffer k : wanted) {
        SignedBatch b = batches.get(k);
        if (b != null) {
          answer(from, b);
        } else if (open.size() < ctx.n() * ctx.n()) { // a correct party asks about the n vectors of a round
          open.add(k);
        }
      }
    }

    /**
     * Sent, not replied: it stays in the resend log with the round, because the asker's resent FETCH_BATCH
     * is dropped here as a copy, so a lost answer would otherwise never come again.
     */
    private void answer(int to, SignedBatch b) {
      if (answered.computeIfAbsent(to, k -> new HashSet<>()).add(b.key())) {
        send(to, Type.BATCH_ANSWER, new AbcProposal(b.party(), b.batchBytes(), b.signature()).encodeAnswer());
      }
    }

    private void onBatch(int from, byte[] body) {
      SignedBatch b = signedBatch(AbcProposal.decodeAnswer(body, ctx.n()));
      int party = b.party();
      if (!asked.contains(b.key()) || batches.containsKey(b.key())) {
        return; // not asked for, or another holder answered first
      }
      if (!valid(b)) {
        evidence(from, "round " + number + " proposal of " + party + " badly signed or with an invalid payload");
        return;
      }
      hold(b);
    }

    /**
     * A valid proposal held from now on: peers that asked for it get it, the agreement's broadcasts judge
     * again the vectors that waited for it, and a decision that waited for it is delivered.
     */
    private void hold(SignedBatch b) {
      if (batches.putIfAbsent(b.key(), b) != null) {
        return;
      }
      openAsks.forEach((peer, keys) -> {
        if (keys.remove(b.key())) {
          answer(peer, b);
        }
      });
      if (decidedVector != null) {
        if (current == this && missing(decidedEntries).isEmpty()) {
          deliverDecided(this);
        }
      } else if (mvba != null) {
        mvba.recheck();
      }
    }

    private void maybeProposeVector() {
      if (mvba == null || proposedVector || proposals.size() < ctx.n() - ctx.f()) {
        return;
      }
      List<SignedBatch> chosen = new ArrayList<>();
      proposals.values().stream().filter(b -> !b.payloads().isEmpty()).forEach(chosen::add);
      proposals.values().stream().filter(b -> b.payloads().isEmpty()).forEach(chosen::add);
      if (chosen.get(0).payloads().isEmpty()) {
        return; // cannot happen: this party joined with a non-empty proposal, its own
      }
      chosen = new ArrayList<>(chosen.subList(0, ctx.n() - ctx.f()));
      chosen.sort((a, b) -> Integer.compare(a.party(), b.party()));
      proposedVector = true;
      mvba.propose(encodeVector(chosen));
    }

    /** A proposal of this round properly signed by its party, with at most maxBatch valid payloads. */
    private boolean valid(SignedBatch b) {
      if (b.party() < 0 || b.party() >= ctx.n() || b.payloads().size() > maxBatch) {
        return false;
      }
      return ctx.verify(b.party(), signedName(number, b.digest()), b.signature())
          && b.payloads().stream().allMatch(validPayload);
    }

    /** External validity of the round's agreement (see the class comment); cached once told. */
    Validity.Verdict externallyValid(byte[] vector) {
      ByteBuffer k = key(vector);
      Validity.Verdict v = checked.get(k);
      if (v == null) {
        v = check(vector);
        if (v != Validity.Verdict.NOT_YET) {
          checked.put(k, v);
        }
      }
      return v;
    }

    /**
     * n−f entries of distinct parties in ascending order, each signed by its party; NOT_YET while a
     * proposal they name is not held here (it is fetched: the vector's sender holds it if correct), then
     * valid if the proposals are (checked when they came) and one is non-empty.
     */
    private Validity.Verdict check(byte[] bytes) {
      List<Entry> vector;
      try {
        vector = decodeVector(bytes);
      } catch (DecodeException e) {
        return Validity.Verdict.INVALID;
      }
      if (vector.size() != ctx.n() - ctx.f()) {
        return Validity.Verdict.INVALID;
      }
      List<Entry> missing = new ArrayList<>();
      boolean nonEmpty = false;
      for (int i = 0; i < vector.size(); i++) {
        Entry e = vector.get(i);
        if (e.party() < 0 || e.party() >= ctx.n() || i > 0 && e.party() <= vector.get(i - 1).party()) {
          return Validity.Verdict.INVALID;
        }
        SignedBatch held = batch(e);
        if (held == null) {
          if (!ctx.verify(e.party(), signedName(number, e.digest()), e.signature())) {
            return Validity.Verdict.INVALID;
          }
          missing.add(e);
        } else if (!Arrays.equals(held.signature(), e.signature())
            && !ctx.verify(e.party(), signedName(number, e.digest()), e.signature())) {
          return Validity.Verdict.INVALID;
        } else {
          nonEmpty |= !held.payloads().isEmpty();
        }
      }
      if (!missing.isEmpty()) {
        askBatches(missing);
        return Validity.Verdict.NOT_YET;
      }
      return nonEmpty ? Validity.Verdict.VALID : Validity.Verdict.INVALID;
    }
  }

  /** The instance {@code pid/decided}: answers peers' fetches of recent decided vectors (class comment). */
  private final class Decided extends Protocol {
    /** A fetch this party cannot answer yet: it has not delivered the round. */
    private record Ask(long round, byte[] digest) {}

    /**
     * Per peer, its latest fetch of a round not delivered here: answered when the round delivers, so that a
     * fetch that overtakes this party's own decision is not lost (its resent copies would be dropped as
     * copies). One per peer: a correct party fetches only for the round it is in.
     */
    private final Map<Integer, Ask> open = new HashMap<>();
    private boolean asked;

    Decided() {
      super(AtomicBroadcast.this.ctx, AtomicBroadcast.this.pid.child("decided"));
    }

    void ask(long round, byte[] digest) {
      asked = true;
      multicast(Type.FETCH_DECIDED, new AbcFetchDecided(round, digest).encode());
    }

    /** Round {@code round} delivered here: answers the fetches that waited for it, forgets settled ones. */
    void delivered(long round) {
      open.entrySet().removeIf(e -> {
        if (e.getValue().round() == round) {
          answer(e.getKey(), e.getValue());
        }
        return e.getValue().round() <= round;
      });
      if (asked) { // our own fetches are answered or moot: not resent, and no instance left open for them
        asked = false;
        ctx.forgetSent(pid);
      }
    }

    /** DECIDED: (round, vector, the proposals it names in its order). */
    private void answer(int to, Ask a) {
      Kept kept = decidedVectors.get(a.round());
      if (kept == null) {
        askedForgotten.accept(to);
      } else if (Arrays.equals(kept.digest(), a.digest())) {
        reply(to, Type.DECIDED, new AbcDecided(a.round(), kept.vector(), kept.batches()).encode());
      }
    }

    @Override
    protected void onMessage(int from, int type, byte[] body) {
      switch (AsyncKind.of(Type.class, type, "decided-vector")) {
        case FETCH_DECIDED -> {
          AbcFetchDecided f = AbcFetchDecided.decode(body);
          if (from == ctx.id()) {
            return;
          }
          if (f.round() > delivered) {
            open.put(from, new Ask(f.round(), f.digest()));
          } else {
            answer(from, new Ask(f.round(), f.digest()));
          }
        }
        case DECIDED -> {
          AbcDecided d = AbcDecided.decode(body, ctx.n());
          onDecided(from, d.round(), d.vector(), d.batches());
        }
        default -> throw new DecodeException("unknown decided-vector message type " + type);
      }
    }

    /**
     * A peer's kept decided vector with its proposals: taken if the vector is the one this party's
     * agreement decided (by digest) and each proposal hashes to the digest the vector names for it; the
     * vector's certificate proved them valid.
     */
    private void onDecided(int from, long round, byte[] vector, List<byte[]> batchBytes) {
      Round c = current;
      if (c.number != round || !c.fetchingDecision()) {
        return; // not needed (any more)
      }
      byte[] expected = c.decidedVector != null ? Digests.sha256(c.decidedVector) : c.fetchDigest;
      List<Entry> entries = Arrays.equals(Digests.sha256(vector), expected) ? decodeVector(vector) : List.of();
      boolean matches = entries.size() == batchBytes.size() && !entries.isEmpty();
      for (int i = 0; matches && i < entries.size(); i++) {
        matches = Arrays.equals(Digests.sha256(batchBytes.get(i)), entries.get(i).digest());
      }
      if (!matches) {
        evidence(from, "DECIDED vector of round " + round + " does not match the decided digest");
        return;
      }
      for (int i = 0; i < entries.size(); i++) {
        Entry e = entries.get(i);
        List<byte[]> payloads = AbcBatch.decode(batchBytes.get(i), maxBatch).payloads();
        c.batches.putIfAbsent(e.key(), new SignedBatch(e.party(), payloads, batchBytes.get(i), e.signature()));
      }
      if (c.decidedVector == null) {
        c.mvba.supply(vector); // decides, and with every proposal held, delivers
      } else {
        deliverDecided(c);
      }
    }
  }
}
