package org.bftws.core.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.engine.Ready;
import org.junit.Test;

/** Protocol ids, the ASYNC body, the router and the context, without any particular protocol. */
public class AsyncScaffoldTest {
  /** The probe's message types: codes 1 and 2. */
  private enum ProbeKind implements AsyncKind {
    FIRST, ECHO
  }

  /** Records what it receives; on its first message it multicasts once (to test self-delivery). */
  private static final class Probe extends Protocol {
    final List<String> got = new ArrayList<>();
    boolean inHandler;

    Probe(Context ctx, Pid pid) {
      super(ctx, pid);
    }

    @Override
    protected void onMessage(int sender, int type, byte[] payload) {
      assertFalse("handler re-entered", inHandler);
      inHandler = true;
      got.add(sender + ":" + type + ":" + new String(payload, StandardCharsets.UTF_8));
      if (type == 1) {
        multicast(ProbeKind.ECHO, "echo".getBytes(StandardCharsets.UTF_8));
      }
      inHandler = false;
    }
  }

  // Reference: SINTRA §2 (an instance is identified by its protocol identifier), §3.2 (basepid + sender)
  @Test
  public void pidIsHierarchicalAndCanonical() {
    Pid p = Pid.root("abc").child(7).child("mvba").child("cb").child(2);
    assertEquals("abc/7/mvba/cb/2", p.toString());
    assertEquals(p, Pid.decode(p.bytes()));
    assertEquals(Pid.root("abc").child(7).child("mvba").child("cb"), p.parent());
    assertEquals(List.of("abc", "7", "mvba", "cb", "2"), p.segments());
    for (String bad : new String[] {"", "/a", "a/", "a//b", "a b", "a/é", "x".repeat(Pid.MAX_BYTES + 1)}) {
      assertThrows(bad, DecodeException.class, () -> Pid.decode(bad.getBytes(StandardCharsets.UTF_8)));
    }
    assertThrows(IllegalArgumentException.class, () -> Pid.root("a/b"));
  }

  // Reference: SINTRA §2 (the identifier is included in all cryptographic operations of the instance)
  @Test
  public void bindSeparatesInstancesAndPurposes() {
    byte[] data = {1, 2, 3};
    Pid a = Pid.root("c").child(1).child("aba");
    assertFalse(java.util.Arrays.equals(a.bind("coin/1", data), a.parent().child(2).child("aba").bind("coin/1", data)));
    assertFalse(java.util.Arrays.equals(a.bind("coin/1", data), a.bind("coin/2", data)));
    assertArrayEquals(a.bind("coin/1", data), Pid.decode(a.bytes()).bind("coin/1", data));
  }

  @Test
  public void messageRoundTripsAndHostileBodiesGiveDecodeExceptionOnly() {
    AsyncMessage m = new AsyncMessage(Pid.root("t").child(3), 5, new byte[] {9, 8});
    AsyncMessage back = AsyncMessage.decode(m.encode());
    assertEquals(m.pid(), back.pid());
    assertEquals(5, back.type());
    assertArrayEquals(m.payload(), back.payload());
    Random rng = new Random(1);
    for (int i = 0; i < 5000; i++) {
      byte[] b = mutate(m.encode(), rng);
      try {
        AsyncMessage.decode(b);
      } catch (DecodeException expected) {
        // the only failure hostile bytes may cause
      }
    }
  }

  // Reference: SINTRA §2 (messages of an instance that does not exist yet wait for it)
  @Test
  public void earlyMessagesWaitForTheirInstanceAndSelfDeliveryIsQueued() {
    AsyncNet net = new AsyncNet(4, 1, 11, Set.of());
    Pid pid = Pid.root("t").child("probe");
    byte[] hello = "hi".getBytes(StandardCharsets.UTF_8);
    net.post(0, 1, net.forge(0, pid, 1, hello)); // arrives before replica 1 creates the instance
    net.run();
    assertEquals(null, net.ctx(1).router().get(pid));
    Probe[] probes = new Probe[4];
    for (int i = 0; i < 4; i++) {
      int me = i;
      net.input(i, () -> probes[me] = net.ctx(me).router().register(new Probe(net.ctx(me), pid)));
    }
    net.run();
    // the buffered message, then replica 1's own multicast, delivered to itself after the handler
    assertEquals(List.of("0:1:hi", "1:2:echo"), probes[1].got);
    for (int i : new int[] {0, 2, 3}) {
      assertEquals(List.of("1:2:echo"), probes[i].got);
    }
  }

  // Reference: SINTRA §3.2 (abort: the local instance is cleaned up)
  @Test
  public void bufferIsBoundedPerSenderAndClosedInstancesDropMessages() {
    AsyncNet net = new AsyncNet(4, 1, 12, Set.of(0));
    Pid base = Pid.root("flood");
    int flood = Router.MAX_BUFFERED_PER_SENDER + 10;
    for (int i = 0; i < flood; i++) {
      net.post(0, 1, net.forge(0, base.child(i), 1, new byte[0]));
    }
    net.run();
    assertEquals(10, net.ctx(1).router().dropped());
    Pid closed = base.child(0);
    net.input(1, () -> net.ctx(1).router().close(closed));
    net.post(0, 1, net.forge(0, closed, 1, new byte[0]));
    net.run();
    assertEquals("a closed instance's messages are dropped, not buffered", 10, net.ctx(1).router().dropped());
    assertThrows(IllegalStateException.class,
        () -> net.ctx(1).router().register(new Probe(net.ctx(1), closed)));
  }

  // Reference: SINTRA §2.5 (a delivered round of the channel is finished: nothing of it stays)
  @Test
  public void closeBelowEndsNumberedChildrenAndEverythingUnderThem() {
    AsyncNet net = new AsyncNet(4, 1, 14, Set.of(0));
    Context ctx = net.ctx(1);
    Pid abc = Pid.root("abc");
    net.input(1, () -> {
      ctx.router().register(new Probe(ctx, abc.child(1).child("mvba")));
      ctx.router().register(new Probe(ctx, abc.child(2)));
      ctx.router().register(new Probe(ctx, abc.child("x")));
    });
    net.post(0, 1, net.forge(0, abc.child(1).child("mvba").child("cb").child(3), 1, new byte[0]));
    net.post(0, 1, net.forge(0, abc.child(3), 1, new byte[0]));
    net.run();
    assertEquals(2, ctx.router().buffered());
    net.input(1, () -> ctx.router().closeBelow(abc, 2));
    assertEquals("round 1's instance gone, round 2's and a non-numbered child kept", 2, ctx.router().instances());
    assertEquals("round 1's buffered message released, round 3's kept", 1, ctx.router().buffered());
    net.post(0, 1, net.forge(0, abc.child(1).child("mvba").child("vba").child(0), 1, new byte[0]));
    net.post(0, 1, net.forge(0, abc.child(0), 1, new byte[0]));
    net.run();
    assertEquals("messages under closed rounds are dropped", 1, ctx.router().buffered());
    assertThrows(IllegalStateException.class, () -> ctx.router().register(new Probe(ctx, abc.child(1))));
    net.input(1, () -> ctx.router().register(new Probe(ctx, abc.child(3))));
    assertEquals(0, ctx.router().buffered());
  }

  // Lossy links (docs/design/async.md, Retransmission): a peer stalled in a round this replica closed resends
  // its envelopes there; a second copy is answered with what this replica sent in that round (multicasts,
  // and what went to that peer, not what went to a third), once per retransmission interval.
  @Test
  public void aPeerResendingInAClosedRoundGetsWhatThisReplicaSentThere() {
    AsyncNet net = new AsyncNet(4, 1, 15, Set.of(0));
    Context ctx = net.ctx(1);
    Pid abc = Pid.root("abc");
    Pid round = abc.child(5);
    Ready sent = ctx.input(() -> {
      ctx.multicast(round.child("mvba"), 1, utf8("to all"));
      ctx.send(0, round.child("cb").child(0), 2, utf8("to 0"));
      ctx.send(2, round.child("cb").child(2), 2, utf8("to 2"));
      ctx.multicast(abc.child(6), 1, utf8("next round"));
    });
    assertEquals(4, sent.messages.size());
    ctx.router().closeBelow(abc, 6);
    byte[] resent = net.forge(0, round.child("mvba").child("vba").child(0), 2, utf8("vote"));
    assertEquals("a first copy: the peer may only be slower", List.of(), ctx.receive(resent).messages);
    List<Ready.Outbound> answer = ctx.receive(resent).messages;
    assertEquals(2, answer.size());
    for (int i = 0; i < 2; i++) {
      assertEquals(0, answer.get(i).to());
      assertArrayEquals(sent.messages.get(i).bytes(), answer.get(i).bytes());
    }
    assertEquals("once per interval", List.of(), ctx.receive(resent).messages);
    ctx.newInterval();
    assertEquals(2, ctx.receive(resent).messages.size());

    ctx.newInterval();
    byte[] forged = net.forge(0, 3, round.child("mvba"), 1, utf8("claims 0, signed by 3"));
    ctx.receive(forged);
    Ready r = ctx.receive(forged);
    assertEquals("a forged copy is not answered", List.of(), r.messages);
    assertTrue(r.events.toString(), r.events.toString().contains("bad signature"));
    byte[] otherRound = net.forge(2, abc.child(4), 1, utf8("round 4"));
    ctx.receive(otherRound);
    assertEquals("nothing sent in round 4 here: nothing to answer", List.of(), ctx.receive(otherRound).messages);
  }

  // Bounded by what a remote party chooses: a faulty peer sending ever new authentic envelopes to one open instance
  // (new payloads here; junk signatures on envelopes accepted by their MAC are new keys alike) grows the record of
  // envelopes handed on only up to its bound, while every envelope still reaches the instance, and a resent copy
  // of a remembered one is still dropped.
  @Test
  public void theRecordOfEnvelopesHandedOnIsBoundedWhateverAPeerSends() {
    AsyncNet net = new AsyncNet(4, 1, 17, Set.of(0));
    Context ctx = net.ctx(1);
    Pid pid = Pid.root("abc").child(1);
    Probe probe = new Probe(ctx, pid);
    ctx.input(() -> ctx.router().register(probe));
    byte[] first = net.forge(0, pid, 2, utf8("copy 0"));
    ctx.receive(first);
    int sent = 3 * Context.REMEMBERED_PER_SENDER * 4;
    for (int i = 1; i < sent; i++) {
      ctx.receive(net.forge(0, pid, 2, utf8("copy " + i)));
    }
    assertEquals(sent, probe.got.size());
    assertEquals(Context.REMEMBERED_PER_SENDER * 4, ctx.remembered());
    ctx.receive(first);
    assertEquals("a resent copy of a remembered envelope is dropped", sent, probe.got.size());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // Hostile bytes: garbage, truncated and bit-flipped envelopes never throw; they are evidence.
  @Test
  public void hostileEnvelopesNeverCrashAReplica() {
    AsyncNet net = new AsyncNet(4, 1, 13, Set.of(0));
    Context victim = net.ctx(1);
    Pid pid = Pid.root("t").child("rbc").child(0);
    victim.input(() -> victim.router().register(new ReliableBroadcast(victim, pid, 0, p -> { })));
    byte[] valid = net.forge(0, pid, ReliableBroadcast.Type.SEND.code(), "p".getBytes(StandardCharsets.UTF_8));
    Random rng = new Random(13);
    int evidence = 0;
    for (int i = 0; i < 3000; i++) {
      byte[] b = i % 3 == 0 ? randomBytes(rng) : mutate(valid, rng);
      Ready r = victim.receive(b);
      evidence += r.events.size();
    }
    assertTrue("hostile bytes are recorded as evidence: " + evidence, evidence > 2000);
    // validly signed envelopes with garbage bodies or unknown types are evidence against their signer
    Ready r = victim.receive(net.forge(0, pid, 99, new byte[3]));
    assertEquals(0, ((org.bftws.core.engine.Event.Evidence) r.events.get(0)).node());
    assertTrue(victim.receive(net.forge(0, pid, ReliableBroadcast.Type.READY.code(), new byte[31])).events.size() == 1);
  }

  private static byte[] randomBytes(Random rng) {
    byte[] b = new byte[rng.nextInt(200)];
    rng.nextBytes(b);
    return b;
  }

  private static byte[] mutate(byte[] valid, Random rng) {
    byte[] b = valid.clone();
    switch (rng.nextInt(3)) {
      case 0 -> b = java.util.Arrays.copyOf(b, rng.nextInt(b.length));
      case 1 -> b[rng.nextInt(b.length)] ^= (byte) (1 << rng.nextInt(8));
      default -> b[rng.nextInt(Math.min(b.length, 12))] = (byte) rng.nextInt(256); // lengths and codes
    }
    return b;
  }
}
