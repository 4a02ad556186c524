package org.bftws.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.ReplicaKeys;

/**
 * Key material written by {@code scripts/keygen} ({@link org.bftws.core.keys.KeyGen}), loaded once and used
 * by every seed instead of the simulator's own dealer: the CT algorithm's threshold key and shares (integrity
 * paper §5), and every algorithm's replica Ed25519 keys. Clients keep the simulator's keys.
 */
record SimKeys(Path dir, GroupKeys group, List<ReplicaKeys> replicas) {
  SimKeys {
    replicas = List.copyOf(replicas);
  }

  /**
   * Loads and checks {@code dir} (every file is validated by {@link KeyFiles}) for a group of n replicas
   * tolerating f, and, with CT, the scheme the run asks for.
   *
   * @throws IllegalArgumentException naming the mismatch, or the file and field at fault
   */
  static SimKeys load(Path dir, int n, int f, SchemeId scheme) {
    GroupKeys group;
    List<ReplicaKeys> replicas = new ArrayList<>();
    try {
      group = KeyFiles.readGroup(dir.resolve(KeyFiles.GROUP_FILE));
      if (group.n() != n || group.f() != f) {
        throw new IllegalArgumentException("the keys in " + dir + " are for n=" + group.n() + " f=" + group.f()
            + ", the simulation runs n=" + n + " f=" + f + " (use --replicas " + group.n() + " or scripts/keygen --replicas " + n + ")");
      }
      if (scheme != null && group.scheme() != scheme) {
        throw new IllegalArgumentException("the keys in " + dir + " are for the " + group.scheme().label()
            + " scheme, the simulation asks for " + scheme.label() + " (use --scheme " + group.scheme().label() + ")");
      }
      for (int i = 1; i <= n; i++) {
        replicas.add(KeyFiles.readReplica(dir.resolve(KeyFiles.replicaFileName(i)), group));
      }
    } catch (KeyFileException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return new SimKeys(dir, group, replicas);
  }

  /** The threshold material as the dealer handed it out (share i+1 to replica i). */
  Dealt dealt() {
    List<KeyShare> shares = new ArrayList<>();
    for (ReplicaKeys r : replicas) {
      shares.add(r.share());
    }
    return new Dealt(group.threshold(), shares);
  }
}
