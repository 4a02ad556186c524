package org.bftws.core.async;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.Test;

/**
 * A parent instance running one reliable broadcast per party, as SINTRA §2.7's reliable channel and the
 * multi-valued agreement's proposal phase do: children are created by the parent, report to it through a
 * synchronous callback, and their messages may arrive before a slow replica creates them.
 */
public class NestedInstancesTest {
  /** Broadcasts this party's value and outputs, once, the first n−f values delivered (by sender). */
  private static final class Gather extends Protocol {
    final Map<Integer, String> values = new TreeMap<>();
    private final Consumer<Map<Integer, String>> output;
    private boolean done;

    Gather(Context ctx, Pid pid, Consumer<Map<Integer, String>> output) {
      super(ctx, pid);
      this.output = output;
    }

    void start(byte[] value) {
      for (int j = 0; j < ctx.n(); j++) {
        int sender = j;
        ReliableBroadcast rbc = ctx.router().register(
            new ReliableBroadcast(ctx, pid.child("rbc").child(j), j, v -> onDelivered(sender, v)));
        if (j == ctx.id()) {
          rbc.send(value);
        }
      }
    }

    private void onDelivered(int sender, byte[] v) {
      values.put(sender, new String(v, StandardCharsets.UTF_8));
      if (!done && values.size() == ctx.n() - ctx.f()) {
        done = true;
        output.accept(new TreeMap<>(values));
      }
    }

    @Override
    protected void onMessage(int sender, int type, byte[] payload) {
      throw new org.bftws.core.codec.DecodeException("the parent itself has no messages");
    }
  }

  // Reference: SINTRA §2.2, §3 (instances nest; each is identified by its pid)
  @Test
  public void childrenOfASlowReplicaReceiveTheirEarlyMessages() {
    int early = 0;
    for (long seed = 0; seed < 20; seed++) {
      AsyncNet net = new AsyncNet(4, 1, seed, Set.of());
      Pid pid = Pid.root("chan").child(seed);
      Gather[] gather = new Gather[4];
      int[] outputs = new int[4];
      for (int i = 0; i < 4; i++) {
        int me = i;
        gather[i] = new Gather(net.ctx(i), pid, m -> outputs[me]++);
      }
      for (int i = 0; i < 3; i++) {
        int me = i;
        net.input(i, () -> net.ctx(me).router().register(gather[me]).start(("v" + me).getBytes(StandardCharsets.UTF_8)));
      }
      for (int k = 0; k < 30 && net.step(); k++) {
        // replica 3 starts late: messages of its children wait in its router
      }
      early += net.ctx(3).router().buffered();
      net.input(3, () -> net.ctx(3).router().register(gather[3]).start("v3".getBytes(StandardCharsets.UTF_8)));
      net.run();
      for (int i = 0; i < 4; i++) {
        assertEquals("replica " + i + ", seed " + seed, Map.of(0, "v0", 1, "v1", 2, "v2", 3, "v3"), gather[i].values);
        assertEquals("one output, seed " + seed, 1, outputs[i]);
        assertTrue("evidence at " + i + ", seed " + seed + ": " + net.evidence(i), net.evidence(i).isEmpty());
      }
      assertEquals("seed " + seed, 0, net.ctx(3).router().buffered());
    }
    assertTrue("some messages reached replica 3 before its instances existed", early > 0);
  }
}
