package org.bftws.core.hybrid;

import java.util.List;

import org.bftws.core.async.AsyncMessage;

/**
 * What an observer of a hybrid replica's outgoing messages may tell about them without its state: whether a
 * message is a fast-lane PROPOSE (docs/design/hybrid.md). The fault campaign's slow leader holds its own
 * PROPOSEs back by this (Aardvark, NSDI 2009 §2: a leader just fast enough not to be replaced).
 */
public final class LaneMessages {
  private LaneMessages() {
  }

  /** Whether {@code m} is a PROPOSE of a fast-lane slot: instance {@code hyb/<epoch>/<seq>}, type PROPOSE. */
  public static boolean isProposal(AsyncMessage m) {
    List<String> at = m.pid().segments();
    return at.size() == 3 && at.get(0).equals(HybridReplica.ROOT.segments().get(0)) && isNumber(at.get(1))
        && isNumber(at.get(2)) && m.type() == Epoch.Type.PROPOSE.code();
  }

  private static boolean isNumber(String s) {
    return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
  }
}
