package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Ready;
import org.bftws.core.reconfig.EpochSigning;
import org.bftws.core.reconfig.Member;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.testkit.EngineHarness.Msg;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/**
 * Old-epoch messages are refused in the new epoch (docs/design/reconfiguration.md): after member 3 of four is
 * replaced, indexes 0..2 keep their members and keys, so without binding signatures to the epoch the
 * pre-prepare, prepares and commits of a batch ordered in epoch 0 would make a committed certificate (Castro-Liskov
 * §4.2) for the newcomer in epoch 1. With {@link EpochSigning} they fail authentication and are evidence.
 */
public class EpochBoundSignaturesTest {
  private static final TestKeys NEWCOMER = TestKeys.seeded(1, 4242);

  /** Epoch 0's traffic to replica 3: a client request ordered by replicas 0..3 of a {@link Cluster}. */
  private static List<Msg> epochZeroTrafficTo3(Cluster c) {
    c.invoke("ordered-in-epoch-0");
    c.deliverAll();
    assertEquals(List.of("ordered-in-epoch-0"), c.operations(3));
    List<Msg> to3 = new ArrayList<>();
    for (Msg m : c.sent) {
      if (m.to() == 3) {
        to3.add(m);
      }
    }
    return to3;
  }

  /** Epoch 1 after replacing member 3 by the newcomer; {@code epoch} 0 gives the same members without binding. */
  private static Membership replaced(Cluster c, long epoch) {
    List<Member> ms = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ms.add(new Member(i, "http://127.0.0.1:" + (9000 + i), c.keys.publicKey(i).getEncoded()));
    }
    ms.add(new Member(4, "http://127.0.0.1:9004", NEWCOMER.publicKey(0).getEncoded()));
    return new Membership(epoch, ms, 5);
  }

  /** The newcomer at index 3 of {@code m}, fed the old traffic: its Executes and evidence. */
  private static Ready feed(Cluster c, Membership m, List<Msg> traffic) {
    GroupConfig cfg = m.config(c.cfg);
    Signer signer = EpochSigning.signer(m.epoch(), NEWCOMER.signer(0));
    Verifier verifier = EpochSigning.verifier(m, c.verifier);
    Replica newcomer = Replica.builder(cfg, m.indexOf(4), signer, verifier).build();
    Ready all = new Ready();
    for (Msg msg : traffic) {
      Ready r = newcomer.receive(msg.bytes());
      all.effects.addAll(r.effects);
      all.events.addAll(r.events);
    }
    return all;
  }

  private static long executes(Ready r) {
    return r.effects.stream().filter(e -> e instanceof Effect.Execute).count();
  }

  @Test
  public void anOldEpochQuorumCommitsNothingInTheNewEpoch() {
    Cluster c = new Cluster(1);
    List<Msg> traffic = epochZeroTrafficTo3(c);
    Ready r = feed(c, replaced(c, 1), traffic);
    assertEquals("nothing of epoch 0 executes in epoch 1", 0, executes(r));
    assertTrue(r.events.stream().noneMatch(e -> e instanceof Event.Committed));
    assertTrue("the old messages are evidence", r.events.stream().anyMatch(e -> e instanceof Event.Evidence));
  }

  // Negative control: the same members without binding signatures to the epoch accept the old quorum.
  @Test
  public void withoutEpochBindingTheOldQuorumWouldCommit() {
    Cluster c = new Cluster(1);
    List<Msg> traffic = epochZeroTrafficTo3(c);
    Ready r = feed(c, replaced(c, 0), traffic);
    assertEquals("the old quorum makes a committed certificate", 1, executes(r));
  }
}
