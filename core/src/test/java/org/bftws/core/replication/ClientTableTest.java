package org.bftws.core.replication;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.bftws.core.message.SequenceOwner;
import org.junit.Test;

/**
 * The client table stays bounded under short-lived clients (each creates a sequence, orders a request and
 * terminates it, or crashes before terminating) while exactly-once survives pruning: every message of a pruned
 * sequence, replayed, is old.
 */
public class ClientTableTest {
  private static final long RETENTION = 32;
  /** The pruning interval the table derives from a short retention: every retention / 16 ordered requests. */
  private static final long PRUNE_EVERY = RETENTION / 16;
  private static final int CLIENT = 7;

  /** A bound id born at {@code millis} (a version 7 UUID, as the module derives them). */
  static String sequence(int client, long millis, int n) {
    return SequenceOwner.bind(client, String.format("%08x-%04x-7000-8000-%012x", millis >>> 16, millis & 0xFFFF, n));
  }

  @Test
  public void theBirthTimeIsReadFromAVersion7Id() {
    assertEquals(1_700_000_000_123L, SequenceOwner.birth(sequence(3, 1_700_000_000_123L, 1)));
    assertEquals(-1, SequenceOwner.birth(SequenceOwner.bind(3, "8f7c1a2e-1111-8222-9333-444455556666")));
    assertEquals(-1, SequenceOwner.birth("urn:uuid:0190b2a0-0000-7000-8000-000000000001"));
  }

  @Test
  public void shortLivedClientsLeaveABoundedTableAndTheirReplaysNeverRunAgain() {
    ClientTable table = new ClientTable(RETENTION);
    int clients = 1_000;
    for (int c = 0; c < clients; c++) {
      String seq = sequence(CLIENT, 1_000 + c, c);
      table.ordered(new RequestId(seq, 1), CLIENT);
      table.terminated(Request.terminate(CLIENT, seq), CLIENT);
      assertTrue("bounded: " + table.size(), table.size() <= RETENTION / 2 + PRUNE_EVERY);
    }
    for (int c = 0; c < clients; c++) {
      String seq = sequence(CLIENT, 1_000 + c, c);
      assertFalse("a replay of sequence " + c + " is old", table.isNew(new RequestId(seq, 1)));
      assertFalse(table.isNew(new RequestId(seq, 2)));
    }
    assertTrue("a sequence born later is new", table.isNew(new RequestId(sequence(CLIENT, 5_000, 1), 1)));
    assertTrue("another client's marks are its own", table.isNew(new RequestId(sequence(CLIENT + 1, 1_000, 1), 1)));
  }

  @Test
  public void activeSequencesAndIdsWithoutBirthTimeAreKept() {
    ClientTable table = new ClientTable(RETENTION);
    String active = sequence(CLIENT, 10, 1);
    String plain = "urn:uuid:plain";
    table.ordered(new RequestId(plain, 1), CLIENT);
    table.terminated(Request.terminate(CLIENT, plain), CLIENT);
    long number = 0;
    for (int i = 0; i < 10 * RETENTION; i++) {
      if (i % (RETENTION / 2) == 0) {
        table.ordered(new RequestId(active, ++number), CLIENT);
      }
      String s = sequence(CLIENT + 1, 20 + i, i);
      table.terminated(Request.terminate(CLIENT + 1, s), CLIENT + 1);
    }
    assertTrue(table.get(active) != null && table.get(plain) != null);
    assertTrue(table.isNew(new RequestId(active, number + 1)));
    assertFalse(table.isNew(new RequestId(active, number)));
  }

  /**
   * A client that crashed never terminates its sequence: idle for the retention, it is pruned like a tombstone,
   * and none of its requests, replayed or not yet ordered, executes afterwards; the client's later sequences do.
   */
  @Test
  public void aSequenceNeverTerminatedIsPrunedOnceIdleAndItsRequestsStayOld() {
    ClientTable table = new ClientTable(RETENTION);
    String crashed = sequence(CLIENT, 10, 1);
    table.ordered(new RequestId(crashed, 1), CLIENT);
    table.ordered(new RequestId(crashed, 2), CLIENT);
    for (int i = 0; i < RETENTION + 2 * PRUNE_EVERY; i++) {
      String s = sequence(CLIENT + 1, 20 + i, i);
      table.ordered(new RequestId(s, 1), CLIENT + 1);
      assertTrue("bounded: " + table.size(), table.size() <= RETENTION + PRUNE_EVERY + 1);
    }
    assertEquals("pruned", null, table.get(crashed));
    for (long n = 1; n <= 4; n++) {
      assertFalse("message " + n + " of the pruned sequence is old", table.isNew(new RequestId(crashed, n)));
    }
    assertTrue("the client's next sequence is new", table.isNew(new RequestId(sequence(CLIENT, 11, 2), 1)));
  }

  @Test
  public void replicasThatOrderedTheSameHistoryEncodeTheSameTableAndStateTransferKeepsTheMarks() {
    ClientTable a = new ClientTable(RETENTION);
    ClientTable b = new ClientTable(RETENTION);
    for (int c = 0; c < 200; c++) {
      for (ClientTable t : new ClientTable[] {a, b}) {
        String seq = sequence(CLIENT, 1_000 + c, c);
        t.ordered(new RequestId(seq, 1), CLIENT);
        t.terminated(Request.terminate(CLIENT, seq), CLIENT);
      }
    }
    assertArrayEquals(ordering(a), ordering(b));
    ClientTable installed = new ClientTable(RETENTION);
    installed.readOrdering(new ByteReader(ordering(a)));
    assertArrayEquals(ordering(a), ordering(installed));
    assertFalse(installed.isNew(new RequestId(sequence(CLIENT, 1_000, 0), 1)));
  }

  private static byte[] ordering(ClientTable t) {
    ByteWriter w = new ByteWriter();
    t.writeOrdering(w);
    return w.toBytes();
  }
}
