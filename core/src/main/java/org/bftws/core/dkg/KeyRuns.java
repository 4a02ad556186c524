package org.bftws.core.dkg;

import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;

/**
 * The coin's and the TDH2 key's runs of {@link Dkg} side by side over one agreed sequence, as {@link GroupDkg}
 * and {@link GroupRefresh} run them; done once both gave their result.
 */
final class KeyRuns {
  private final Dkg<?> coin;
  private final Dkg<?> tdh2;
  private DkgResult coinResult;
  private DkgResult tdh2Result;

  KeyRuns(Dkg<?> coin, Dkg<?> tdh2) {
    this.coin = coin;
    this.tdh2 = tdh2;
  }

  Dkg.Step startCoin() {
    return coin.start();
  }

  Dkg.Step startTdh2() {
    return tdh2.start();
  }

  /**
   * The message {@code body} that replica {@code submitter} had ordered, to the coin's run or the TDH2 one; its
   * step (its faults added to {@code faults}), or null if it changes nothing: a message of another author than
   * its submitter (a fault), or a late one of a finished run.
   *
   * @throws IllegalArgumentException if {@code body} is no message
   */
  Dkg.Step deliver(int submitter, boolean toCoin, byte[] body, java.util.List<String> faults) {
    DkgMessage m = DkgMessage.decode(body);
    if (m.author() != submitter) {
      faults.add("replica " + submitter + " submitted a message of index " + m.author() + ": ignored");
      return null;
    }
    Dkg<?> run = toCoin ? coin : tdh2;
    if (run.done()) {
      return null;
    }
    Dkg.Step s = run.deliver(m);
    faults.addAll(s.faults());
    if (s.output() != null) {
      if (toCoin) {
        coinResult = s.output();
      } else {
        tdh2Result = s.output();
      }
    }
    return s;
  }

  /** Whether both runs gave their result. */
  boolean done() {
    return coinResult != null && tdh2Result != null;
  }

  /** The group's public keys from both runs' results (once {@link #done}). */
  GroupKeys group(GroupMembers members) {
    return new GroupKeys(members.n(), members.f(), members.k(), coinResult.group(), tdh2Result.group(),
        members.replicaKeys(), members.clientKeys());
  }

  /** QUAL of the coin's run and of the TDH2 run, each in increasing order (once {@link #done}). */
  java.util.List<java.util.List<Integer>> qualified() {
    return java.util.List.of(coinResult.qualified(), tdh2Result.qualified());
  }

  /** This replica's shares from both runs, or null if either run left it without one (once {@link #done}). */
  ReplicaKeys keys(ReplicaIdentity me) {
    return coinResult.share() == null || tdh2Result.share() == null ? null
        : new ReplicaKeys(me.index(), coinResult.share(), tdh2Result.share(), me.signingKey());
  }
}
