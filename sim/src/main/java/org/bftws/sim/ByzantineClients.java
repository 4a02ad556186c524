package org.bftws.sim;

import java.util.Random;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.ReplicatedClients;

/**
 * What the simulator's clients do under the client nemeses: a replicated client's members (BFT-WS §3.4,
 * {@link Byzantine#MEMBER}, one of them Byzantine) and a Byzantine client that equivocates and hijacks
 * another's sequence ({@link Byzantine#CLIENT}). The correct clients' requests are {@link Simulation}'s.
 */
final class ByzantineClients {
  private final Simulation sim;

  ByzantineClients(Simulation sim) {
    this.sim = sim;
  }

  /**
   * MEMBER: a member issues under number k the request every member issues under k (drawn from the seed
   * and k alone, so the members agree as a middle tier's replicas executing the same total order do), after
   * its reply to k−1 and its own think time; the Byzantine member (3) an altered one, as soon as any correct
   * member issued k−1, so that its copy of k goes out first. A correct member ends the shared sequence after
   * its last reply, as the others do: the terminate too is ordered once two members sent it.
   */
  void issueAsMember(ClientNode c, ReplicatedClients replicated) {
    if (c.byzantine) {
      int ahead = 0;
      for (ClientNode m : sim.clients) {
        ahead = replicated.isMember(m.core.id()) && !m.byzantine ? Math.max(ahead, m.issued) : ahead;
      }
      if (c.issued < c.quota && c.issued <= ahead) {
        c.issued++;
        byte[] altered = memberOperation(c.issued);
        altered[0] ^= 0x5a;
        sim.handleClient(c, c.core.invokeNumbered(c.issued, altered, false)); // never issued: S3 flags its execution
      }
      return;
    }
    if (!c.terminated && c.issued == c.quota && c.core.outstanding() == 0 && sim.time >= c.nextAt) {
      c.terminated = true;
      c.issuedAt = sim.time;
      sim.checker.issued(Request.terminate(c.core.id(), c.core.sequenceId()));
      sim.handleClient(c, c.core.terminate());
    } else if (c.core.outstanding() == 0 && c.issued < c.quota && sim.time >= c.nextAt) {
      c.issued++;
      c.issuedAt = sim.time;
      byte[] op = memberOperation(c.issued);
      sim.checker.issued(new Request(c.core.id(), c.core.sequenceId(), c.issued, false, op));
      sim.handleClient(c, c.core.invokeNumbered(c.issued, op, false));
    }
  }

  /** MEMBER: the operation every correct member issues under message number k. */
  private byte[] memberOperation(long k) {
    Random r = new Random(sim.o.seed() * 0x9E3779B97F4A7C15L + k);
    byte[] op = new byte[8 + r.nextInt(24)];
    r.nextBytes(op);
    if (sim.o.random() != SimOptions.Randomness.NONE) {
      return MarkedOperations.mark(op, false);
    }
    return op;
  }

  /**
   * A Byzantine client: the same (sequence, number) with a different operation for odd replicas; and, signed
   * with its own key, a request on the sequence of a correct client whose id names it, which must never run.
   */
  void equivocate(ClientNode c, byte[] bytes) {
    Signed s = Signed.decode(bytes);
    Request q = Request.decode(s.body());
    hijack(c, q);
    byte[] other = q.operation().clone();
    other[0] ^= 0x5a;
    Request q2 = new Request(q.client(), q.sequenceId(), q.messageNumber(), q.randomized(), other);
    sim.checker.issued(q);
    sim.checker.issued(q2);
    byte[] alt = Signed.sign(Kind.REQUEST, q.client(), q2.encode(), sim.signers.get(q.client())).encode();
    for (int to = 0; to < sim.o.n(); to++) {
      sim.link(c.core.id(), -1, to, to % 2 == 0 ? bytes : alt);
    }
  }

  /** Not {@link Checker#issued}: S3 flags it if any replica executes it. */
  private void hijack(ClientNode c, Request own) {
    ClientNode victim = sim.clients[sim.rng.nextInt(sim.clients.length)];
    String sequence = victim.core.sequenceId();
    if (victim == c || SequenceOwner.of(sequence) == SequenceOwner.UNBOUND) {
      return;
    }
    Request q = new Request(c.core.id(), sequence, victim.delivered + 1L, false, own.operation());
    byte[] forged = Signed.sign(Kind.REQUEST, q.client(), q.encode(), sim.signers.get(q.client())).encode();
    for (int to = 0; to < sim.o.n(); to++) {
      sim.link(c.core.id(), -1, to, forged);
    }
  }
}
