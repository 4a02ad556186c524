package org.bftws.core.engine;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * The preamble every engine's {@code receive} runs on bytes from the network: decode the envelope, check
 * its sender may send its kind, authenticate it, dispatch it. Anything a correct node would not have sent is
 * recorded as evidence, never fatal (Castro-Liskov TOCS 2002 §2: faulty nodes may send arbitrary messages).
 * The per-engine rules (who may send what, how a message is authenticated, where it goes) are parameters;
 * the evidence texts are fixed here so every engine words them alike.
 */
public final class Envelopes {

  /** Where an engine records what a faulty node sent ({@link Event.Evidence}); node -1 when unknown. */
  @FunctionalInterface
  public interface EvidenceSink {
    void evidence(int node, String what);
  }

  private Envelopes() {}

  /**
   * The envelope in bytes if it decodes and its sender may send its kind; otherwise null, with evidence
   * recorded: against no one for bytes that do not decode (the sender field is not to be trusted), else
   * against the sender, worded by {@code refusal} from the kind.
   */
  public static Signed open(byte[] bytes, Predicate<Signed> allowed, Function<Kind, String> refusal, EvidenceSink sink) {
    Signed s;
    try {
      s = Signed.decode(bytes);
    } catch (DecodeException e) {
      sink.evidence(-1, "malformed envelope: " + e.getMessage());
      return null;
    }
    if (!allowed.test(s)) {
      sink.evidence(s.sender(), refusal.apply(s.kind()));
      return null;
    }
    return s;
  }

  /** {@link #deliver(Signed, Predicate, Predicate, Consumer, EvidenceSink)} with no copies dropped unseen. */
  public static void deliver(Signed s, Predicate<Signed> authentic, Consumer<Signed> dispatch, EvidenceSink sink) {
    deliver(s, copy -> false, authentic, dispatch, sink);
  }

  /**
   * Hands an opened envelope to {@code dispatch} once {@code authentic} accepts it; a {@code held} copy (a
   * retransmission already taken) is dropped without a second check, since signatures dominate a step's
   * cost. A forged envelope, or a body that does not decode (in any of the three steps), is evidence
   * against its sender.
   */
  public static void deliver(Signed s, Predicate<Signed> held, Predicate<Signed> authentic, Consumer<Signed> dispatch,
      EvidenceSink sink) {
    try {
      if (held.test(s)) {
        return;
      }
      if (!authentic.test(s)) {
        sink.evidence(s.sender(), "bad signature on " + s.kind());
      } else {
        dispatch.accept(s);
      }
    } catch (DecodeException e) {
      sink.evidence(s.sender(), "malformed " + s.kind() + ": " + e.getMessage());
    }
  }
}
