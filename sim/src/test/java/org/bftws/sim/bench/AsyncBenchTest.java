package org.bftws.sim.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.bftws.core.message.Kind;
import org.bftws.sim.bench.EngineGroup.Ordering;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The engine-comparison benchmark's code paths on a handful of requests: every request is delivered at
 * every replica, the transport counts and per-replica CPU time are filled, and the CSVs have their
 * columns. No timing is asserted.
 */
public class AsyncBenchTest {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  @Test
  public void asyncGroupDeliversEveryRequestAndCountsItsMessages() {
    EngineGroup g = AsyncBench.group(Ordering.ASYNC, 4, 4, true);
    g.run(12, null);
    for (int i = 0; i < g.n; i++) {
      assertEquals("replica " + i, 12, g.executed[i]);
      assertTrue("replica " + i + " CPU time", g.cpuNanos[i] > 0);
    }
    // the channel's own messages between replicas, client requests to all four, replies from each
    assertTrue(g.traffic.byKind.get(Kind.ASYNC).messages > 0);
    assertEquals(g.traffic.peers.messages, g.traffic.byKind.values().stream().mapToLong(c -> c.messages).sum());
    assertEquals(12 * 4, g.traffic.requests.messages);
    assertEquals(12 * 4, g.traffic.replies.messages);
    assertTrue(g.traffic.byProtocol.containsKey("abc proposal"));
    assertTrue("every round decided by an agreement whose DECIDE was seen", g.traffic.agreementsSeen() > 0);
    assertTrue(g.traffic.meanAgreementRounds() >= 1);
  }

  @Test
  public void pbftGroupUnderARandomScheduleDeliversEveryRequest() {
    EngineGroup g = AsyncBench.group(Ordering.PBFT, 4, 4, true, true);
    g.run(12, null);
    for (int i = 0; i < g.n; i++) {
      assertEquals("replica " + i, 12, g.executed[i]);
    }
    assertTrue(g.traffic.byKind.get(Kind.COMMIT).messages > 0);
    assertEquals(null, g.coins);
  }

  @Test
  public void everyModeWritesItsCsv() throws Exception {
    Path dir = tmp.newFolder().toPath();
    String before = System.getProperty("bench.dir");
    System.setProperty("bench.dir", dir.toString());
    try {
      AsyncBench.main(new String[] {"--ordering", "pbft,async", "--batches", "4", "--requests", "8"});
      AsyncBench.main(new String[] {"--ordering", "pbft,async", "--counts", "--schedule", "fifo,random",
          "--batches", "4", "--requests", "8"});
      AsyncBench.main(new String[] {"--memory", "--batches", "4", "--requests", "8", "--samples", "2"});
    } finally {
      if (before == null) {
        System.clearProperty("bench.dir");
      } else {
        System.setProperty("bench.dir", before);
      }
    }
    assertColumns(dir.resolve("engine-async.csv"), AsyncBench.THROUGHPUT_HEADER, 2);
    assertColumns(dir.resolve("engine-async-counts.csv"), AsyncBench.COUNTS_HEADER, 4);
    assertColumns(dir.resolve("engine-async-memory.csv"), AsyncBench.MEMORY_HEADER, 3);
  }

  private static void assertColumns(Path csv, String header, int rows) throws Exception {
    List<String> lines = Files.readAllLines(csv);
    assertEquals(header, lines.get(0));
    assertEquals(csv + ": " + lines, rows + 1, lines.size());
    int columns = header.split(",", -1).length;
    for (String line : lines) {
      assertEquals(line, columns, line.split(",", -1).length);
    }
  }
}
