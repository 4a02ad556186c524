package org.bftws.core.pbft;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.PreparedCertificate;
import org.bftws.core.message.Signed;

/**
 * Everything a replica holds for one sequence number: the paper's message log entry for n (§4.2), the
 * TotalOrderBean of BFT-WS §3.3.1.8. Per-view parts are reset on a view change; the prepared
 * certificate and whether n committed here survive it.
 */
final class Slot {
  final long seq;
  long view;
  Signed prePrepareMessage;
  PrePrepare prePrepare;
  final Map<Integer, Signed> prepares = new HashMap<>();
  final Map<Integer, Signed> commits = new HashMap<>();
  final Map<Integer, byte[]> prepareDigests = new HashMap<>();
  final Map<Integer, byte[]> commitDigests = new HashMap<>();
  Signed ownPrepare;
  Signed ownCommit;
  boolean committedInView;
  /** The batch that committed at seq here (any view): what execution runs. */
  List<Signed> committedBatch;
  byte[] committedDigest;
  /** The highest-view prepared certificate (P_m of §4.4); it survives view changes. */
  PreparedCertificate prepared;
  long preparedView = -1;

  Slot(long seq, long view) {
    this.seq = seq;
    this.view = view;
  }

  void resetForView(long newView) {
    view = newView;
    prePrepareMessage = null;
    prePrepare = null;
    prepares.clear();
    commits.clear();
    prepareDigests.clear();
    commitDigests.clear();
    ownPrepare = null;
    ownCommit = null;
    committedInView = false;
  }

  int matching(Map<Integer, byte[]> votes, byte[] digest) {
    int c = 0;
    for (byte[] d : votes.values()) {
      if (Arrays.equals(d, digest)) {
        c++;
      }
    }
    return c;
  }

  boolean committed() {
    return committedBatch != null;
  }
}
