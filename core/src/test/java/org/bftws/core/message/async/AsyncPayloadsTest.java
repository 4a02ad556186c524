package org.bftws.core.message.async;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.junit.Test;

/** Each payload record against bytes written field by field as the protocols' comments give them. */
public class AsyncPayloadsTest {
  private static final byte[] D = new byte[32];
  private static final byte[] SIG = {1, 2, 3};

  @Test
  public void cbFinalIsDigestThenCertificate() {
    byte[] wire = new ByteWriter().bytes(D).bytes(SIG).toBytes();
    assertArrayEquals(wire, new CbFinal(D, SIG).encode());
    CbFinal f = CbFinal.decode(wire);
    assertArrayEquals(D, f.digest());
    assertArrayEquals(SIG, f.certificate());
    assertThrows(DecodeException.class, () -> CbFinal.decode(Arrays.copyOf(wire, wire.length + 1)));
  }

  @Test
  public void abcBatchIsCountedPayloadsBoundedByTheBatchSize() {
    byte[] wire = new ByteWriter().i32(2).bytes(new byte[] {7}).bytes(new byte[0]).toBytes();
    assertArrayEquals(wire, new AbcBatch(List.of(new byte[] {7}, new byte[0])).encode());
    assertEquals(2, AbcBatch.decode(wire, 2).payloads().size());
    assertThrows(DecodeException.class, () -> AbcBatch.decode(wire, 1));
  }

  @Test
  public void abcProposalAndItsAnswerDifferOnlyByTheParty() {
    byte[] batch = new AbcBatch(List.of(new byte[] {7})).encode();
    AbcProposal p = new AbcProposal(2, batch, SIG);
    assertArrayEquals(new ByteWriter().bytes(batch).bytes(SIG).toBytes(), p.encodeProposal());
    assertArrayEquals(new ByteWriter().i32(2).bytes(batch).bytes(SIG).toBytes(), p.encodeAnswer());
    assertEquals(3, AbcProposal.decodeProposal(3, p.encodeProposal()).party());
    assertEquals(2, AbcProposal.decodeAnswer(p.encodeAnswer(), 4).party());
    assertThrows(DecodeException.class, () -> AbcProposal.decodeAnswer(p.encodeAnswer(), 2));
    assertThrows(DecodeException.class,
        () -> AbcProposal.decodeAnswer(new AbcProposal(-1, batch, SIG).encodeAnswer(), 4));
  }

  @Test
  public void abcFetchBatchNamesAtMostNProposals() {
    AbcFetchBatch f = new AbcFetchBatch(List.of(new AbcFetchBatch.Wanted(1, D), new AbcFetchBatch.Wanted(3, D)));
    byte[] wire = new ByteWriter().i32(2).i32(1).bytes(D).i32(3).bytes(D).toBytes();
    assertArrayEquals(wire, f.encode());
    assertEquals(3, AbcFetchBatch.decode(wire, 4).wanted().get(1).party());
    assertThrows(DecodeException.class, () -> AbcFetchBatch.decode(wire, 1));
  }

  @Test
  public void abcFetchDecidedAndDecided() {
    byte[] ask = new ByteWriter().i64(5).bytes(D).toBytes();
    assertArrayEquals(ask, new AbcFetchDecided(5, D).encode());
    assertEquals(5, AbcFetchDecided.decode(ask).round());
    byte[] vector = {9, 9};
    byte[] wire = new ByteWriter().i64(5).bytes(vector).i32(1).bytes(SIG).toBytes();
    assertArrayEquals(wire, new AbcDecided(5, vector, List.of(SIG)).encode());
    AbcDecided d = AbcDecided.decode(wire, 4);
    assertArrayEquals(vector, d.vector());
    assertArrayEquals(SIG, d.batches().get(0));
    assertThrows(DecodeException.class, () -> AbcDecided.decode(Arrays.copyOf(wire, wire.length - 1), 4));
  }

  @Test
  public void mvbaVoteIsRoundYesAndTheCertificate() {
    byte[] yes = new ByteWriter().i32(2).bool(true).bytes(D).bytes(SIG).toBytes();
    assertArrayEquals(yes, new MvbaVote(2, new CbFinal(D, SIG)).encode());
    MvbaVote v = MvbaVote.decode(yes, 4);
    assertEquals(2, v.round());
    assertArrayEquals(SIG, v.certified().certificate());
    byte[] no = new ByteWriter().i32(0).bool(false).toBytes();
    assertArrayEquals(no, new MvbaVote(0, null).encode());
    assertEquals(false, MvbaVote.decode(no, 4).yes());
    assertThrows(DecodeException.class, () -> MvbaVote.decode(yes, 2));
    assertThrows(DecodeException.class, () -> MvbaVote.decode(new MvbaVote(-1, null).encode(), 4));
  }

  @Test
  public void abbaPreProcessCoinAndDecide() {
    byte[] pre = new ByteWriter().u8(1).bytes(SIG).toBytes();
    assertArrayEquals(pre, new AbbaPreProcess(1, SIG).encode());
    assertThrows(DecodeException.class, () -> AbbaPreProcess.decode(new ByteWriter().u8(2).bytes(SIG).toBytes()));
    byte[] coin = new ByteWriter().i64(3).bytes(SIG).toBytes();
    assertArrayEquals(coin, new AbbaCoin(3, SIG).encode());
    assertEquals(3, AbbaCoin.decode(coin).round());
    assertThrows(DecodeException.class, () -> AbbaCoin.decode(new AbbaCoin(0, SIG).encode()));
    List<AbbaSig> proof = List.of(new AbbaSig(0, SIG), new AbbaSig(2, SIG));
    byte[] decide = new ByteWriter().i64(4).u8(1).bytes(D).i32(2).i32(0).bytes(SIG).i32(2).bytes(SIG).toBytes();
    assertArrayEquals(decide, new AbbaDecide(4, 1, D, proof).encode());
    assertEquals(2, AbbaDecide.decode(decide, 4).proof().get(1).signer());
    assertThrows(DecodeException.class, () -> AbbaDecide.decode(decide, 1));
  }

  @Test
  public void abbaVotesAndTheTwoPreVotesOfAnAbstention() {
    AbbaPreVote p0 = new AbbaPreVote(1, 2, 0, SIG, new byte[0], false, List.of(new AbbaSig(3, SIG)), new byte[0]);
    AbbaPreVote p1 = new AbbaPreVote(2, 2, 1, SIG, D, true, List.of(), new byte[] {5});
    byte[] pre = new ByteWriter().i64(2).u8(1).bytes(SIG).bytes(D).bool(true).i32(0).bytes(new byte[] {5})
        .toBytes();
    assertArrayEquals(pre, p1.encode());
    AbbaPreVote back = AbbaPreVote.decode(2, pre, 4);
    assertEquals(true, back.soft());
    assertArrayEquals(new byte[] {5}, back.coin());
    AbbaMainVote abstain = new AbbaMainVote(2, AbbaMainVote.ABSTAIN, SIG, new byte[0], List.of(), p0, p1);
    AbbaMainVote decoded = AbbaMainVote.decode(abstain.encode(), 4);
    assertEquals(1, decoded.p0().signer());
    assertEquals(2, decoded.p1().signer());
    assertArrayEquals(p1.encode(), decoded.p1().encode());
    AbbaMainVote forOne = new AbbaMainVote(2, 1, SIG, D, List.of(new AbbaSig(0, SIG)), null, null);
    byte[] one = new ByteWriter().i64(2).u8(1).bytes(SIG).bytes(D).i32(1).i32(0).bytes(SIG).toBytes();
    assertArrayEquals(one, forOne.encode());
    assertArrayEquals(D, AbbaMainVote.decode(one, 4).validation());
    assertThrows(DecodeException.class, () -> AbbaMainVote.decode(abstain.encode(), 2)); // signer 2 of 2
    assertThrows(DecodeException.class,
        () -> AbbaMainVote.decode(new ByteWriter().i64(2).u8(3).bytes(SIG).toBytes(), 4));
  }
}
