package org.bftws.core.async;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The slot an envelope of the channel's instances commits its sender to, read from the envelope alone (the
 * test's oracle, independent of what the replica journals): a correct party sends one PROPOSAL per round
 * ({@code abc/r}, SINTRA §2.5), one VOTE per candidate round of a multi-valued agreement ({@code
 * abc/r/mvba}, §2.4), one SEND, signature SHARE and FINAL per consistent broadcast ({@code
 * abc/r/mvba/cb/j}, §2.2), and per binary agreement ({@code abc/r/mvba/vba/k}, CKS 2005 §3; §2.3) one
 * pre-processing vote and, per round, one pre-vote, main-vote, coin share and decision. Fetches and
 * answers commit to nothing.
 */
final class WireSlots {
  private WireSlots() {}

  /** {@code pid#type#key} (the key hex: empty, or the round the payload begins with), or null for no slot. */
  static String of(AsyncMessage m) {
    byte[] key = key(m.pid().segments(), m.type(), m.payload());
    return key == null ? null : m.pid() + "#" + m.type() + "#" + HexFormat.of().formatHex(key);
  }

  private static byte[] key(List<String> pid, int type, byte[] payload) {
    int depth = pid.size();
    if (!pid.get(0).equals("abc") || depth < 2 || !isNumber(pid.get(1))) {
      return null;
    }
    String last = pid.get(depth - 1);
    String parent = pid.get(depth - 2);
    if (depth == 2) {
      return type == AtomicBroadcast.Type.PROPOSAL.code() ? new byte[0] : null;
    }
    if (last.equals("mvba")) {
      return Arrays.copyOf(payload, Math.min(Integer.BYTES, payload.length));
    }
    if (parent.equals("cb")) {
      return type == ConsistentBroadcast.Type.SEND.code() || type == ConsistentBroadcast.Type.SHARE.code()
          || type == ConsistentBroadcast.Type.FINAL.code() ? new byte[0] : null;
    }
    if (parent.equals("vba")) {
      return type == BinaryAgreement.Type.PRE_PROCESS.code() ? new byte[0]
          : Arrays.copyOf(payload, Math.min(Long.BYTES, payload.length));
    }
    return null;
  }

  private static boolean isNumber(String segment) {
    return !segment.isEmpty() && segment.chars().allMatch(Character::isDigit);
  }
}
