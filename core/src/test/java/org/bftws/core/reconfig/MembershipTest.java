package org.bftws.core.reconfig;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.GroupConfig;
import org.junit.Test;

/**
 * Properties of a membership epoch (docs/design/reconfiguration.md, "The membership epoch"): n, f and the quorum
 * follow from the members; engine indexes are positions in stable-id order; epoch 0's ids are its indexes; the
 * encoding round-trips and refuses what is not a group.
 */
public class MembershipTest {

  @Test
  public void epochZeroHasIdsEqualToIndexesAndPbftsSizes() {
    Membership m = Fixture.initial(4);
    assertEquals(0, m.epoch());
    assertEquals(4, m.n());
    assertEquals(1, m.f());
    assertEquals(3, m.quorum());
    assertEquals(4, m.nextId());
    for (int i = 0; i < 4; i++) {
      assertEquals(i, m.indexOf(i));
      assertEquals(i, m.member(i).id());
    }
    assertEquals(-1, m.indexOf(4));
  }

  // Castro-Liskov §4.1's primary is index v mod n; indexes are positions in ascending stable-id order.
  @Test
  public void indexesFollowStableIdsAfterAReplace() {
    List<Member> ms = new ArrayList<>(Fixture.initial(4).members());
    ms.remove(1);
    ms.add(new Member(4, Fixture.endpoint(4), Fixture.key(4)));
    Membership m = new Membership(1, ms, 5);
    assertEquals(List.of(0, 2, 3, 4), m.members().stream().map(Member::id).toList());
    assertEquals(1, m.indexOf(2));
    assertEquals(3, m.indexOf(4));
    assertEquals(-1, m.indexOf(1));
  }

  @Test
  public void sizesForFiveToSevenReplicas() {
    int[][] expected = {{5, 1, 4}, {6, 1, 4}, {7, 2, 5}};
    for (int[] e : expected) {
      Membership m = Fixture.initial(e[0]);
      assertEquals(e[1], m.f());
      assertEquals(e[2], m.quorum());
      GroupConfig cfg = m.config(GroupConfig.defaults());
      assertEquals(e[0], cfg.n());
      assertEquals(e[1], cfg.f());
      assertEquals(e[2], cfg.quorum());
    }
  }

  @Test
  public void encodingRoundTripsAndTheDigestCoversTheEpoch() {
    Membership m = Fixture.initial(5);
    assertEquals(m, Membership.decode(m.encode()));
    Membership later = new Membership(1, m.members(), m.nextId());
    assertTrue(!java.util.Arrays.equals(m.digest(), later.digest()));
  }

  @Test
  public void whatIsNoGroupIsRefused() {
    List<Member> three = Fixture.initial(4).members().subList(0, 3);
    assertThrows(ReconfigurationException.class, () -> new Membership(1, three, 4));
    List<Member> twice = new ArrayList<>(Fixture.initial(4).members());
    twice.add(new Member(4, Fixture.endpoint(4), Fixture.key(0)));
    assertThrows("a key held twice", ReconfigurationException.class, () -> new Membership(1, twice, 5));
    assertThrows("an id reused", ReconfigurationException.class,
        () -> new Membership(1, Fixture.initial(4).members(), 3));
    assertThrows(ReconfigurationException.class, () -> new Member(1, "", Fixture.key(1)));
    assertThrows(ReconfigurationException.class, () -> new Member(1, "http://h", new byte[31]));
    byte[] encoded = Fixture.initial(4).encode();
    byte[] truncated = java.util.Arrays.copyOf(encoded, encoded.length - 1);
    assertThrows(DecodeException.class, () -> Membership.decode(truncated));
  }

  @Test
  public void configurationsTwoAndThreeAreRefused() {
    GroupConfig two = GroupConfig.builder().executing(List.of(0, 1, 2)).build();
    ReconfigurationException e = assertThrows(ReconfigurationException.class,
        () -> Fixture.initial(4).config(two));
    assertTrue(e.getMessage(), e.getMessage().contains(GroupConfig.EXECUTING_REPLICAS.name()));
  }
}
