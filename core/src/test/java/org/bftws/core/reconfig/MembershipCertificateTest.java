package org.bftws.core.reconfig;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/**
 * Membership certificates and their chains (docs/design/reconfiguration.md, "The membership certificate"): epoch
 * e+1 signed by a quorum of epoch e, followed link by link from the membership a client or joining replica was
 * configured with.
 */
public class MembershipCertificateTest {

  /** 4 → 5 → 6 → 7 by adds, then a replace and a remove: each link certified by a quorum of the one before. */
  private static List<Membership> epochs() {
    List<Membership> out = new ArrayList<>(List.of(Fixture.initial(4)));
    for (int node = 4; node < 7; node++) {
      Membership m = out.get(out.size() - 1);
      out.add(Fixture.add(m, node).apply(m, Fixture.admins(1), Fixture.GROUP));
    }
    Membership seven = out.get(out.size() - 1);
    Membership replaced = Fixture.signed(Reconfigure.replace(Fixture.GROUP, seven.epoch(), 0, Fixture.endpoint(12),
        Fixture.key(12)), 0).apply(seven, Fixture.admins(1), Fixture.GROUP);
    out.add(replaced);
    out.add(Fixture.signed(Reconfigure.remove(Fixture.GROUP, replaced.epoch(), 5), 0)
        .apply(replaced, Fixture.admins(1), Fixture.GROUP));
    return out;
  }

  private static List<MembershipCertificate> chain(List<Membership> epochs) {
    List<MembershipCertificate> chain = new ArrayList<>();
    for (int e = 1; e < epochs.size(); e++) {
      chain.add(Fixture.certify(epochs.get(e - 1), epochs.get(e), epochs.get(e - 1).quorum()));
    }
    return chain;
  }

  @Test
  public void aClientConfiguredWithEpochZeroFollowsTheChainToTheLatestEpoch() {
    List<Membership> epochs = epochs();
    List<MembershipCertificate> chain = chain(epochs);
    assertEquals(epochs.get(epochs.size() - 1), MembershipCertificate.follow(epochs.get(0), chain));
    // and from any epoch of the chain onwards
    assertEquals(epochs.get(epochs.size() - 1), MembershipCertificate.follow(epochs.get(3), chain.subList(3, chain.size())));
  }

  @Test
  public void aCertificateSurvivesItsEncoding() {
    MembershipCertificate c = chain(epochs()).get(2);
    MembershipCertificate back = MembershipCertificate.decode(c.encode());
    assertEquals(c.next(), back.next());
    back.verify(epochs().get(2));
  }

  // Negative control: one signature short of the previous epoch's quorum (5 of 7 → 4) is refused.
  @Test
  public void fewerThanAQuorumOfThePreviousEpochIsRefused() {
    List<Membership> epochs = epochs();
    Membership seven = epochs.get(3);
    MembershipCertificate short1 = Fixture.certify(seven, epochs.get(4), seven.quorum() - 1);
    String why = assertThrows(ReconfigurationException.class, () -> short1.verify(seven)).getMessage();
    assertTrue(why, why.contains("signed by 4 members of epoch 3, a quorum is 5"));
  }

  // The new epoch's own members cannot certify it: signatures count only by the previous epoch's keys.
  @Test
  public void signaturesOfTheNewMembersOrOfOutsidersCountForNothing() {
    Membership four = Fixture.initial(4);
    Membership replaced = Fixture.signed(Reconfigure.replace(Fixture.GROUP, 0, 1, Fixture.endpoint(15), Fixture.key(15)),
        0).apply(four, Fixture.admins(1), Fixture.GROUP);
    Map<Integer, byte[]> sigs = new TreeMap<>();
    sigs.put(0, MembershipCertificate.sign(replaced, Fixture.REPLICAS.signer(0)));
    sigs.put(1, MembershipCertificate.sign(replaced, Fixture.REPLICAS.signer(15))); // the newcomer, not member 1
    sigs.put(2, MembershipCertificate.sign(replaced, Fixture.REPLICAS.signer(2)));
    assertThrows(ReconfigurationException.class, () -> new MembershipCertificate(replaced, sigs).verify(four));
    sigs.put(1, MembershipCertificate.sign(replaced, Fixture.REPLICAS.signer(1)));
    new MembershipCertificate(replaced, sigs).verify(four);
  }

  @Test
  public void aChainWithAGapOrAForgedLinkIsRefused() {
    List<Membership> epochs = epochs();
    List<MembershipCertificate> chain = new ArrayList<>(chain(epochs));
    List<MembershipCertificate> gap = new ArrayList<>(chain);
    gap.remove(1);
    String why = assertThrows(ReconfigurationException.class,
        () -> MembershipCertificate.follow(epochs.get(0), gap)).getMessage();
    assertTrue(why, why.contains("does not follow epoch 1"));
    // a membership of epoch 2 that no quorum of epoch 1 signed: a different added member
    Membership forged = Fixture.add(epochs.get(1), 19).apply(epochs.get(1), Fixture.admins(1), Fixture.GROUP);
    Map<Integer, byte[]> sigs = chain.get(1).signatures();
    chain.set(1, new MembershipCertificate(forged, sigs));
    assertThrows(ReconfigurationException.class, () -> MembershipCertificate.follow(epochs.get(0), chain));
  }
}
