package org.bftws.core.pbft;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.List;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Journal.Record;
import org.bftws.core.engine.Journal.Type;
import org.bftws.core.engine.Journal;
import org.junit.Test;

public class JournalTest {
  private static Record rec(Type t, long seq) {
    return new Record(t, seq, new byte[] {(byte) t.ordinal(), (byte) seq});
  }

  @Test
  public void recordSurvivesEncoding() {
    Record r = new Record(Type.PREPARED, 77, new byte[] {1, 2, 3});
    Record back = Record.decode(r.encode());
    assertEquals(Type.PREPARED, back.type());
    assertEquals(77, back.seq());
    assertArrayEquals(new byte[] {1, 2, 3}, back.body());
  }

  @Test(expected = DecodeException.class)
  public void truncatedRecordDoesNotDecode() {
    byte[] whole = new Record(Type.SIGNED, 5, new byte[] {9, 9}).encode();
    Record.decode(java.util.Arrays.copyOf(whole, whole.length - 1));
  }

  @Test
  public void compactionKeepsTheLastStableTheLastViewAndWhatIsAboveTheCheckpoint() {
    List<Record> all = List.of(rec(Type.VIEW, 0), rec(Type.STABLE, 10), rec(Type.SIGNED, 12), rec(Type.PREPARED, 19),
        rec(Type.VIEW, 1), rec(Type.SIGNED, 21), rec(Type.STABLE, 20), rec(Type.SIGNED, 20));
    List<Record> kept = Journal.compact(all);
    assertEquals(List.of("VIEW 1", "SIGNED 21", "STABLE 20"),
        kept.stream().map(r -> r.type() + " " + r.seq()).toList());
  }

  @Test
  public void compactionWithoutACheckpointKeepsEveryVote() {
    List<Record> all = List.of(rec(Type.SIGNED, 1), rec(Type.PREPARED, 1), rec(Type.SIGNED, 2));
    assertEquals(3, Journal.compact(all).size());
  }
}
