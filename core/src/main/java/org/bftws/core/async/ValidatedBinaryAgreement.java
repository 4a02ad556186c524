package org.bftws.core.async;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Validated binary Byzantine agreement, optionally biased towards 1 (SINTRA §2.3; Cachin, Kursawe, Petzold
 * and Shoup, "Secure and Efficient Asynchronous Broadcast Protocols", CRYPTO 2001, §3): the ABBA of {@link
 * BinaryAgreement} with external validity. A party proposes 1 only with validation data that {@code
 * validOne} accepts; every vote for 1 carries such data and a vote for 1 without it is evidence, never
 * counted. Hence a party decides 1 only holding valid validation data, and returns it with the decision
 * ("returns this proof together with the decision value"). 0 needs no validation.
 *
 * <p>Differences from plain ABBA: no pre-processing step (validity is external, so the round-1 pre-vote
 * is the proposal itself, justified by its validation); a biased instance takes 1 for the coin of round 1
 * ("replacing the output of the threshold coin in the first round by the desired bias", SINTRA §2.3).
 * Biased validity (CKPS 2001): if f+1 correct parties propose 1, every correct party decides 1 — no party
 * can collect n−f pre-votes for 0 in round 1, so every round-1 main-vote is 1 or abstains, and round 2's
 * pre-votes are then all 1 (a main-vote's bit or the biased coin). With fewer correct parties proposing 1,
 * the decision may be either bit.
 *
 * <p>The instance is registered with the router under {@code pid} like any protocol; it hands its messages
 * to the engine, which sends under the same id.
 */
public final class ValidatedBinaryAgreement extends Protocol {
  /** The decision; {@code validation} is the validation data for 1, non-null iff {@code value}. */
  public record Decision(boolean value, byte[] validation) {
    public Decision {
      if (value != (validation != null)) {
        throw new IllegalArgumentException("validation data must come with 1 and only with 1");
      }
    }
  }

  private final BinaryAgreement engine;

  /**
   * The instance {@code pid}; {@code decide} gets the decision once, inside a handler. {@code validOne}
   * must be deterministic and the same at every correct party (external validity).
   */
  public ValidatedBinaryAgreement(Context ctx, Pid pid, boolean biasedTowardOne, Predicate<byte[]> validOne,
      Consumer<Decision> decide) {
    super(ctx, pid);
    this.engine = new BinaryAgreement(ctx, pid, true, biasedTowardOne, validOne, decide);
  }

  /**
   * This party's proposal, once; {@code validation} is required iff {@code value} is true (it must satisfy
   * {@code validOne}) and is ignored for false.
   *
   * @throws IllegalArgumentException a proposal of 1 without valid validation data
   */
  public void propose(boolean value, byte[] validation) {
    engine.propose(value, value ? validation : null);
  }

  /** The decision, or null while undecided. */
  public Decision decision() {
    return engine.outcome();
  }

  /** The round whose n−f main-votes decided, 0 while undecided. */
  public long decidedRound() {
    return engine.decidedRound();
  }

  @Override
  protected void onMessage(int sender, int type, byte[] payload) {
    engine.onMessage(sender, type, payload);
  }
}
