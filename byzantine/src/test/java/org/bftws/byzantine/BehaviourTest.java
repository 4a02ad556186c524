package org.bftws.byzantine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.AsyncReplica;
import org.bftws.core.async.Pid;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.ReplyCertificate;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.Replica;
import org.bftws.core.testkit.TestKeys;
import org.bftws.module.config.Ordering;
import org.bftws.module.order.EngineDecorator;
import org.junit.After;
import org.junit.Test;

/** Each behaviour's rewriting of what a correct PBFT replica (core's) sends, checked on real signed messages. */
public class BehaviourTest {
    private static final int CLIENT = 4;
    private final GroupConfig cfg = GroupConfig.defaults();
    private final TestKeys keys = TestKeys.seeded(5, 42);

    /** The tests set the JVM's property; each leaves it as it found it. */
    private final String propertyBefore = System.getProperty(ByzantineDecorator.PROPERTY);

    @After
    public void restoreProperty() {
        if (propertyBefore == null) {
            System.clearProperty(ByzantineDecorator.PROPERTY);
        } else {
            System.setProperty(ByzantineDecorator.PROPERTY, propertyBefore);
        }
    }

    private Node node(int id) {
        Engine engine = Replica.builder(cfg, id, keys.signer(id), keys.verifier()).build();
        return new Node(engine, new EngineDecorator.Context(cfg, id, keys.signer(id), Ordering.PBFT));
    }

    private byte[] request(long number) {
        Request q = new Request(CLIENT, "urn:s", number, false, ("op" + number).getBytes(StandardCharsets.UTF_8));
        return Signed.sign(Kind.REQUEST, CLIENT, q.encode(), keys.signer(CLIENT)).encode();
    }

    private Ready.Outbound prePrepare(int requests) {
        List<Signed> batch = new ArrayList<>();
        for (int i = 1; i <= requests; i++) {
            batch.add(Signed.decode(request(i)));
        }
        byte[] pp = Signed.sign(Kind.PRE_PREPARE, 0, PrePrepare.of(0, 1, batch).encode(), keys.signer(0)).encode();
        return new Ready.Outbound(Ready.ALL_REPLICAS, pp);
    }

    @Test
    public void equivocatingPrimarySendsTheNextReplicaAnotherCorrectlySignedBatchAtTheSameSequenceNumber() {
        Ready.Outbound pp = prePrepare(2);
        List<Ready.Outbound> out = new Equivocate(node(0)).outgoing(List.of(pp));
        assertEquals(3, out.size());
        for (Ready.Outbound o : out) {
            Signed s = Signed.decode(o.bytes());
            assertTrue(s.verify(keys.verifier()));
            PrePrepare p = PrePrepare.decode(s.body());
            assertEquals(1, p.seq());
            assertEquals(o.to() == 1, !java.util.Arrays.equals(o.bytes(), pp.bytes()));
        }
    }

    @Test
    public void equivocatingReplicaLeavesWhatIsNoOwnPrePrepareAlone() {
        Ready.Outbound prepare = new Ready.Outbound(Ready.ALL_REPLICAS,
                Signed.sign(Kind.PREPARE, 0, new byte[8], keys.signer(0)).encode());
        List<Ready.Outbound> in = List.of(prepare, new Ready.Outbound(CLIENT, new byte[] {1, 2}));
        assertEquals(in, new Equivocate(node(0)).outgoing(in));
    }

    @Test
    public void slowPrimaryHoldsItsPrePreparesForSixTenthsOfTheViewChangeTimeout() {
        SlowPrimary slow = new SlowPrimary(node(0));
        assertEquals(cfg.get(GroupConfig.VIEW_CHANGE_TIMEOUT) * 6L / 10, slow.delayTicks());
        Ready.Outbound pp = prePrepare(1);
        Ready.Outbound other = new Ready.Outbound(CLIENT, new byte[] {7});
        assertEquals(List.of(other), slow.outgoing(List.of(pp, other)));
        for (long t = 1; t < slow.delayTicks(); t++) {
            assertEquals("tick " + t, List.of(), slow.onTick());
        }
        assertEquals(List.of(pp), slow.onTick());
        assertEquals(List.of(), slow.onTick());
    }

    @Test
    public void wrongReplyIsCorrectlySignedCoversAnotherResultAndIsTheSameAtEveryLiar() {
        byte[] result = "<v>41</v>".getBytes(StandardCharsets.UTF_8);
        byte[] random = new byte[0];
        List<ReplyCertificate.Entry> entries = List.of(
                new ReplyCertificate.Entry("urn:other", 3, ReplyCertificate.resultDigest(new byte[1], random)),
                new ReplyCertificate.Entry("urn:s", 5, ReplyCertificate.resultDigest(result, random)));
        List<byte[]> lies = new ArrayList<>();
        for (int id : new int[] {0, 1}) {
            Signed cert = Signed.sign(Kind.REPLY, id, new ReplyCertificate(0, entries).encode(), keys.signer(id));
            byte[] bundle = ReplyBundle.of(cert, 1, result, random).encode();
            Ready.Outbound sent = new WrongReply(node(id)).outgoing(List.of(new Ready.Outbound(CLIENT, bundle))).get(0);
            ReplyBundle b = ReplyBundle.decode(sent.bytes());
            assertTrue("a reply the client takes as authentic", b.verify(keys.verifier()));
            assertEquals(id, b.sender());
            assertEquals(5, b.messageNumber());
            lies.add(b.result());
        }
        assertArrayEquals("<v>42</v>".getBytes(StandardCharsets.UTF_8), lies.get(0));
        assertArrayEquals(lies.get(0), lies.get(1));
    }

    @Test
    public void corruptedResultsSwapFlagsAndWrapDigits() {
        assertEquals("<r>false</r>", new String(WrongReply.corrupted("<r>true</r>".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8));
        assertEquals("<v>10</v>", new String(WrongReply.corrupted("<v>19</v>".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8));
        assertEquals("abx", new String(WrongReply.corrupted("ab".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8));
    }

    @Test
    public void selectiveReplicaIsSilentTowardFReplicasOnly() {
        Selective s = new Selective(node(2));
        assertEquals(java.util.Set.of(3), s.ignored());
        byte[] b = {1};
        List<Ready.Outbound> out = s.outgoing(List.of(new Ready.Outbound(Ready.ALL_REPLICAS, b),
                new Ready.Outbound(3, b), new Ready.Outbound(1, b), new Ready.Outbound(CLIENT, b)));
        List<Integer> to = out.stream().map(Ready.Outbound::to).toList();
        assertEquals(List.of(0, 1, 1, CLIENT), to);
    }

    @Test
    public void forgedMessagesNeverCarryAValidSignature() {
        Forge forge = new Forge(node(0));
        forge.outgoing(List.of(prePrepare(1), new Ready.Outbound(Ready.ALL_REPLICAS,
                Signed.sign(Kind.PREPARE, 0, new byte[24], keys.signer(0)).encode())));
        int envelopes = 0;
        for (int t = 0; t < 50; t++) {
            for (Ready.Outbound o : forge.onTick()) {
                Signed s = Behaviour.envelope(o.bytes());
                if (s != null) {
                    envelopes++;
                    assertFalse(s.verify(keys.verifier()));
                }
            }
        }
        assertTrue("some forgeries decode as envelopes: " + envelopes, envelopes > 0);
    }

    @Test
    public void replayResendsOnlyMessagesItReceivedOrSent() {
        Replay replay = new Replay(node(0));
        assertEquals(List.of(), replay.onTick());
        byte[] heard = request(9);
        replay.received(heard);
        List<Ready.Outbound> again = replay.onTick();
        assertEquals(Replay.PER_TICK, again.size());
        for (Ready.Outbound o : again) {
            assertSame(heard, o.bytes());
        }
    }

    @Test
    public void floodSendsCorrectlySignedMessagesOfThisReplica() {
        List<Ready.Outbound> out = new Flood(node(3)).onTick();
        assertEquals(Flood.PER_TICK, out.size());
        for (Ready.Outbound o : out) {
            Signed s = Signed.decode(o.bytes());
            assertEquals(3, s.sender());
            assertTrue(s.verify(keys.verifier()));
        }
    }

    // In an asynchronous group the flood's votes are the asynchronous engine's own kind, for the channel's rounds
    @Test
    public void floodInAnAsynchronousGroupSendsTheAsynchronousEnginesKindForTheChannelsRounds() {
        Engine engine = Replica.builder(cfg, 3, keys.signer(3), keys.verifier()).build(); // its rounds: lastExecuted
        Node async = new Node(engine, new EngineDecorator.Context(cfg, 3, keys.signer(3), Ordering.ASYNC));
        int asyncMessages = 0;
        for (Ready.Outbound o : new Flood(async).onTick()) {
            Signed s = Signed.decode(o.bytes());
            assertEquals(3, s.sender());
            assertTrue(s.verify(keys.verifier()));
            if (s.kind() == Kind.ASYNC) {
                asyncMessages++;
                Pid pid = AsyncMessage.decode(s.body()).pid();
                assertEquals(pid.toString(), AsyncReplica.CHANNEL.segments(), pid.segments().subList(0, 1));
            }
        }
        int votes = 0; // the two variants of five that are votes: prepares and commits under PBFT
        for (int i = 0; i < Flood.PER_TICK; i++) {
            votes += i % 5 < 2 ? 1 : 0;
        }
        assertEquals(votes, asyncMessages);
    }

    @Test
    public void decoratorLeavesTheEngineAloneWithoutThePropertyAndRefusesUnknownBehaviours() {
        Engine engine = Replica.builder(cfg, 0, keys.signer(0), keys.verifier()).build();
        EngineDecorator.Context ctx = new EngineDecorator.Context(cfg, 0, keys.signer(0), Ordering.PBFT);
        System.clearProperty(ByzantineDecorator.PROPERTY);
        assertSame(engine, new ByzantineDecorator().decorate(engine, ctx));
        System.setProperty(ByzantineDecorator.PROPERTY, "flood");
        Engine byz = new ByzantineDecorator().decorate(engine, ctx);
        assertNotEquals(engine, byz);
        assertTrue(byz.describe(), byz.describe().startsWith("Byzantine (flood)"));
        assertRefused("conflict", engine, ctx, "bftws.ordering=async");
        assertRefused("no-such-behaviour", engine, ctx, "conflict");
    }

    /** The decorator refuses {@code kind} for this replica, naming {@code why}. */
    private static void assertRefused(String kind, Engine engine, EngineDecorator.Context ctx, String why) {
        System.setProperty(ByzantineDecorator.PROPERTY, kind);
        try {
            new ByzantineDecorator().decorate(engine, ctx);
            fail(kind + " taken");
        } catch (IllegalArgumentException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains(why));
        }
    }

    @Test
    public void asynchronousReplicasRefuseThePrimarysBehavioursAndTakeTheOthers() {
        EngineDecorator.Context ctx = new EngineDecorator.Context(cfg, 0, keys.signer(0), Ordering.ASYNC);
        Engine engine = Replica.builder(cfg, 0, keys.signer(0), keys.verifier()).build();
        for (String kind : List.of("equivocate", "slow-primary")) {
            assertRefused(kind, engine, ctx, "has none");
        }
        assertTaken(List.of("conflict", "wrong-reply", "forge", "replay", "flood", "selective"), engine, ctx);
    }

    @Test
    public void hybridReplicasRefuseWhatNeedsPbftOrTheAsynchronousEngineAndTakeTheSlowLeader() {
        EngineDecorator.Context ctx = new EngineDecorator.Context(cfg, 0, keys.signer(0), Ordering.HYBRID);
        Engine engine = Replica.builder(cfg, 0, keys.signer(0), keys.verifier()).build();
        assertRefused("equivocate", engine, ctx, "sends no pre-prepares");
        assertRefused("conflict", engine, ctx, "bftws.ordering=async");
        assertTaken(List.of("slow-primary", "wrong-reply", "forge", "replay", "flood", "selective"), engine, ctx);
    }

    /** The decorator makes this replica Byzantine with each of {@code kinds}. */
    private static void assertTaken(List<String> kinds, Engine engine, EngineDecorator.Context ctx) {
        for (String kind : kinds) {
            System.setProperty(ByzantineDecorator.PROPERTY, kind);
            Engine byz = new ByzantineDecorator().decorate(engine, ctx);
            assertTrue(byz.describe(), byz.describe().startsWith("Byzantine (" + kind + ")"));
        }
    }

    // Under the hybrid engine the slow leader holds its fast lane's PROPOSEs (instance hyb/<epoch>/<seq>, type 1)
    // and nothing else: not its PREPAREs or COMMITs, nor a fallback's messages of the same type
    @Test
    public void slowLeaderOfTheHybridEngineHoldsItsLanePROPOSEsOnly() {
        Engine engine = Replica.builder(cfg, 0, keys.signer(0), keys.verifier()).build();
        SlowPrimary slow = new SlowPrimary(new Node(engine, new EngineDecorator.Context(cfg, 0, keys.signer(0),
                Ordering.HYBRID)));
        Pid slot = Pid.root("hyb").child(3).child(17);
        Ready.Outbound propose = lane(0, slot, 1);
        List<Ready.Outbound> passed = List.of(lane(0, slot, 2), lane(0, slot, 3),
                lane(0, Pid.root("hyb").child(3).child("mvba"), 1), lane(1, slot, 1), prePrepare(1));
        List<Ready.Outbound> in = new ArrayList<>(passed);
        in.add(1, propose);
        assertEquals(passed, slow.outgoing(in));
        for (long t = 1; t < slow.delayTicks(); t++) {
            assertEquals("tick " + t, List.of(), slow.onTick());
        }
        assertEquals(List.of(propose), slow.onTick());
    }

    private Ready.Outbound lane(int sender, Pid pid, int type) {
        byte[] body = new AsyncMessage(pid, type, new byte[] {9}).encode();
        byte[] envelope = Signed.sign(Kind.ASYNC, sender, body, keys.signer(sender)).encode();
        return new Ready.Outbound(Ready.ALL_REPLICAS, envelope);
    }

    @Test
    public void theArtifactRegistersItsDecoratorWithTheModulesExtensionPoint() {
        Engine engine = Replica.builder(cfg, 1, keys.signer(1), keys.verifier()).build();
        EngineDecorator.Context ctx = new EngineDecorator.Context(cfg, 1, keys.signer(1), Ordering.PBFT);
        System.setProperty(ByzantineDecorator.PROPERTY, "selective");
        assertTrue(EngineDecorator.applyAll(engine, ctx) instanceof ByzantineEngine);
        System.clearProperty(ByzantineDecorator.PROPERTY);
        assertSame(engine, EngineDecorator.applyAll(engine, ctx));
    }
}
