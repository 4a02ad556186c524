package org.bftws.core.async;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.InvalidSharesException;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.ThresholdException;
import org.bftws.core.message.async.AbbaCoin;
import org.bftws.core.message.async.AbbaDecide;
import org.bftws.core.message.async.AbbaMainVote;
import org.bftws.core.message.async.AbbaPreProcess;
import org.bftws.core.message.async.AbbaPreVote;
import org.bftws.core.message.async.AbbaSig;
import org.bftws.core.replication.CoinConfig;

/**
 * Binary Byzantine agreement (SINTRA §2.3): the protocol ABBA of Cachin, Kursawe and Shoup ("Random Oracles
 * in Constantinople", J. Cryptology 2005, §4), with every vote justified. Each party:
 * <ol>
 *   <li>pre-processing: signs its input bit b and sends PRE_PROCESS(b) to all; on n−f of them, takes the
 *       majority bit (ties: 1), which has at least f+1 votes;
 *   <li>round r, pre-vote: sends PRE_VOTE(r, b) justified by, in round 1, f+1 signed pre-process votes for b;
 *       later, either n−f signed pre-votes for b of round r−1 (b was main-voted in r−1: a "hard" pre-vote)
 *       or n−f signed abstaining main-votes of round r−1 and the combined coin of round r−1, whose bit is
 *       b (a "soft" pre-vote);
 *   <li>main-vote: on n−f pre-votes of round r, sends MAIN_VOTE(r, b) justified by n−f signed pre-votes for
 *       b if they are unanimous, else MAIN_VOTE(r, abstain) justified by one justified pre-vote for 0 and
 *       one for 1;
 *   <li>on n−f main-votes for one bit b in a round, decides b; otherwise, holding n−f main-votes of round r,
 *       releases its share of the round-r coin (COIN) and pre-votes in round r+1 the bit of a non-abstaining
 *       main-vote if it received one, else the coin, combined from f+1 shares.
 * </ol>
 * A justification is a multi-signature (SINTRA §2.1): the set of Ed25519 signatures of the voters over
 * {@code pid.bind(...)} of the vote, checkable by anyone, in place of CKS's threshold signatures. A correct
 * party signs one pre-vote and one main-vote per round, so two quorums of n−f intersect in a correct party:
 * two main-votes of one round never carry different bits, and once n−f main-votes for b exist in round r,
 * every correct party sees a main-vote for b and no justification for 1−b exists in any later round.
 *
 * <p>Termination: a party that decides multicasts DECIDE(r, b) with its proof, the n−f signed main-votes
 * for b of round r, and stops; a party that receives a valid proof decides b too, multicasts the proof
 * itself and stops. Relaying matters: a Byzantine party may send its proof to one correct party only, and
 * the others still need n−f active parties or that proof. The coin of round r is the threshold scheme's
 * value on {@code pid.bind("coin", r)} ({@link #coinName}); shares are released only after n−f main-votes
 * of the round, so the adversary learns the coin only after at least one correct party holds n−f of them.
 * Expected rounds are constant (CKS 2005, §4: in each round, all correct parties pre-vote the same bit
 * with probability at least 1/2).
 *
 * <p>Why this protocol, not the signature-free one of Mostéfaoui, Moumen and Raynal that HoneyBadgerBFT used:
 * there, a bit enters a correct party's {@code bin_values} on f+1 or 2f+1 unsigned echoes that the
 * scheduler may deliver after the coin is revealed, so one Byzantine party and the scheduler can keep
 * correct parties' estimates split against every coin (amiller/HoneyBadgerBFT issue #59; the fix adds a
 * third message round before the coin). Here every vote carries a transferable justification: the bit of a
 * non-abstaining main-vote of round r rests on n−f pre-votes of round r signed before f+1 coin shares
 * exist, and a soft pre-vote must carry the coin itself, so nobody can choose the bits of round r+1 after
 * seeing the coin of round r. A vote that lacks its justification, or a second different vote of a
 * party in one round, is evidence against its signer and is never counted.
 *
 * <p>The engine also serves {@link ValidatedBinaryAgreement} (Cachin-Kursawe-Petzold-Shoup, CRYPTO 2001):
 * there, pre-processing is skipped, the round-1 pre-vote is the proposal, every vote for 1 carries
 * validation data that {@code validOne} accepts, and a biased instance takes 1 for the coin of round 1.
 *
 * <p>State is bounded per round: per party at most one pre-vote, one main-vote and one coin share, kept only
 * once justified; round state exists only for rounds some justified vote reached, and coin shares more
 * than {@link #MAX_ROUNDS_AHEAD} rounds ahead of this party are dropped (a party that far behind learns
 * the decision from a DECIDE).
 */
public final class BinaryAgreement extends Protocol {
  /** ABBA's messages (Cachin-Kursawe-Shoup): votes of a round, coin shares, the decision proof; codes by position. */
  public enum Type implements AsyncKind {
    PRE_PROCESS,
    PRE_VOTE,
    MAIN_VOTE,
    COIN,
    DECIDE
  }

  /** Coin shares of rounds further ahead than this are dropped (see the class comment). */
  public static final int MAX_ROUNDS_AHEAD = 32;
  private static final int ABSTAIN = AbbaMainVote.ABSTAIN;
  private static final byte[] NONE = new byte[0];

  private final boolean validated;
  private final boolean biased;
  private final Predicate<byte[]> validOne;
  private final Consumer<ValidatedBinaryAgreement.Decision> decide;
  private final int quorum;
  /** Round 0 holds the pre-processing votes in its pre-vote slots; rounds 1.. are ABBA's. */
  private final Map<Long, Round> rounds = new HashMap<>();
  private boolean proposed;
  private long round;
  /** Validation data for 1 that {@code validOne} accepted (this party's or a peer's), or null. */
  private byte[] validation;
  private ValidatedBinaryAgreement.Decision decision;
  private long decidedRound;

  /** A signature of {@code signer} over the name of a vote. */
  /** What one party holds about one round; each map has at most one entry per party. */
  private static final class Round {
    /** Per bit: signer → signature of its justified pre-vote (round 0: pre-process vote). */
    final List<Map<Integer, byte[]>> preVotes = List.of(new LinkedHashMap<>(), new LinkedHashMap<>());
    final AbbaPreVote[] preVoteProof = new AbbaPreVote[2];
    /** Per value (0, 1, abstain): signer → signature of its justified main-vote. */
    final List<Map<Integer, byte[]>> mainVotes =
        List.of(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
    /** Per bit: the justification of the first main-vote for it (n−f pre-votes of this round). */
    final List<List<AbbaSig>> mainJust = new ArrayList<>(Arrays.asList(null, null));
    final Map<Integer, SignatureShare> coinShares = new LinkedHashMap<>();
    final Set<Integer> badCoin = new HashSet<>();
    /** Verified signatures per vote slot (pre-vote 0, 1; main-vote 0, 1, abstain): signer → signature. */
    final List<Map<Integer, ByteBuffer>> verified = List.of(
        new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
    GroupValue coin;
    boolean mainVoted;
    boolean released;

    int preVoteCount() {
      return preVotes.get(0).size() + preVotes.get(1).size();
    }

    int mainVoteCount() {
      return mainVotes.get(0).size() + mainVotes.get(1).size() + mainVotes.get(ABSTAIN).size();
    }
  }

  /** Plain ABBA of instance {@code pid}; {@code decide} gets the decided bit once, inside a handler. */
  public BinaryAgreement(Context ctx, Pid pid, Consumer<Boolean> decide) {
    this(ctx, pid, false, false, v -> v.length == 0, d -> decide.accept(d.value()));
  }

  /** The engine of {@link ValidatedBinaryAgreement} ({@code validated}) and of plain ABBA. */
  BinaryAgreement(Context ctx, Pid pid, boolean validated, boolean biased, Predicate<byte[]> validOne,
      Consumer<ValidatedBinaryAgreement.Decision> decide) {
    super(ctx, pid);
    this.validated = validated;
    this.biased = biased;
    this.validOne = validOne;
    this.decide = decide;
    this.quorum = ctx.n() - ctx.f();
    this.validation = validated ? null : NONE; // plain ABBA: every bit is valid, with empty validation
    ctx.coin(); // fails now, not in round 1, if this replica has no coin
  }

  /** SINTRA §3.3 {@code propose}: this party's input bit, once. */
  public void propose(boolean value) {
    propose(value, NONE);
  }

  /** The decided bit, or null while undecided. */
  public Boolean decision() {
    return decision == null ? null : decision.value();
  }

  /** The decision with its validation data (for {@link ValidatedBinaryAgreement}), or null. */
  ValidatedBinaryAgreement.Decision outcome() {
    return decision;
  }

  /** The round whose n−f main-votes decided (from this party's quorum or a DECIDE proof), 0 if undecided. */
  public long decidedRound() {
    return decidedRound;
  }

  /** The bytes a round-r coin share signs: the coin of instance {@code pid}, round {@code r}. */
  public static byte[] coinName(Pid pid, long r) {
    return pid.bind("coin", new ByteWriter(8).i64(r).toBytes());
  }

  void propose(boolean value, byte[] proof) {
    if (proposed) {
      throw new IllegalStateException(pid + ": proposed twice");
    }
    if (value && (proof == null || !validOne.test(proof))) {
      throw new IllegalArgumentException(pid + ": a proposal of 1 needs validation data validOne accepts");
    }
    proposed = true;
    if (decision != null) {
      return;
    }
    if (value && validation == null) {
      validation = proof;
    }
    int b = value ? 1 : 0;
    if (validated) {
      round = 1;
      preVote(new AbbaPreVote(ctx.id(), 1, b, null, value ? proof : NONE, false, List.of(), NONE));
    } else {
      multicast(Type.PRE_PROCESS, new AbbaPreProcess(b, ctx.sign(preProcessName(b))).encode());
    }
    advance();
  }

  /**
   * One pre-processing vote per instance; per round one pre-vote, one main-vote, one coin share, and the
   * decision (CKS 2005 §3; SINTRA §2.3): their encodings begin with the round.
   */
  @Override
  protected byte[] slot(AsyncKind type, byte[] payload) {
    return type == Type.PRE_PROCESS ? new byte[0] : leading(payload, Long.BYTES);
  }

  @Override
  protected void onMessage(int from, int type, byte[] body) {
    if (decision != null) {
      return;
    }
    switch (AsyncKind.of(Type.class, type, "binary agreement")) {
      case PRE_PROCESS -> {
        AbbaPreProcess p = AbbaPreProcess.decode(body);
        onPreProcess(from, p.bit(), p.sig());
      }
      case PRE_VOTE -> onPreVote(AbbaPreVote.decode(from, body, ctx.n()));
      case MAIN_VOTE -> onMainVote(from, AbbaMainVote.decode(body, ctx.n()));
      case COIN -> {
        AbbaCoin c = AbbaCoin.decode(body);
        onCoin(from, c.round(), share(c.share()));
      }
      case DECIDE -> {
        AbbaDecide d = AbbaDecide.decode(body, ctx.n());
        onDecide(from, d.round(), d.bit(), d.validation(), d.proof());
      }
      default -> throw new DecodeException("unknown binary agreement message type " + type);
    }
    advance();
  }

  // ---------------------------------------------------------------- receiving votes

  private void onPreProcess(int from, int b, byte[] sig) {
    if (validated) {
      evidence(from, "PRE_PROCESS in a validated agreement");
    } else if (!signed(0, b, from, preProcessName(b), sig)) {
      evidence(from, "bad pre-process signature");
    } else {
      record(state(0), from, b, sig, "pre-process votes");
    }
  }

  private void onPreVote(AbbaPreVote p) {
    String why = unjustified(p);
    if (why != null) {
      evidence(p.signer(), "round " + p.round() + ": " + why);
      return;
    }
    Round rd = state(p.round());
    if (record(rd, p.signer(), p.bit(), p.sig(), "pre-votes in round " + p.round())) {
      if (rd.preVoteProof[p.bit()] == null) {
        rd.preVoteProof[p.bit()] = p;
      }
      learn(p.bit(), p.validation());
    }
  }

  private void onMainVote(int from, AbbaMainVote m) {
    long rn = m.round();
    int v = m.value();
    String why = v == ABSTAIN ? unjustifiedAbstain(rn, m.p0(), m.p1()) : null;
    List<AbbaSig> just = v == ABSTAIN ? null : quorumOf(rn, v, m.just(), quorum, preVoteName(rn, v));
    if (v == 1 && !valid(m.validation())) {
      why = "main-vote for 1 without valid validation";
    } else if (v != ABSTAIN && just == null) {
      why = "main-vote for " + v + " without n-f pre-votes for it";
    }
    if (why == null && !signed(rn, 2 + v, from, mainVoteName(rn, v), m.sig())) {
      why = "bad main-vote signature";
    }
    if (why != null) {
      evidence(from, "round " + rn + ": " + why);
      return;
    }
    Round rd = state(rn);
    Map<Integer, byte[]> votes = rd.mainVotes.get(v);
    if (!firstVote(rd.mainVotes, from, v, "main-votes in round " + rn)) {
      return;
    }
    votes.put(from, m.sig());
    if (v != ABSTAIN && rd.mainJust.get(v) == null) {
      rd.mainJust.set(v, just);
    }
    learn(v == ABSTAIN ? 1 : v, v == ABSTAIN ? m.p1().validation() : m.validation());
    if (v != ABSTAIN && votes.size() >= quorum) {
      decide(rn, v, sigs(votes));
    }
  }

  private void onCoin(int from, long rn, SignatureShare share) {
    if (share.index() != from + 1) {
      evidence(from, "coin share with index " + share.index());
      return;
    }
    if (rn > round + MAX_ROUNDS_AHEAD || (biased && rn == 1)) {
      return; // too far ahead to keep, or a round whose coin is the bias
    }
    Round rd = state(rn);
    if (!rd.badCoin.contains(from)) {
      rd.coinShares.putIfAbsent(from, share);
    }
  }

  private void onDecide(int from, long rn, int b, byte[] proof, List<AbbaSig> sigs) {
    List<AbbaSig> mainVotes = quorumOf(rn, 2 + b, sigs, quorum, mainVoteName(rn, b));
    if (b == 1 && !valid(proof)) {
      evidence(from, "DECIDE 1 without valid validation");
    } else if (mainVotes == null) {
      evidence(from, "DECIDE without n-f main-votes of round " + rn);
    } else {
      learn(b, proof);
      decide(rn, b, mainVotes);
    }
  }

  // ---------------------------------------------------------------- justifications

  /** Why a pre-vote is not justified, or null if it is. */
  private String unjustified(AbbaPreVote p) {
    if (p.bit() == 1 && !valid(p.validation())) {
      return "pre-vote for 1 without valid validation";
    }
    if (!signed(p.round(), p.bit(), p.signer(), preVoteName(p.round(), p.bit()), p.sig())) {
      return "bad pre-vote signature";
    }
    if (p.round() == 1) {
      if (validated) {
        return p.soft() || !p.just().isEmpty() ? "round-1 pre-vote with a justification" : null;
      }
      return p.soft() || !quorumSigned(0, p.bit(), p.just(), ctx.f() + 1, preProcessName(p.bit()))
          ? "pre-vote without f+1 pre-process votes for it" : null;
    }
    long prev = p.round() - 1;
    if (!p.soft()) {
      return quorumSigned(prev, p.bit(), p.just(), quorum, preVoteName(prev, p.bit()))
          ? null : "hard pre-vote without n-f pre-votes for it in round " + prev;
    }
    if (!quorumSigned(prev, 2 + ABSTAIN, p.just(), quorum, mainVoteName(prev, ABSTAIN))) {
      return "soft pre-vote without n-f abstaining main-votes in round " + prev;
    }
    Integer coin = coinBit(prev, p.coin());
    return coin != null && coin == p.bit() ? null : "soft pre-vote that is not the coin of round " + prev;
  }

  private String unjustifiedAbstain(long rn, AbbaPreVote p0, AbbaPreVote p1) {
    if (p0.round() != rn || p1.round() != rn || p0.bit() != 0 || p1.bit() != 1) {
      return "abstention not justified by pre-votes for 0 and 1 of its round";
    }
    String why = unjustified(p0);
    why = why != null ? why : unjustified(p1);
    return why == null ? null : "abstention justified by an unjustified pre-vote: " + why;
  }

  /** Whether {@code sigs} holds at least {@code need} valid signatures of distinct parties on {@code name}. */
  private boolean quorumSigned(long rn, int slot, List<AbbaSig> sigs, int need, byte[] name) {
    return quorumOf(rn, slot, sigs, need, name) != null;
  }

  /** The first {@code need} valid signatures of distinct parties on {@code name} in {@code sigs}, or null. */
  private List<AbbaSig> quorumOf(long rn, int slot, List<AbbaSig> sigs, int need, byte[] name) {
    Set<Integer> signers = new HashSet<>();
    List<AbbaSig> out = new ArrayList<>(need);
    for (AbbaSig s : sigs) {
      if (out.size() >= need) {
        break;
      }
      if (!signers.contains(s.signer()) && signed(rn, slot, s.signer(), name, s.sig())) {
        signers.add(s.signer());
        out.add(s);
      }
    }
    return out.size() >= need ? out : null;
  }

  /** Verifies a vote signature, remembering it in the round's state if that round has state. */
  private boolean signed(long rn, int slot, int signer, byte[] name, byte[] sig) {
    if (signer < 0 || signer >= ctx.n()) {
      return false;
    }
    Round rd = rounds.get(rn);
    ByteBuffer s = ByteBuffer.wrap(sig);
    if (rd != null && s.equals(rd.verified.get(slot).get(signer))) {
      return true;
    }
    if (!ctx.verify(signer, name, sig)) {
      return false;
    }
    if (rd != null) {
      rd.verified.get(slot).put(signer, s);
    }
    return true;
  }

  private boolean valid(byte[] proof) {
    return proof != null && (Arrays.equals(proof, validation) || validOne.test(proof));
  }

  private void learn(int bit, byte[] proof) {
    if (bit == 1 && validation == null) {
      validation = proof;
    }
  }

  // ---------------------------------------------------------------- the coin

  /** The bit of round {@code rn}'s coin: ours if known, else from a combined value a peer attached. */
  private Integer coinBit(long rn, byte[] attached) {
    if (biased && rn == 1) {
      return 1;
    }
    Round rd = state(rn);
    if (rd.coin == null && attached.length > 0) {
      CoinConfig c = ctx.coin();
      try {
        GroupValue v = GroupValue.decode(attached);
        if (c.scheme().verifyCombined(c.group(), coinName(pid, rn), v)) {
          rd.coin = v;
        }
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return rd.coin == null ? null : c0(rd.coin);
  }

  private int c0(GroupValue v) {
    return ctx.coin().scheme().coinValue(v)[0] & 1;
  }

  /** Combines round {@code rn}'s coin once f+1 shares are in; bad shares are evidence and are dropped. */
  private void combine(long rn, Round rd) {
    CoinConfig c = ctx.coin();
    while (rd.coin == null && rd.coinShares.size() >= c.group().params().k()) {
      try {
        rd.coin = c.scheme().combine(c.group(), coinName(pid, rn), rd.coinShares.values());
      } catch (InvalidSharesException e) {
        for (int index : e.badIndices()) {
          evidence(index - 1, "bad coin share in round " + rn);
          rd.coinShares.remove(index - 1);
          rd.badCoin.add(index - 1);
        }
      } catch (ThresholdException e) {
        throw new IllegalStateException(pid + ": coin shares of round " + rn + " do not combine", e);
      }
    }
  }

  // ---------------------------------------------------------------- progress

  /** Moves this party as far as the votes it holds allow (SINTRA §2.3 steps 1-4). */
  private void advance() {
    if (decision != null || !proposed) {
      return;
    }
    if (round == 0 && !preVoteAfterPreProcessing()) {
      return;
    }
    while (decision == null) {
      Round rd = state(round);
      if (!rd.mainVoted) {
        if (rd.preVoteCount() < quorum) {
          return;
        }
        mainVote(rd);
      }
      if (!rd.released) {
        if (rd.mainVoteCount() < quorum) {
          return;
        }
        rd.released = true; // only now may the adversary learn this round's coin (CKS 2005 §4)
        if (!(biased && round == 1)) {
          CoinConfig c = ctx.coin();
          SignatureShare s = c.scheme().share(c.group(), c.share(), coinName(pid, round));
          multicast(Type.COIN, new AbbaCoin(round, s.encode()).encode());
        }
      }
      if (!nextRound(rd)) {
        return;
      }
    }
  }

  private boolean preVoteAfterPreProcessing() {
    Round pre = state(0);
    if (pre.preVoteCount() < quorum) {
      return false;
    }
    int b = pre.preVotes.get(1).size() >= pre.preVotes.get(0).size() ? 1 : 0; // n−f ≥ 2f+1: ≥ f+1 votes
    List<AbbaSig> just = sigs(pre.preVotes.get(b)).subList(0, ctx.f() + 1);
    round = 1;
    preVote(new AbbaPreVote(ctx.id(), 1, b, null, b == 1 ? validation : NONE, false, just, NONE));
    return true;
  }

  private void mainVote(Round rd) {
    rd.mainVoted = true;
    for (int b = 0; b < 2; b++) {
      if (rd.preVotes.get(b).size() >= quorum) {
        byte[] sig = ctx.sign(mainVoteName(round, b));
        multicast(Type.MAIN_VOTE, new AbbaMainVote(round, b, sig, b == 1 ? validation : NONE,
            sigs(rd.preVotes.get(b)).subList(0, quorum), null, null).encode());
        return;
      }
    }
    byte[] sig = ctx.sign(mainVoteName(round, ABSTAIN));
    multicast(Type.MAIN_VOTE, new AbbaMainVote(round, ABSTAIN, sig, NONE, List.of(), rd.preVoteProof[0],
        rd.preVoteProof[1]).encode());
  }

  /** Pre-votes in the next round if a main-vote's bit or the coin allows it; false if still waiting. */
  private boolean nextRound(Round rd) {
    for (int b = 0; b < 2; b++) {
      if (rd.mainJust.get(b) != null) {
        round++;
        preVote(new AbbaPreVote(ctx.id(), round, b, null, b == 1 ? validation : NONE, false,
            rd.mainJust.get(b), NONE));
        return true;
      }
    }
    if (!(biased && round == 1)) {
      combine(round, rd);
    }
    Integer coin = coinBit(round, NONE);
    if (coin == null) {
      return false;
    }
    byte[] coinBytes = rd.coin == null ? NONE : rd.coin.encode();
    List<AbbaSig> abstentions = sigs(rd.mainVotes.get(ABSTAIN)).subList(0, quorum);
    round++;
    preVote(new AbbaPreVote(ctx.id(), round, coin, null, coin == 1 ? validation : NONE, true, abstentions,
        coinBytes));
    return true;
  }

  private void preVote(AbbaPreVote p) {
    if (p.bit() == 1 && p.validation() == null) {
      throw new IllegalStateException(pid + ": pre-vote for 1 without validation data");
    }
    byte[] sig = ctx.sign(preVoteName(p.round(), p.bit()));
    multicast(Type.PRE_VOTE, p.signed(sig).encode());
  }

  private void decide(long rn, int b, List<AbbaSig> proof) {
    byte[] v = b == 1 ? validation : null;
    decision = new ValidatedBinaryAgreement.Decision(b == 1, v);
    decidedRound = rn;
    // sent to all: see the class comment
    multicast(Type.DECIDE, new AbbaDecide(rn, b, b == 1 ? v : NONE, proof.subList(0, quorum)).encode());
    decide.accept(decision);
  }

  // ---------------------------------------------------------------- state

  private Round state(long rn) {
    return rounds.computeIfAbsent(rn, k -> new Round());
  }

  /** Records a party's justified vote for {@code bit} in the pre-vote slots; false if it voted already. */
  private boolean record(Round rd, int from, int bit, byte[] sig, String what) {
    if (!firstVote(rd.preVotes, from, bit, what)) {
      return false;
    }
    rd.preVotes.get(bit).put(from, sig);
    return true;
  }

  /** Whether {@code from} has no vote among {@code slots} yet; a different earlier one is evidence. */
  private boolean firstVote(List<Map<Integer, byte[]>> slots, int from, int value, String what) {
    for (int v = 0; v < slots.size(); v++) {
      if (slots.get(v).containsKey(from)) {
        if (v != value) {
          evidence(from, "two different " + what);
        }
        return false;
      }
    }
    return true;
  }

  private static List<AbbaSig> sigs(Map<Integer, byte[]> votes) {
    List<AbbaSig> out = new ArrayList<>();
    votes.forEach((signer, sig) -> out.add(new AbbaSig(signer, sig)));
    return out;
  }

  // ---------------------------------------------------------------- names and encodings

  private byte[] preProcessName(int b) {
    return pid.bind("abba/pre-process", new byte[] {(byte) b});
  }

  private byte[] preVoteName(long rn, int b) {
    return pid.bind("abba/pre-vote", new ByteWriter(9).i64(rn).u8(b).toBytes());
  }

  private byte[] mainVoteName(long rn, int v) {
    return pid.bind("abba/main-vote", new ByteWriter(9).i64(rn).u8(v).toBytes());
  }

  private static SignatureShare share(byte[] encoded) {
    try {
      return SignatureShare.decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new DecodeException("coin share: " + e.getMessage());
    }
  }
}
