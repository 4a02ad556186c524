package org.bftws.core.reconfig;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/**
 * The RECONFIGURE request (docs/design/reconfiguration.md, "The RECONFIGURE request"): add, remove and replace
 * signed by k of m administrators give the next membership; everything else is refused with a reason and
 * changes nothing.
 */
public class ReconfigureTest {
  private final Membership four = Fixture.initial(4);

  private static String refusal(Runnable r) {
    return assertThrows(ReconfigurationException.class, r::run).getMessage();
  }

  @Test
  public void replaceKeepsNAndGivesTheNewcomerTheNextId() {
    Membership next = Fixture.signed(Reconfigure.replace(Fixture.GROUP, 0, 2, Fixture.endpoint(10), Fixture.key(10)), 0)
        .apply(four, Fixture.admins(1), Fixture.GROUP);
    assertEquals(1, next.epoch());
    assertEquals(4, next.n());
    assertEquals(List.of(0, 1, 3, 4), next.members().stream().map(Member::id).toList());
    assertTrue(next.byId(4).hasKey(Fixture.key(10)));
    assertEquals(5, next.nextId());
  }

  @Test
  public void addsGrowTheGroupFromFourToSevenAndRemovesShrinkItBack() {
    Membership m = four;
    for (int node = 4; node < 7; node++) {
      m = Fixture.add(m, node).apply(m, Fixture.admins(1), Fixture.GROUP);
    }
    assertEquals(7, m.n());
    assertEquals(2, m.f());
    assertEquals(3, m.epoch());
    for (int id = 6; id >= 4; id--) {
      m = Fixture.signed(Reconfigure.remove(Fixture.GROUP, m.epoch(), id), 0).apply(m, Fixture.admins(1), Fixture.GROUP);
    }
    assertEquals(4, m.n());
    assertEquals(6, m.epoch());
    assertEquals(7, m.nextId());
  }

  @Test
  public void refusedWithoutEnoughValidAdministratorSignatures() {
    Reconfigure unsigned = Reconfigure.add(Fixture.GROUP, 0, Fixture.endpoint(4), Fixture.key(4));
    assertTrue(refusal(() -> unsigned.apply(four, Fixture.admins(1), Fixture.GROUP)).contains("has 0 valid"));
    Reconfigure byOne = Fixture.signed(unsigned, 1);
    assertTrue(refusal(() -> byOne.apply(four, Fixture.admins(2), Fixture.GROUP)).contains("needs 2 of 3"));
    assertEquals(5, Fixture.signed(unsigned, 1, 2).apply(four, Fixture.admins(2), Fixture.GROUP).n());
    // a replica's key is no administrator's; a signature under another index counts for nothing
    Reconfigure byReplica = unsigned.signedBy(0, Fixture.REPLICAS.signer(0));
    assertTrue(refusal(() -> byReplica.apply(four, Fixture.admins(1), Fixture.GROUP)).contains("has 0 valid"));
    Reconfigure misfiled = unsigned.signedBy(2, Fixture.ADMINS.signer(0));
    assertTrue(refusal(() -> misfiled.apply(four, Fixture.admins(1), Fixture.GROUP)).contains("has 0 valid"));
  }

  @Test
  public void aSignatureCoversEveryField() {
    byte[] op = Fixture.add(four, 4).encode();
    byte[] endpoint = Fixture.endpoint(4).getBytes(StandardCharsets.UTF_8);
    int at = indexOf(op, endpoint);
    op[at + endpoint.length - 1] ^= 1; // another port
    Reconfigure tampered = Reconfigure.decode(op);
    assertTrue(refusal(() -> tampered.apply(four, Fixture.admins(1), Fixture.GROUP)).contains("has 0 valid"));
  }

  @Test
  public void refusedForAnotherEpochOrGroupSoItCannotBeReplayed() {
    Reconfigure add = Fixture.add(four, 4);
    Membership five = add.apply(four, Fixture.admins(1), Fixture.GROUP);
    assertTrue(refusal(() -> add.apply(five, Fixture.admins(1), Fixture.GROUP))
        .contains("signed for epoch 0, the group is in epoch 1"));
    byte[] other = "urn:bftws:other".getBytes(StandardCharsets.US_ASCII);
    assertTrue(refusal(() -> add.apply(four, Fixture.admins(1), other)).contains("another group"));
  }

  @Test
  public void refusedWhenTheOutcomeIsNoGroup() {
    assertTrue(refusal(() -> Fixture.signed(Reconfigure.remove(Fixture.GROUP, 0, 1), 0)
        .apply(four, Fixture.admins(1), Fixture.GROUP)).contains("4 to 97 replicas"));
    assertTrue(refusal(() -> Fixture.signed(Reconfigure.remove(Fixture.GROUP, 0, 9), 0)
        .apply(four, Fixture.admins(1), Fixture.GROUP)).contains("no member 9"));
    assertTrue(refusal(() -> Fixture.signed(Reconfigure.add(Fixture.GROUP, 0, Fixture.endpoint(4), Fixture.key(2)), 0)
        .apply(four, Fixture.admins(1), Fixture.GROUP)).contains("another member's"));
    assertTrue(refusal(() -> Fixture.signed(Reconfigure.add(Fixture.GROUP, 0, "", Fixture.key(4)), 0)
        .apply(four, Fixture.admins(1), Fixture.GROUP)).contains("endpoint"));
    // moving a replica to a new address keeps its key: allowed
    Membership moved = Fixture.signed(Reconfigure.replace(Fixture.GROUP, 0, 3, "http://10.0.0.9:8080/x", Fixture.key(3)), 0)
        .apply(four, Fixture.admins(1), Fixture.GROUP);
    assertEquals("http://10.0.0.9:8080/x", moved.byId(4).endpoint());
  }

  @Test
  public void encodingRoundTripsAndMalformedBytesAreRefused() {
    Reconfigure r = Fixture.signed(Reconfigure.replace(Fixture.GROUP, 3, 1, Fixture.endpoint(9), Fixture.key(9)), 0, 2);
    byte[] op = r.encode();
    assertTrue(Reconfigure.isReconfigure(op));
    assertEquals(r.toString(), Reconfigure.decode(op).toString());
    assertTrue(java.util.Arrays.equals(op, Reconfigure.decode(op).encode()));
    assertTrue(!Reconfigure.isReconfigure("counter-increment".getBytes(StandardCharsets.UTF_8)));
    byte[] truncated = java.util.Arrays.copyOf(op, op.length - 3);
    assertTrue(refusal(() -> Reconfigure.decode(truncated)).startsWith("malformed reconfiguration"));
    byte[] magicOnly = Reconfigure.MAGIC.clone();
    assertTrue(refusal(() -> Reconfigure.decode(magicOnly)).startsWith("malformed reconfiguration"));
  }

  @Test
  public void administratorsAreBounded() {
    TestKeys many = TestKeys.seeded(17, 5);
    List<byte[]> keys = many.publicKeys().values().stream().map(k -> k.getEncoded()).toList();
    assertThrows(ReconfigurationException.class, () -> new Administrators(keys, 1));
    assertThrows(ReconfigurationException.class, () -> new Administrators(keys.subList(0, 3), 4));
    assertThrows(ReconfigurationException.class, () -> new Administrators(List.of(new byte[5]), 1));
    assertEquals(2, new Administrators(keys.subList(0, 3), 2).required());
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
