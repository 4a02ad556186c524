package org.bftws.core.message.hybrid;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.junit.Test;

/** Each hybrid payload record against bytes written field by field as its comment gives them. */
public class HybridPayloadsTest {
  private static final byte[] D = new byte[32];
  private static final byte[] SIG = {1, 2, 3};

  @Test
  public void laneBatchIsSeqPrevAndCountedPayloadsAndItsDigestCoversThem() {
    byte[] wire = new ByteWriter().i64(5).bytes(D).i32(2).bytes(new byte[] {7}).bytes(new byte[0]).toBytes();
    LaneBatch b = new LaneBatch(5, D, List.of(new byte[] {7}, new byte[0]));
    assertArrayEquals(wire, b.encode());
    assertArrayEquals(Digests.sha256(wire), b.digest());
    LaneBatch back = LaneBatch.decode(wire, 2);
    assertEquals(5, back.seq());
    assertEquals(2, back.payloads().size());
    assertThrows(DecodeException.class, () -> LaneBatch.decode(wire, 1));
    assertThrows(DecodeException.class, () -> LaneBatch.decode(Arrays.copyOf(wire, wire.length + 1), 2));
    byte[] seqZero = new ByteWriter().i64(0).bytes(D).i32(0).toBytes();
    assertThrows(DecodeException.class, () -> LaneBatch.decode(seqZero, 2));
    byte[] shortPrev = new ByteWriter().i64(1).bytes(new byte[31]).i32(0).toBytes();
    assertThrows(DecodeException.class, () -> LaneBatch.decode(shortPrev, 2));
  }

  @Test
  public void laneProposalIsTheBatchThenTheLeadersShareAndKeepsTheBatchsDigest() {
    LaneBatch b = new LaneBatch(5, D, List.of(new byte[] {7}));
    byte[] wire = new ByteWriter().bytes(b.encode()).bytes(SIG).toBytes();
    assertArrayEquals(wire, new LaneProposal(b, SIG).encode());
    LaneProposal back = LaneProposal.decode(wire, 1);
    assertArrayEquals(b.digest(), back.batch().digest());
    assertArrayEquals(SIG, back.share());
    assertThrows(DecodeException.class, () -> LaneProposal.decode(wire, 0)); // more requests than a batch holds
    assertThrows(DecodeException.class, () -> LaneProposal.decode(Arrays.copyOf(wire, wire.length + 1), 1));
    byte[] noShare = new ByteWriter().bytes(b.encode()).bytes(new byte[0]).toBytes();
    assertThrows(DecodeException.class, () -> LaneProposal.decode(noShare, 1));
    byte[] longShare = new ByteWriter().bytes(b.encode()).bytes(new byte[LaneProposal.MAX_SHARE + 1]).toBytes();
    assertThrows(DecodeException.class, () -> LaneProposal.decode(longShare, 1));
    byte[] trailingInBatch = new ByteWriter().bytes(Arrays.copyOf(b.encode(), b.encode().length + 1)).bytes(SIG)
        .toBytes();
    assertThrows(DecodeException.class, () -> LaneProposal.decode(trailingInBatch, 1));
  }

  @Test
  public void laneVoteIsSeqDigestShare() {
    byte[] wire = new ByteWriter().i64(3).bytes(D).bytes(SIG).toBytes();
    assertArrayEquals(wire, new LaneVote(3, D, SIG).encode());
    LaneVote v = LaneVote.decode(wire);
    assertEquals(3, v.seq());
    assertArrayEquals(SIG, v.share());
    assertArrayEquals(new ByteWriter().i64(3).raw(D).toBytes(), LaneVote.prepared(3, D));
    assertThrows(DecodeException.class, () -> LaneVote.decode(new ByteWriter().i64(3).bytes(new byte[5]).bytes(SIG)
        .toBytes()));
  }

  @Test
  public void laneFetchIsSeqDigestAttempt() {
    byte[] wire = new ByteWriter().i64(9).bytes(D).i32(2).toBytes();
    assertArrayEquals(wire, new LaneFetch(9, D, 2).encode());
    assertEquals(9, LaneFetch.decode(wire).seq());
    assertEquals(2, LaneFetch.decode(wire).attempt());
    assertThrows(DecodeException.class, () -> LaneFetch.decode(new ByteWriter().i64(-1).bytes(D).i32(0).toBytes()));
  }

  @Test
  public void epochEndIsEpochAttemptValueAndAnAskHasNoValue() {
    byte[] wire = new ByteWriter().i64(6).i32(3).bytes(new byte[] {4, 5}).toBytes();
    assertArrayEquals(wire, new EpochEnd(6, 3, new byte[] {4, 5}).encode());
    EpochEnd back = EpochEnd.decode(wire);
    assertEquals(6, back.epoch());
    assertEquals(3, back.attempt());
    assertArrayEquals(new byte[] {4, 5}, back.value());
    assertEquals(0, EpochEnd.decode(EpochEnd.ask(6, 1).encode()).value().length);
    assertThrows(DecodeException.class, () -> EpochEnd.decode(new ByteWriter().i64(-1).i32(0).bytes(new byte[0])
        .toBytes()));
    assertThrows(DecodeException.class, () -> EpochEnd.decode(Arrays.copyOf(wire, wire.length + 1)));
  }

  @Test
  public void laneSwitchCarriesItsSignerReportBatchAndSignature() {
    byte[] wire = new ByteWriter().i32(2).i64(4).bytes(D).bytes(SIG).i32(1).bytes(new byte[] {9}).bytes(SIG)
        .toBytes();
    LaneSwitch sw = new LaneSwitch(2, 4, D, SIG, List.of(new byte[] {9}), SIG);
    assertArrayEquals(wire, sw.encode());
    LaneSwitch back = LaneSwitch.decode(wire, 4, 1);
    assertEquals(2, back.signer());
    assertEquals(4, back.high());
    assertArrayEquals(sw.signed(), back.signed());
    byte[] batch = new ByteWriter().i32(1).bytes(new byte[] {9}).toBytes();
    assertArrayEquals(new ByteWriter().i64(4).raw(D).raw(Digests.sha256(batch)).toBytes(), sw.signed());
    assertThrows(DecodeException.class, () -> LaneSwitch.decode(wire, 2, 1)); // signer 2 outside a group of 2
    assertThrows(DecodeException.class, () -> LaneSwitch.decode(wire, 4, 0)); // more requests than allowed
  }

  @Test
  public void fallbackVectorIsCountedSwitchesAtMostN() {
    LaneSwitch sw = new LaneSwitch(1, 0, D, new byte[0], List.of(), SIG);
    byte[] wire = new ByteWriter().i32(1).bytes(sw.encode()).toBytes();
    assertArrayEquals(wire, new FallbackVector(List.of(sw)).encode());
    assertEquals(1, FallbackVector.decode(wire, 4, 1).switches().get(0).signer());
    byte[] five = new ByteWriter().i32(5).toBytes();
    assertThrows(DecodeException.class, () -> FallbackVector.decode(five, 4, 1));
  }
}
