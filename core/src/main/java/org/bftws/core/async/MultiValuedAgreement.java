package org.bftws.core.async;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.async.CbFinal;
import org.bftws.core.message.async.MvbaVote;

/**
 * Multi-valued Byzantine agreement with external validity (SINTRA §2.4; Cachin, Kursawe, Petzold and Shoup,
 * "Secure and Efficient Asynchronous Broadcast Protocols", CRYPTO 2001): correct parties decide the same
 * value, and only a value that {@code externallyValid} accepts.
 * <ol>
 *   <li>every party proposes by consistent broadcast (children {@code pid/cb/j}); after n−f valid
 *       certificates of distinct broadcasts (from their FINALs or from yes-votes: each proves its proposal
 *       valid, below), and its own proposal, a party enters the loop;
 *   <li>round r considers candidate a = Π(r): the party sends a yes-vote carrying the digest of a's
 *       proposal and its certificate if it holds a valid one, else a no-vote (VOTE); it waits for n−f
 *       proper votes (a yes-vote counts only with a valid certificate of a's broadcast, which it also hands
 *       to that broadcast as a closing message); then it proposes to a validated binary agreement biased
 *       towards 1 (child {@code pid/vba/r}) 1 iff it holds a valid certificate of a, with (digest,
 *       certificate) as validation;
 *   <li>if that agreement decides 1, the decision is a's proposal: delivered by a's broadcast, or fetched
 *       from the holders by the certificate the agreement returns ({@link ConsistentBroadcast#fetch}, and
 *       {@code fetchDecided} for a parent that keeps decided values); on 0 the party goes to round r+1.
 * </ol>
 * Validation by certificate, not by value (CKPS 2001 §5, SINTRA §2.4): the broadcasts check {@code
 * externallyValid} before echoing, so a valid certificate has at least one correct signer that checked the
 * proposal it names; the 32-byte digest and the certificate prove what the proposal itself proved, and the
 * proposal travels only in its broadcast. A party that decides 1 without the proposal fetches it: each
 * correct signer holds it, and at least one signer is correct.
 * Termination within n rounds: each of the n−f correct parties holds n−f valid certificates on entering
 * the loop, (n−f)² &gt; n·f, so some candidate's certificate is held by f+1 correct parties, and the biased
 * agreement of its round decides 1 (biased validity, CKPS 2001). Agreement and validity follow from those
 * of the binary agreement and from the consistency of the broadcasts: one certificate per instance.
 *
 * <p>The order Π is SINTRA's second variation, "chosen at random from information that is locally
 * available to every party": a permutation of the parties drawn from SHA-256 of {@code pid.bind("order",
 * ...)}, the same at every party. It spreads the first candidate over instances (balancing load), but the
 * adversary can compute it in advance, so it is no more secure than a fixed order: O(f) rounds in the worst
 * case. The coin-chosen order with a commit step (expected constant rounds) is not implemented.
 */
public final class MultiValuedAgreement extends Protocol {
  /** The one message of a round: a party's vote on the round's candidate, with its certificate if yes. */
  public enum Type implements AsyncKind {
    VOTE
  }

  private final Validity externallyValid;
  private final Consumer<byte[]> decide;
  private final Consumer<byte[]> fetchDecided;
  private final QuorumSignatures sigs;
  private final ConsistentBroadcast[] broadcasts;
  private final int[] order;
  /** Valid proposals held (delivered by the party's broadcast and externally valid), by party. */
  private final ConsistentBroadcast.Delivery[] valid;
  /** A valid certificate of each party's broadcast held (from its FINAL or a yes-vote), by party. */
  private final ConsistentBroadcast.Certificate[] certified;
  private int certifiedCount;
  /** The candidate decided while its proposal is being fetched, or −1. */
  private int fetching = -1;
  private int validCount;
  /** Parties whose vote of a round was received, counted or not, by round. */
  private final Map<Integer, Map<Integer, Boolean>> votes = new HashMap<>();
  private boolean proposed;
  /** The current round (an index into Π), −1 before the loop. */
  private int round = -1;
  /**
   * The agreement of the first round not known to have decided 0 ({@code frontier}); it exists before this
   * party reaches that round (see {@link #openAgreement}), and {@code joined} says whether it proposed.
   */
  private ValidatedBinaryAgreement agreement;
  private int frontier;
  private boolean joined;
  private byte[] decided;

  /** With SINTRA's default certificate, the multi-signature, for the proposals' broadcasts. */
  public MultiValuedAgreement(Context ctx, Pid pid, Predicate<byte[]> externallyValid, Consumer<byte[]> decide) {
    this(ctx, pid, new MultiSignature(ctx), externallyValid, decide);
  }

  /**
   * The instance {@code pid}; {@code externallyValid} must be deterministic and the same at every correct
   * party; {@code decide} gets the decision once, inside a handler. Registers the n proposal broadcasts.
   */
  public MultiValuedAgreement(Context ctx, Pid pid, QuorumSignatures sigs, Predicate<byte[]> externallyValid,
      Consumer<byte[]> decide) {
    this(ctx, pid, sigs, Validity.of(externallyValid), decide, digest -> { });
  }

  /**
   * As above; {@code fetchDecided} gets the digest of the decided proposal when this party decided it
   * without holding it (a parent that keeps decided values may ask its peers, see {@link #supply}), and
   * the validity may not tell yet (the channel's vectors name proposals by digest): the broadcasts keep
   * such proposals and judge them again on {@link #recheck}.
   */
  public MultiValuedAgreement(Context ctx, Pid pid, QuorumSignatures sigs, Validity externallyValid,
      Consumer<byte[]> decide, Consumer<byte[]> fetchDecided) {
    super(ctx, pid);
    this.externallyValid = externallyValid;
    this.decide = decide;
    this.fetchDecided = fetchDecided;
    this.sigs = sigs;
    this.order = order(pid, ctx.n());
    this.valid = new ConsistentBroadcast.Delivery[ctx.n()];
    this.certified = new ConsistentBroadcast.Certificate[ctx.n()];
    this.broadcasts = new ConsistentBroadcast[ctx.n()];
    for (int j = 0; j < ctx.n(); j++) {
      int party = j;
      broadcasts[j] = ctx.router().register(
          new ConsistentBroadcast(ctx, proposalPid(j), j, sigs, externallyValid, c -> onCertified(party, c),
              d -> onProposal(party, d)));
    }
    openAgreement(0);
  }

  /** SINTRA §3.3 {@code propose}: once, with a value {@code externallyValid} accepts. */
  public void propose(byte[] value) {
    if (proposed) {
      throw new IllegalStateException("replica " + ctx.id() + " already proposed in " + pid);
    }
    if (externallyValid.check(value) != Validity.Verdict.VALID) {
      throw new IllegalArgumentException("proposal fails the external validity predicate");
    }
    proposed = true;
    if (decided != null) {
      return; // learned from the others' DECIDE proofs already (see openAgreement): nothing to add
    }
    broadcasts[ctx.id()].send(value);
    maybeEnterLoop();
  }

  /** The decided value, or null. */
  public byte[] decided() {
    return decided;
  }

  /**
   * The decided proposal from elsewhere (a peer's kept copy): delivered if it hashes to the certified digest
   * being fetched; false otherwise (the caller names the sender).
   */
  public boolean supply(byte[] proposal) {
    return fetching >= 0 && broadcasts[fetching].supply(proposal);
  }

  /** For diagnostics: loop round, valid proposals, certified ones, fetching, decided. */
  public String describe() {
    StringBuilder b = new StringBuilder("loop=" + round + " valid=" + validCount + " certified=");
    for (ConsistentBroadcast.Certificate c : certified) {
      b.append(c == null ? '-' : '+');
    }
    String binaryAgreement = agreement == null ? "none" : agreement.decision() == null ? "running"
        : "decided " + agreement.decision().value();
    return b + " votes=" + votes.getOrDefault(round, Map.of()) + " agreement=" + binaryAgreement
        + " fetching=" + fetching + " decided=" + (decided != null);
  }

  /** Whether this party decided a proposal it is still fetching. */
  public boolean fetching() {
    return fetching >= 0;
  }

  /** The round (index into Π) this party is in or decided in, −1 before the loop. */
  public int round() {
    return round;
  }

  /**
   * Π: the parties in the order the loop considers them, from SHA-256 of {@code pid.bind("order", ...)}
   * by a Fisher-Yates shuffle (SINTRA §2.4, "chosen at random from information that is locally available").
   * Public because anyone can compute it, the adversary too: the simulator's scheduler uses it to find
   * each round's first candidate.
   */
  public static int[] order(Pid pid, int n) {
    int[] pi = new int[n];
    for (int i = 0; i < n; i++) {
      pi[i] = i;
    }
    byte[] seed = Digests.sha256(pid.bind("order", new byte[0]));
    for (int i = n - 1; i > 0; i--) {
      long draw = ByteBuffer.wrap(Digests.sha256(seed, ByteBuffer.allocate(4).putInt(i).array())).getLong();
      int j = (int) Math.floorMod(draw, (long) i + 1); // bias below 2^-50 for n < 2^13
      int t = pi[i];
      pi[i] = pi[j];
      pi[j] = t;
    }
    return pi;
  }

  /** One VOTE per candidate round (CKPS 2001 §5; SINTRA §2.4): its encoding begins with the round. */
  @Override
  protected byte[] slot(AsyncKind type, byte[] payload) {
    return leading(payload, Integer.BYTES);
  }

  @Override
  protected void onMessage(int from, int type, byte[] body) {
    AsyncKind.of(Type.class, type, "multi-valued agreement"); // VOTE, the only one
    MvbaVote v = MvbaVote.decode(body, ctx.n());
    onVote(from, v.round(), v.yes() ? certificate(v.certified()) : null);
  }

  /** The data a validity verdict waited for may have arrived: the broadcasts judge their kept SENDs again. */
  public void recheck() {
    for (int j = 0; j < broadcasts.length && decided == null; j++) {
      broadcasts[j].recheck();
    }
  }

  /** A delivered proposal; its certificate proves it valid, which a verdict here can only contradict. */
  private void onProposal(int party, ConsistentBroadcast.Delivery d) {
    if (externallyValid.check(d.payload()) == Validity.Verdict.INVALID) {
      evidence(party, "proposal fails the external validity predicate");
      return;
    }
    valid[party] = d;
    validCount++;
    if (fetching == party) {
      decideFor(party);
    }
  }

  /**
   * A valid certificate of {@code party}'s broadcast (its FINAL, or a yes-vote's): it proves the proposal
   * externally valid (class comment), so it counts towards entering the loop as the proposal would. A party
   * that missed a SEND, e.g. because its peers had closed the round before it proposed, thus still enters
   * the loop on the certificates that other parties' votes carry.
   */
  private void onCertified(int party, ConsistentBroadcast.Certificate c) {
    certified[party] = c;
    certifiedCount++;
    maybeEnterLoop();
  }

  private void maybeEnterLoop() {
    if (proposed && round < 0 && agreement.decision() == null && certifiedCount >= ctx.n() - ctx.f()) {
      enterRound(frontier); // rounds below it decided 0 already: nobody needs this party's votes there
    }
  }

  private void enterRound(int r) {
    round = r;
    ConsistentBroadcast.Certificate held = certified[order[r]];
    multicast(Type.VOTE, new MvbaVote(r, held == null ? null : new CbFinal(held.digest(), held.certificate()))
        .encode());
    maybeStartAgreement();
  }

  /** A vote of round {@code r}; {@code yes} certifies the candidate's proposal, null for a no-vote. */
  private void onVote(int from, int r, ConsistentBroadcast.Certificate yes) {
    Map<Integer, Boolean> ofRound = votes.computeIfAbsent(r, k -> new HashMap<>());
    if (ofRound.containsKey(from)) {
      evidence(from, "second vote in round " + r);
      return;
    }
    int candidate = order[r];
    boolean proper = yes == null || certifies(candidate, yes);
    ofRound.put(from, proper);
    if (!proper) {
      evidence(from, "yes-vote in round " + r + " without a valid proposal of " + candidate);
      return;
    }
    if (yes != null) { // certifies it here (onCertified) and delivers it if the SEND came
      broadcasts[candidate].deliverClosing(yes.digest(), yes.certificate());
    }
    maybeStartAgreement();
  }

  private void maybeStartAgreement() {
    if (round < 0 || round != frontier || joined || decided != null) {
      return;
    }
    Map<Integer, Boolean> ofRound = votes.getOrDefault(round, Map.of());
    long proper = ofRound.values().stream().filter(p -> p).count();
    if (proper < ctx.n() - ctx.f()) {
      return;
    }
    joined = true;
    ConsistentBroadcast.Certificate held = certified[order[round]];
    agreement.propose(held != null, held == null ? null : validation(held));
  }

  /**
   * Opens round r's biased agreement before this party reaches round r: it takes the others' votes and
   * DECIDE proofs as they come, so a party that cannot enter the loop or is rounds behind still learns
   * each round's decision. That matters when the others have moved on and closed the instance: a party
   * that restarted, or whose own broadcast the others never echoed before they delivered the round, may
   * never hold n−f valid proposals, and only DECIDE proofs (which peers resend) bring it through. Safe:
   * round r's agreement is opened only once rounds below it decided 0 here, so its decision is the one
   * every correct party takes in round r, with the validation data that carries the candidate's proposal.
   */
  private void openAgreement(int r) {
    int candidate = order[r];
    frontier = r;
    joined = false;
    agreement = ctx.router().register(new ValidatedBinaryAgreement(ctx, pid.child("vba").child(r), true,
        v -> validates(candidate, v), d -> onDecision(r, candidate, d)));
  }

  private void onDecision(int r, int candidate, ValidatedBinaryAgreement.Decision d) {
    if (r != frontier || decided != null || round > r) {
      throw new IllegalStateException("decision of round " + r + " in round " + round + " of " + pid);
    }
    if (!d.value()) {
      if (r + 1 >= ctx.n()) {
        // impossible by the counting argument of the class comment: our own state is broken
        throw new IllegalStateException("no candidate chosen after " + ctx.n() + " rounds of " + pid);
      }
      openAgreement(r + 1);
      if (round == r) {
        enterRound(r + 1);
      }
      return;
    }
    if (valid[candidate] == null) { // not delivered here: the validation's certificate names it
      ByteReader v = new ByteReader(d.validation()); // its certificate is checked just below
      ConsistentBroadcast.Certificate c = new ConsistentBroadcast.Certificate(v.bytes(), v.bytes());
      if (!broadcasts[candidate].deliverClosing(c.digest(), c.certificate())) {
        throw new IllegalStateException("decided 1 in " + pid + " without a valid certificate of " + candidate);
      }
      if (valid[candidate] == null) {
        fetching = candidate;
        broadcasts[candidate].fetch();
        fetchDecided.accept(c.digest());
        return;
      }
    }
    decideFor(candidate);
  }

  private void decideFor(int candidate) {
    fetching = -1;
    decided = valid[candidate].payload();
    decide.accept(decided);
  }

  /**
   * The agreement's validation predicate for 1: a valid certificate of {@code candidate}'s broadcast with
   * the digest it signs (which proves the proposal externally valid: see the class comment).
   */
  private boolean validates(int candidate, byte[] validation) {
    try {
      return certifies(candidate, certificate(CbFinal.decode(validation)));
    } catch (DecodeException e) {
      return false;
    }
  }

  /**
   * Whether {@code c} is a valid certificate of {@code candidate}'s broadcast. The certificate already taken
   * for it (every yes-vote and every vote of its agreement usually carries that one) was checked when it was
   * taken: it is not checked again.
   */
  private boolean certifies(int candidate, ConsistentBroadcast.Certificate c) {
    ConsistentBroadcast.Certificate known = certified[candidate];
    if (known != null && Arrays.equals(known.digest(), c.digest())
        && Arrays.equals(known.certificate(), c.certificate())) {
      return true;
    }
    return ConsistentBroadcast.certifies(sigs, proposalPid(candidate), c.digest(), c.certificate());
  }

  /** A certificate as it travels in a vote or as binary agreement's validation: a {@link CbFinal}'s fields. */
  private static ConsistentBroadcast.Certificate certificate(CbFinal f) {
    return new ConsistentBroadcast.Certificate(f.digest(), f.certificate());
  }

  private static byte[] validation(ConsistentBroadcast.Certificate c) {
    return new CbFinal(c.digest(), c.certificate()).encode();
  }

  private Pid proposalPid(int party) {
    return pid.child("cb").child(party);
  }

}
