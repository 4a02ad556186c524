package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.bftws.core.codec.DecodeException;
import org.junit.Test;

/** The asynchronous protocols' message kinds keep the codes they have on the wire, and only those decode. */
public class AsyncKindTest {
  private static List<Integer> codes(AsyncKind[] kinds) {
    return Arrays.stream(kinds).map(AsyncKind::code).toList();
  }

  @Test
  public void codesOnTheWireArePositionsFromOne() {
    assertEquals(List.of(1, 2, 3, 4, 5), codes(ReliableBroadcast.Type.values()));
    assertEquals(List.of(1, 2, 3, 4, 5), codes(ConsistentBroadcast.Type.values()));
    assertEquals(List.of(1, 2, 3, 4, 5), codes(BinaryAgreement.Type.values()));
    assertEquals(List.of(1), codes(MultiValuedAgreement.Type.values()));
    assertEquals(5, AtomicBroadcast.Type.BATCH_ANSWER.code());
    assertEquals(2, AtomicBroadcast.Type.FETCH_DECIDED.code());
  }

  @Test
  public void aCodeDecodesToItsKindAndAnUnknownOneIsMalformed() {
    assertSame(BinaryAgreement.Type.COIN, AsyncKind.of(BinaryAgreement.Type.class, 4, "binary agreement"));
    for (int bad : new int[] {0, 6, 255}) {
      DecodeException e = assertThrows(DecodeException.class,
          () -> AsyncKind.of(BinaryAgreement.Type.class, bad, "binary agreement"));
      assertEquals("unknown binary agreement message type " + bad, e.getMessage());
    }
  }
}
