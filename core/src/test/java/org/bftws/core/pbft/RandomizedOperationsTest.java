package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.TestRandom;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.junit.Test;

/**
 * Integrity paper §4: "the primary checks whether the operation is randomized"; a backup verifies it, and
 * refusing needless work is a DoS defence. The embedding's {@link RandomizedOperations} decides — here
 * "operations whose name starts with deal" — for both algorithms (BA and CT), on four replicas (f = 1).
 */
public class RandomizedOperationsTest {
  private static final int CLIENT = 4;
  private static final RandomizedOperations DEALS =
      q -> new String(q.operation(), StandardCharsets.US_ASCII).startsWith("deal");

  /** Four replicas and one client on a FIFO in-memory network; replica 0's own sends can be dropped. */
  private static final class Group {
    final Map<Integer, Signer> signers = new HashMap<>();
    final Verifier verifier;
    final Replica[] replicas = new Replica[4];
    final List<List<Effect.Execute>> executed = new ArrayList<>();
    final List<List<Event.Evidence>> evidence = new ArrayList<>();
    final ArrayDeque<Object[]> net = new ArrayDeque<>();
    final List<Object[]> sent = new ArrayList<>();
    boolean primarySilent;
    long number;

    Group(boolean ct) {
      verifier = TestKeys.ed25519(CLIENT + 1, 11, signers);
      ThresholdScheme cks = Thresholds.scheme(SchemeId.CKS);
      Dealt dealt = ct ? cks.deal(ThresholdParams.forF(1), TestRandom.seeded(3)) : null;
      for (int i = 0; i < 4; i++) {
        Random entropy = new Random(50 + i);
        RandomnessConfig rc = ct
            ? RandomnessConfig.ct(new CoinConfig(cks, dealt.group(), dealt.share(i + 1),
                "urn:bftws:ops-test".getBytes(StandardCharsets.US_ASCII)))
            : RandomnessConfig.ba(entropy::nextBytes);
        replicas[i] = new Replica(GroupConfig.defaults(), i, signers.get(i), verifier, Role.BOTH, rc.withOperations(DEALS));
        executed.add(new ArrayList<>());
        evidence.add(new ArrayList<>());
      }
    }

    Signed request(String op, boolean flagged) {
      Request q = new Request(CLIENT, "urn:uuid:ops-test", ++number, flagged, op.getBytes(StandardCharsets.US_ASCII));
      return Signed.sign(Kind.REQUEST, CLIENT, q.encode(), signers.get(CLIENT));
    }

    void toReplicas(Signed m, int... to) {
      for (int i : to) {
        net.add(new Object[] {CLIENT, i, m.encode()});
      }
    }

    void handle(int i, Ready r) {
      TestNet.fanOut(i, 4, r, (to, bytes) -> send(i, to, bytes));
      for (Event e : r.events) {
        if (e instanceof Event.Evidence ev) {
          evidence.get(i).add(ev);
        }
      }
      for (Effect e : r.effects) {
        if (e instanceof Effect.Execute ex) {
          executed.get(i).add(ex);
          handle(i, replicas[i].executed(ex.seq(), TestNet.results(ex, op -> op)));
        } else if (e instanceof Effect.CaptureState cs) {
          handle(i, replicas[i].stateCaptured(cs.seq(), new byte[32]));
        }
      }
    }

    private void send(int from, int to, byte[] bytes) {
      if (from == 0 && primarySilent) {
        return;
      }
      Object[] m = {from, to, bytes};
      sent.add(m);
      net.add(m);
    }

    void run() {
      while (!net.isEmpty()) {
        Object[] m = net.poll();
        int to = (Integer) m[1];
        handle(to, replicas[to].receive((byte[]) m[2]));
      }
    }

    void tick(int times) {
      for (int t = 0; t < times; t++) {
        for (int i = 0; i < 4; i++) {
          handle(i, replicas[i].tick());
        }
        run();
      }
    }

    long sentOfKind(Kind kind) {
      return sent.stream().filter(m -> ((byte[]) m[2])[0] == kind.code()).count();
    }

    /** The random number replica i executed the request with this operation with (null: not executed). */
    byte[] randomOf(int i, String op) {
      for (Effect.Execute ex : executed.get(i)) {
        for (int j = 0; j < ex.requests().size(); j++) {
          if (new String(ex.requests().get(j).operation(), StandardCharsets.US_ASCII).equals(op)) {
            return ex.randoms().get(j);
          }
        }
      }
      return null;
    }
  }

  // §4: the replicas, not the client's flag, decide: an unflagged "deal" gets a random number (the same at
  // every replica), a correctly unflagged "echo" none.
  @Test
  public void theEmbeddingDecidesWhichRequestsAreRandomizedBa() {
    embeddingDecides(false);
  }

  @Test
  public void theEmbeddingDecidesWhichRequestsAreRandomizedCt() {
    embeddingDecides(true);
  }

  private void embeddingDecides(boolean ct) {
    Group g = new Group(ct);
    g.toReplicas(g.request("deal-1", false), 0, 1, 2, 3);
    g.toReplicas(g.request("echo-2", false), 0, 1, 2, 3);
    g.run();
    byte[] first = g.randomOf(0, "deal-1");
    assertEquals(32, first.length);
    for (int i = 0; i < 4; i++) {
      assertTrue("replica " + i, java.util.Arrays.equals(first, g.randomOf(i, "deal-1")));
      assertEquals("replica " + i, 0, g.randomOf(i, "echo-2").length);
      assertTrue(g.evidence.get(i).toString(), g.evidence.get(i).isEmpty());
    }
  }

  // §4 DoS defence: a request flagged randomized for an operation that is not is refused by every
  // replica (the primary does not batch it; nobody keeps it pending, so no view-change timer runs for it),
  // and the client is named in evidence.
  @Test
  public void aNeedlesslyRandomizedRequestIsRefusedEverywhere() {
    for (boolean ct : new boolean[] {false, true}) {
      Group g = new Group(ct);
      g.toReplicas(g.request("echo-1", true), 0, 1, 2, 3);
      g.run();
      g.tick(GroupConfig.defaults().get(GroupConfig.VIEW_CHANGE_TIMEOUT) * 2);
      assertEquals(0, g.sentOfKind(Kind.PRE_PREPARE));
      for (int i = 0; i < 4; i++) {
        Replica r = g.replicas[i];
        assertEquals(0, r.pendingRequests());
        assertEquals(0, r.view());
        assertTrue(g.executed.get(i).isEmpty());
        assertTrue(g.evidence.get(i).toString(), g.evidence.get(i).stream()
            .anyMatch(e -> e.node() == CLIENT && e.what().contains("flagged randomized")));
      }
      // A correctly flagged one is served as usual.
      g.toReplicas(g.request("deal-2", true), 0, 1, 2, 3);
      g.run();
      for (int i = 0; i < 4; i++) {
        assertEquals(32, g.randomOf(i, "deal-2").length);
      }
    }
  }

  // §4 with a Byzantine primary that batches such a request (colluding with the client): no backup
  // prepares, each names the primary, and the view change puts an honest primary in charge, which orders
  // the pending honest request; the refused one never executes.
  @Test
  public void aPrePrepareBatchingOneIsRefusedAndTheViewChangeRecovers() {
    for (boolean ct : new boolean[] {false, true}) {
      Group g = new Group(ct);
      g.primarySilent = true;
      Signed honest = g.request("deal-1", true);
      Signed needless = g.request("echo-2", true);
      g.toReplicas(honest, 1, 2, 3);
      g.run();
      PrePrepare pp = PrePrepare.of(0, 1, List.of(honest, needless));
      Signed forged = Signed.sign(Kind.PRE_PREPARE, 0, pp.encode(), g.signers.get(0));
      g.toReplicas(forged, 1, 2, 3);
      g.run();
      assertEquals("no backup prepared", 0, g.sentOfKind(Kind.PREPARE));
      for (int i = 1; i < 4; i++) {
        assertTrue(g.evidence.get(i).toString(), g.evidence.get(i).stream()
            .anyMatch(e -> e.node() == 0 && e.what().contains("flagged randomized")));
      }
      g.tick(GroupConfig.defaults().get(GroupConfig.VIEW_CHANGE_TIMEOUT) * 4);
      for (int i = 1; i < 4; i++) {
        assertTrue("replica " + i + " view " + g.replicas[i].view(), g.replicas[i].view() >= 1);
        assertEquals(32, g.randomOf(i, "deal-1").length);
        assertEquals(null, g.randomOf(i, "echo-2"));
        assertFalse(g.replicas[i].pendingRequests() > 0);
      }
    }
  }
}
