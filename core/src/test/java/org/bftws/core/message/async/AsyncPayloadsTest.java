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
}
