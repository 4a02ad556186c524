package org.bftws.core.async;

import java.util.function.Predicate;

/**
 * External validity that may depend on data still on its way (SINTRA §2.4's predicate, made patient): the
 * atomic broadcast channel's vectors name the round proposals by digest, and a party can judge a vector only
 * once it holds the proposals it names. A consistent broadcast keeps a SEND it cannot judge yet and judges
 * it again on {@link ConsistentBroadcast#recheck}; a verdict once given must never change.
 */
@FunctionalInterface
public interface Validity {
  enum Verdict { VALID, INVALID, NOT_YET }

  Verdict check(byte[] value);

  /** A predicate that can always tell. */
  static Validity of(Predicate<byte[]> p) {
    return v -> p.test(v) ? Verdict.VALID : Verdict.INVALID;
  }
}
