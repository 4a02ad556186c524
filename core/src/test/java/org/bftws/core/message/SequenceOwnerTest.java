package org.bftws.core.message;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SequenceOwnerTest {
  @Test
  public void aBoundIdNamesItsClient() {
    assertEquals(4, SequenceOwner.of(SequenceOwner.bind(4, "x")));
    assertEquals(123456789, SequenceOwner.of(SequenceOwner.bind(123456789, "urn:uuid:a")));
  }

  @Test
  public void anythingElseIsUnbound() {
    for (String id : new String[] {"urn:uuid:client-0", "", "urn:bftws:client:", "urn:bftws:client:4",
        "urn:bftws:client:4:", "urn:bftws:client::x", "urn:bftws:client:-4:x", "urn:bftws:client:4a:x",
        "urn:bftws:client:1234567890:x", "URN:BFTWS:CLIENT:4:x"}) {
      assertEquals(id, SequenceOwner.UNBOUND, SequenceOwner.of(id));
    }
  }

  @Test(expected = IllegalArgumentException.class)
  public void aBoundIdNeedsAUniquePart() {
    SequenceOwner.bind(4, "");
  }
}
