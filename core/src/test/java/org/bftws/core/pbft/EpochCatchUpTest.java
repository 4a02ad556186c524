package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.reconfig.MembershipCertificate;
import org.bftws.core.reconfig.Reconfigure;
import org.junit.Test;

/**
 * A member many epochs behind (docs/design/reconfiguration.md, "A member many epochs behind"): its peers keep
 * only the last boundary they crossed, so it is brought to the present by the chain of membership certificates,
 * verified from the membership it knows, and the checkpoint the newest epoch began at, fetched by state transfer
 * (Castro-Liskov §4.3); or it learns from the chain that it was removed, and stops. A forged chain moves it nowhere.
 */
public class EpochCatchUpTest {

  private static void untilSettled(EpochGroup g) {
    g.tickUntil(x -> x.inNewestEpoch() && x.allAnswered() && x.divergent().isEmpty(), 6000);
  }

  private static void change(EpochGroup g, Reconfigure r, String label) {
    long num = g.submit(r.encode());
    g.submit(label);
    untilSettled(g);
    assertTrue(g.verdicts(num).toString(), g.verdicts(num).get(0).startsWith("accepted"));
  }

  /** Six epochs (4 → 7 → 4) go by while replica 3 is down; its peers keep only the last boundary they crossed. */
  private static EpochGroup sixEpochsWithoutReplica3() {
    EpochGroup g = new EpochGroup(4);
    g.submit("before");
    untilSettled(g);
    g.down.add(3);
    for (int k = 0; k < 3; k++) {
      change(g, g.add(), "grow-" + k);
    }
    for (int id = 6; id >= 4; id--) {
      change(g, g.remove(id), "shrink-" + id);
    }
    assertEquals(6, g.replicas.get(0).membership().epoch());
    assertEquals(0, g.replicas.get(3).membership().epoch());
    return g;
  }

  // Replica 3 comes back six epochs late; then replica 0 crashes, so epoch 6 orders only if 3 takes part (1, 2 and
  // 3 are its only quorum): the new requests are answered, and 3 holds the others' state.
  @Test
  public void aReplicaCutOffForMoreEpochsThanAreKeptRejoinsAndOrdersNewRequests() {
    EpochGroup g = sixEpochsWithoutReplica3();
    g.down.remove(3);
    g.down.add(0);
    for (int k = 0; k < 4; k++) {
      g.submit("back-" + k);
    }
    untilSettled(g);
    EpochReplica three = g.replicas.get(3);
    assertEquals(6, three.membership().epoch());
    assertNull(three.stopped());
    assertEquals(g.replicas.get(1).lastExecuted(), three.lastExecuted());
    assertEquals(5, three.start().previous().epoch());
    assertEquals(g.replicas.get(1).membership(), three.chain().newest());
    assertTrue(three.chain().complete(6));
  }

  // Replica 3 is replaced while it is down and the group moves two epochs further: back, it learns from the chain
  // that it was removed, and stops saying so.
  @Test
  public void aReplicaRemovedWhileCutOffLearnsItFromTheChainAndStops() {
    EpochGroup g = new EpochGroup(4);
    g.down.add(3);
    change(g, g.replace(3), "replaced");
    change(g, g.add(), "added");
    change(g, g.add(), "added again");
    g.down.remove(3);
    g.tickUntil(x -> x.replicas.get(3).stopped() != null, 2000);
    String why = g.replicas.get(3).stopped();
    assertTrue(why, why.contains("removed from the group by epoch 1") && why.contains("chain of membership"));
  }

  // Links signed by f members of the epoch before, or by keys that are no member's, are refused: the replica far
  // behind neither stops nor leaves its epoch, however often they come, with a start attached.
  @Test
  public void aForgedChainMovesAReplicaBehindNowhere() {
    EpochGroup g = new EpochGroup(4);
    EpochReplica three = g.replicas.get(3);
    Membership zero = three.membership();
    Membership one = g.signed(Reconfigure.replace(EpochGroup.GROUP, 0, 3, EpochGroup.endpoint(4),
        EpochGroup.KEYS.publicKey(4).getEncoded())).apply(zero, g.admins, EpochGroup.GROUP);
    Membership two = g.signed(Reconfigure.replace(EpochGroup.GROUP, 1, 4, EpochGroup.endpoint(5),
        EpochGroup.KEYS.publicKey(5).getEncoded())).apply(one, g.admins, EpochGroup.GROUP);
    EpochReplica.Start start = new EpochReplica.Start(one, 8, new byte[32], List.of());
    List<List<MembershipCertificate>> forged = List.of(
        List.of(certify(one, zero, 0, 1), certify(two, one, 0, 3)), // one link signed by f = 1 member
        List.of(certify(one, null, 10, 3), certify(two, null, 13, 3))); // signed by three keys that are no member's
    for (List<MembershipCertificate> links : forged) {
      for (int sender : List.of(0, 1, 2)) {
        Ready out = three.receive(ChainMessage.of(sender, 2, links, start).encode(EpochGroup.KEYS.signer(sender)));
        assertTrue(out.effects.isEmpty());
      }
    }
    assertNull(three.stopped());
    assertEquals(0, three.membership().epoch());
    assertEquals(zero, three.chain().newest());
  }

  // A chain message makes a replica answer only the sender that signed it as a member of the epoch it names: one
  // naming replica 1 but signed by another key (or naming an epoch the chain lacks) gets nothing sent to 1, so no
  // one turns a replica's answers on a third party; the same message signed by 1 is answered with the links.
  @Test
  public void aChainMessageIsAnsweredOnlyToTheSenderThatSignedIt() {
    EpochGroup g = new EpochGroup(4);
    g.submit("before");
    untilSettled(g);
    change(g, g.add(), "grown");
    g.tick(g.base.get(GroupConfig.RETRANSMIT_INTERVAL) + 1); // past any answer replica 0 gave 1 while settling
    EpochReplica zero = g.replicas.get(0);
    assertEquals(1, zero.membership().epoch());
    assertTrue(zero.chain().complete(1));
    ChainMessage behind = ChainMessage.of(1, 0, List.of(), null);
    List<byte[]> refused = List.of(behind.encode(EpochGroup.KEYS.signer(2)),
        ChainMessage.of(1, 7, List.of(), null).encode(EpochGroup.KEYS.signer(1)));
    for (byte[] bytes : refused) {
      assertTrue(toReplica(zero.receive(bytes), 1).isEmpty());
    }
    List<Ready.Outbound> answers = toReplica(zero.receive(behind.encode(EpochGroup.KEYS.signer(1))), 1);
    assertEquals(1, answers.size());
    Signed answer = Signed.decode(answers.get(0).bytes());
    assertEquals(Kind.MEMBERSHIP_CHAIN, answer.kind());
    assertEquals(1, ChainMessage.decode(answer).links().size());
  }

  private static List<Ready.Outbound> toReplica(Ready out, int id) {
    return out.messages.stream().filter(o -> o.to() == id && ChainMessage.is(o.bytes())).toList();
  }

  /**
   * {@code next} signed at indexes 0.. by {@code signers} keys: those of {@code previous}'s members, or (previous
   * null) test keys from {@code firstKey} on.
   */
  private static MembershipCertificate certify(Membership next, Membership previous, int firstKey, int signers) {
    Map<Integer, byte[]> sigs = new TreeMap<>();
    for (int i = 0; i < signers; i++) {
      int key = previous != null ? previous.member(i).id() : firstKey + i;
      sigs.put(i, MembershipCertificate.sign(next, EpochGroup.KEYS.signer(key)));
    }
    return new MembershipCertificate(next, sigs);
  }
}
