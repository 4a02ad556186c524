package org.bftws.sim;

import java.util.function.Consumer;
import org.bftws.core.crypto.Signer;
import org.bftws.core.message.Kind;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.reconfig.Member;
import org.bftws.core.reconfig.Membership;
import org.bftws.core.voter.Voter;

/**
 * A client of {@link ReconfigureSimulation} that follows the membership: one call at a time, sent to every member
 * of the newest epoch a correct replica began (the simulator hands it over; real clients will follow the chain of
 * membership certificates) and again every {@code bftws.clientRetransmitTicks}, accepted with f + 1 matching
 * replies from members of that epoch. A closed-loop client ({@link #startAt}) makes {@code requests} calls with a
 * drawn think time; the administrator and the Byzantine member's client call on demand ({@link #call}).
 */
final class SimClient {
  private final ReconfigureSimulation sim;
  private final int node;
  private final Signer key;
  private final String sequence;
  private long number;
  private Signed current;
  private long issuedAt;
  private long lastSent;
  private Consumer<byte[]> then;
  /** The core Voter over the members of {@link #voterEpoch}: a newer epoch's members start a new count. */
  private Voter voter;
  private long voterEpoch = -1;
  private int done;
  private boolean closedLoop;
  private long nextAt = Long.MAX_VALUE;

  SimClient(ReconfigureSimulation sim, int node, Signer key, String name) {
    this.sim = sim;
    this.node = node;
    this.key = key;
    this.sequence = "urn:uuid:sim-reconfigure-" + name;
  }

  /** Makes this a closed-loop client whose first call goes out at {@code time}. */
  void startAt(long time) {
    closedLoop = true;
    nextAt = time;
  }

  /** Issues {@code operation} now; {@code then} gets the accepted result. */
  void call(byte[] operation, Consumer<byte[]> then) {
    if (current != null) {
      throw new IllegalStateException("one call at a time");
    }
    number++;
    Request q = ReconfigureSimulation.request(node, sequence, number, operation);
    current = Signed.sign(Kind.REQUEST, node, q.encode(), key);
    this.then = then;
    issuedAt = sim.now();
    voter = null;
    sendToMembers();
  }

  private void sendToMembers() {
    lastSent = sim.now();
    byte[] wire = current.encode();
    for (Member m : sim.newestBegun().members()) {
      sim.clientSend(node, m.id(), wire);
    }
  }

  void tick() {
    if (closedLoop && current == null && done < sim.requests() && sim.now() >= nextAt) {
      call(sim.operation(sequence, done), result -> {
        done++;
        nextAt = sim.now() + sim.rng().nextInt(20);
      });
    }
    if (current != null && sim.now() - lastSent >= sim.clientRetransmit()) {
      sendToMembers();
    }
  }

  /** A reply from replica {@code from} (the network's sender: links are authenticated). */
  void onReply(int from, byte[] bytes) {
    ReplyBundle b = ReconfigureSimulation.reply(bytes);
    if (current == null || b == null || b.readOnly() || !b.sequenceId().equals(sequence) || b.messageNumber() != number) {
      return;
    }
    Membership m = sim.newestBegun();
    if (m.indexOf(from) < 0) {
      return;
    }
    if (voter == null || voterEpoch != m.epoch()) {
      voter = new Voter(m.f()); // replies from the old members do not count toward the new epoch's f + 1
      voterEpoch = m.epoch();
    }
    if (!voter.add(from, b.result(), b.random())) {
      return;
    }
    Request q = Request.decode(current.body());
    if (closedLoop) {
      sim.checker.delivered(q.id(), b.result(), issuedAt, sim.now());
      sim.answered(issuedAt, sim.now());
    }
    current = null;
    Consumer<byte[]> t = then;
    then = null;
    t.accept(b.result());
  }

  boolean idle() {
    return current == null;
  }

  boolean finished() {
    return !closedLoop || done >= sim.requests();
  }

  long delivered() {
    return done;
  }

  String progress() {
    return node + ":" + done + (current == null ? "" : "+1");
  }
}
