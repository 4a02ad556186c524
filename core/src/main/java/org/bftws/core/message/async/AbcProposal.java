package org.bftws.core.message.async;

import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;

/**
 * A signed round proposal of atomic broadcast (SINTRA §2.5): an encoded {@link AbcBatch} and the proposer's
 * signature on its digest for the round. As PROPOSAL (the sender is the proposer) it is {@code
 * bytes(batch) || bytes(signature)}; as BATCH_ANSWER (relayed by another party) {@code i32(party)} comes
 * first.
 */
public record AbcProposal(int party, byte[] batch, byte[] signature) {
  /** PROPOSAL: the proposer's own, its party implied by the envelope. */
  public byte[] encodeProposal() {
    return new ByteWriter(batch.length + 80).bytes(batch).bytes(signature).toBytes();
  }

  /** BATCH_ANSWER: a party's proposal as another party holds it. */
  public byte[] encodeAnswer() {
    return new ByteWriter(batch.length + 96).i32(party).bytes(batch).bytes(signature).toBytes();
  }

  /** A PROPOSAL from {@code sender}. */
  public static AbcProposal decodeProposal(int sender, byte[] body) {
    ByteReader r = new ByteReader(body);
    AbcProposal p = new AbcProposal(sender, r.bytes(), r.bytes());
    r.end();
    return p;
  }

  /** A BATCH_ANSWER in a group of {@code n}: its party names one of them. */
  public static AbcProposal decodeAnswer(byte[] body, int n) {
    ByteReader r = new ByteReader(body);
    int party = r.i32();
    if (party < 0 || party >= n) {
      throw new DecodeException("proposal of party " + party);
    }
    AbcProposal p = new AbcProposal(party, r.bytes(), r.bytes());
    r.end();
    return p;
  }
}
