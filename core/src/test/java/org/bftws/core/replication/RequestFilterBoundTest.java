package org.bftws.core.replication;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * The copies a replica holds for replicated clients' requests (BFT-WS §3.4 filtering) are bounded per member:
 * a faulty member sending ever new requests that no other member sends fills only its own share, and a
 * correct member's copies still get in.
 */
public class RequestFilterBoundTest {
  private static final int PER_MEMBER = 8;
  private static final int FAULTY = 5;
  private static final int CORRECT = 6;

  private final RequestFilter filter = new RequestFilter(ReplicatedClients.parse("4-7"), PER_MEMBER);
  private final String sequence = SequenceOwner.bind(4, "8f7c1a2e-1111-4222-9333-444455556666");

  private Signed copy(int member, long number) {
    Request q = new Request(member, sequence, number, false, new byte[] {(byte) member});
    return Signed.of(Kind.REQUEST, member, q.encode(), new byte[64]);
  }

  private int offer(int member, long number) {
    Signed s = copy(member, number);
    return filter.offer(s, Request.decode(s.body())).size();
  }

  @Test
  public void aFaultyMemberHoldsAtMostItsShareOfCopies() {
    for (long m = 1; m <= 100 * PER_MEMBER; m++) {
      assertEquals("one copy of p+1 = 2 is never enough", 0, offer(FAULTY, m));
      assertTrue("bounded: " + filter.waiting(), filter.waiting() <= PER_MEMBER);
    }
    for (long m = 1; m <= PER_MEMBER; m++) {
      offer(CORRECT, 1_000 + m);
    }
    assertEquals("the correct member's share is its own", 2 * PER_MEMBER, filter.waiting());
  }

  @Test
  public void orderedRequestsFreeTheirMembersShares() {
    for (long m = 1; m <= PER_MEMBER; m++) {
      offer(FAULTY, m);
    }
    for (long m = 1; m <= PER_MEMBER; m++) {
      filter.forget(new RequestId(sequence, m));
    }
    assertEquals(0, filter.waiting());
    for (long m = PER_MEMBER + 1; m <= 2 * PER_MEMBER; m++) {
      offer(FAULTY, m);
    }
    assertEquals("room again after the ordered ones left", PER_MEMBER, filter.waiting());
  }
}
