package org.bftws.core.reconfig;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

/**
 * The chain a replica or client holds (docs/design/reconfiguration.md, "The membership certificate"): verified
 * from the membership of its own configuration, extended only by complete links that follow the newest, its own
 * links completed by the signatures peers send, and nothing added by a link signed by f members or by keys that
 * are no member's.
 */
public class MembershipChainTest {

  /** Epochs 0..3: 4 replicas, an add (5, quorum 4), a replace of 0, a remove of 4. */
  private static List<Membership> epochs() {
    List<Membership> out = new ArrayList<>(List.of(Fixture.initial(4)));
    Membership m = out.get(0);
    out.add(m = Fixture.add(m, 4).apply(m, Fixture.admins(1), Fixture.GROUP));
    out.add(m = Fixture.signed(Reconfigure.replace(Fixture.GROUP, m.epoch(), 0, Fixture.endpoint(5), Fixture.key(5)), 0)
        .apply(m, Fixture.admins(1), Fixture.GROUP));
    out.add(Fixture.signed(Reconfigure.remove(Fixture.GROUP, m.epoch(), 4), 0)
        .apply(m, Fixture.admins(1), Fixture.GROUP));
    return out;
  }

  private static List<MembershipCertificate> certificates(List<Membership> epochs) {
    List<MembershipCertificate> out = new ArrayList<>();
    for (int e = 1; e < epochs.size(); e++) {
      out.add(Fixture.certify(epochs.get(e - 1), epochs.get(e), epochs.get(e - 1).quorum()));
    }
    return out;
  }

  @Test
  public void aHolderOfEpochZeroVerifiesTheChainAndKnowsEveryEpoch() {
    List<Membership> epochs = epochs();
    MembershipChain chain = MembershipChain.verified(epochs.get(0), certificates(epochs));
    assertEquals(epochs.get(3), chain.newest());
    for (int e = 0; e < 4; e++) {
      assertEquals(epochs.get(e), chain.at(e));
      assertEquals(e > 0, chain.complete(e));
    }
    assertNull(chain.at(4));
    assertEquals(2, chain.linksFrom(2).size());
    assertEquals(epochs.get(3), MembershipCertificate.follow(epochs.get(0), chain.linksFrom(1)));
  }

  // One link signed by f members of the epoch before (f = 1 of 4), or by a quorum's worth of keys no member holds,
  // is refused where it is verified and adds nothing where it is offered; the chain after it is unreachable.
  @Test
  public void aLinkSignedByFMembersOrByNonMembersIsRefused() {
    List<Membership> epochs = epochs();
    Membership zero = epochs.get(0);
    MembershipCertificate byF = Fixture.certify(zero, epochs.get(1), zero.f());
    Map<Integer, byte[]> outsiders = new TreeMap<>();
    for (int i = 0; i < zero.quorum(); i++) {
      outsiders.put(i, MembershipCertificate.sign(epochs.get(1), Fixture.REPLICAS.signer(10 + i)));
    }
    MembershipCertificate byOutsiders = new MembershipCertificate(epochs.get(1), outsiders);
    List<MembershipCertificate> rest = certificates(epochs).subList(1, 3);
    for (MembershipCertificate forged : List.of(byF, byOutsiders)) {
      List<MembershipCertificate> links = new ArrayList<>(List.of(forged));
      links.addAll(rest);
      String why = assertThrows(ReconfigurationException.class, () -> MembershipChain.verified(zero, links))
          .getMessage();
      assertTrue(why, why.contains("epoch 1 is signed by " + (forged == byF ? 1 : 0) + " members of epoch 0"));
      MembershipChain chain = new MembershipChain(zero);
      for (MembershipCertificate c : links) {
        assertFalse(chain.offer(c));
      }
      assertEquals(zero, chain.newest());
    }
  }

  // Members of epoch 0 derive epoch 1 from the ordered history, each signs it, and the link completes once the
  // signatures offered by peers make a quorum; a peer's signature of another membership, or a replayed one, adds
  // nothing.
  @Test
  public void derivedLinksCompleteWithTheSignaturesPeersOffer() {
    List<Membership> epochs = epochs();
    Membership zero = epochs.get(0);
    Membership one = epochs.get(1);
    Membership other = Fixture.add(zero, 9).apply(zero, Fixture.admins(1), Fixture.GROUP);
    MembershipChain chain = new MembershipChain(zero);
    assertFalse("a gap", chain.expect(epochs.get(2)));
    assertTrue(chain.expect(one));
    assertFalse("another membership for epoch 1", chain.expect(other));
    chain.sign(1, 0, Fixture.REPLICAS.signer(0));
    assertFalse(chain.complete(1));
    MembershipCertificate peers = Fixture.certify(zero, one, 3);
    assertFalse(chain.offer(new MembershipCertificate(other, peers.signatures())));
    assertTrue(chain.offer(new MembershipCertificate(one, Map.of(1, peers.signatures().get(1)))));
    assertFalse("a signature already held",
        chain.offer(new MembershipCertificate(one, Map.of(1, peers.signatures().get(1)))));
    assertFalse(chain.complete(1));
    assertTrue(chain.offer(peers));
    assertTrue(chain.complete(1));
    chain.link(1).verify(zero);
    // a holder of epoch 0 alone now extends its chain by the completed link, and by the next
    MembershipChain client = new MembershipChain(zero);
    assertTrue(client.offer(chain.link(1)));
    assertFalse("a gap", client.offer(certificates(epochs).get(2)));
    assertTrue(client.offer(certificates(epochs).get(1)));
    assertEquals(epochs.get(2), client.newest());
  }
}
