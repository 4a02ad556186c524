package org.bftws.core.reconfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The group's administrators (docs/design/reconfiguration.md, "The RECONFIGURE request"): m Ed25519 public
 * keys listed in the group's configuration, of which k must sign a reconfiguration. No replica and no client
 * holds authority over the membership; k of m administrators do, so a single stolen administrator key changes
 * nothing when k &gt; 1.
 */
public final class Administrators {
  /** Most administrators a group lists: a handful of operators, not a directory. */
  public static final int MAX = 16;

  private final List<byte[]> keys;
  private final int k;

  public Administrators(List<byte[]> keys, int k) {
    if (keys.isEmpty() || keys.size() > MAX) {
      throw new ReconfigurationException("a group lists 1 to " + MAX + " administrator keys, not " + keys.size());
    }
    if (k < 1 || k > keys.size()) {
      throw new ReconfigurationException("administrator signatures needed: 1 to " + keys.size() + ", not " + k);
    }
    List<byte[]> copy = new ArrayList<>();
    for (byte[] key : keys) {
      if (key.length != Member.KEY_BYTES) {
        throw new ReconfigurationException("an administrator key is a " + Member.KEY_BYTES + "-byte Ed25519 key");
      }
      copy.add(key.clone());
    }
    this.keys = copy;
    this.k = k;
  }

  public int count() {
    return keys.size();
  }

  public int required() {
    return k;
  }

  /** The administrators among {@code signatures} (index → signature) whose signature on {@code data} is valid. */
  int validSigners(byte[] data, Map<Integer, byte[]> signatures) {
    int valid = 0;
    for (Map.Entry<Integer, byte[]> e : signatures.entrySet()) {
      int i = e.getKey();
      if (i >= 0 && i < keys.size() && EpochSigning.verify(keys.get(i), data, e.getValue())) {
        valid++;
      }
    }
    return valid;
  }
}
