package org.bftws.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;
import org.bftws.core.testkit.HashChainApp;

/**
 * A simulated replica or execution node: one engine and its service, or two under a twins nemesis (each an
 * {@link Instance} on its side), and what the {@link Simulation} does to it (crashes, silence, mutation).
 */
final class ReplicaNode {
  /** One running copy: its engine, its service and, when journaled, its disk. */
  static final class Instance {
    Engine replica;
    HashChainApp app = new HashChainApp();
    final int side;
    /** A journaled PBFT replica's journal ({@link Ready#persist}, compacted): its disk, which a crash keeps. */
    List<Journal.Record> journal = new ArrayList<>();
    /** With {@code --keys dkg}: this copy's key generation (null otherwise). */
    SimDkg.State keyGen;

    Instance(int side) {
      this.side = side;
    }
  }

  final int id;
  final List<Instance> instances = new ArrayList<>();
  final boolean byzantine;
  boolean crashed;
  /** While crashed: when it restarts (reliable links hold its messages until then). */
  long restartAt;
  boolean silent;
  Mutator mutator;
  /** FLAGGING: a primary that batches the flagging client's requests into every pre-prepare it sends. */
  boolean insists;
  /**
   * A correct replica that the key generation left without a share (GJKR: a qualified dealer's bad share,
   * complained about too late to count): it cannot toss coins or open requests, so, as the module documents
   * for a share-less replica, it counts against f from then on and is no longer judged.
   */
  boolean shareLess;

  /** Whether the checker judges what this replica reports: correct and with a share. */
  boolean judged() {
    return !byzantine && !shareLess;
  }

  /** {@code copies} instances (1, or 2 for twins), each with an engine from {@code engines} for this id. */
  ReplicaNode(int id, boolean byzantine, int copies, IntFunction<Engine> engines) {
    this.id = id;
    this.byzantine = byzantine;
    for (int i = 0; i < copies; i++) {
      Instance in = new Instance(copies == 1 ? -1 : i);
      in.replica = engines.apply(id);
      instances.add(in);
    }
  }
}
