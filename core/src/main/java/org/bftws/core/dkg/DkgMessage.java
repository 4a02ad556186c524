package org.bftws.core.dkg;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.threshold.ThresholdParams;

/**
 * The messages of the DKG, each ordered by the group like a request so that every correct replica reads the
 * same ones in the same order (the broadcast channel GJKR §2 assume). The ordering layer authenticates the
 * author: it delivers a message only if the replica that submitted it is the dealer or receiver the message
 * names. Canonical binary encoding; decoding is strict and bounded (counts at most {@link ThresholdParams#MAX_N}).
 */
public sealed interface DkgMessage
    permits DkgMessage.Dealing, DkgMessage.Complaints, DkgMessage.Justification, DkgMessage.Opening {
  int DEALING = 1;
  int COMPLAINTS = 2;
  int JUSTIFICATION = 3;
  int OPENING = 4;

  /** The index (dealer or receiver) that wrote the message. */
  int author();

  byte[] encode();

  /**
   * GJKR Fig. 2 step 1(a): dealer i's commitments (Pedersen: C_ik = g^{a_ik} h^{b_ik}, k = 0..t; Feldman, for a
   * refresh or a resharing: A_ik = g^{a_ik}, k = 1..t, the constant's commitment being implied), the ephemeral
   * key R of {@link ShareCipher} and one ciphertext per receiver j = 1..n' of (s_ij[, s'_ij]).
   */
  record Dealing(int dealer, List<byte[]> commitments, byte[] ephemeral, List<byte[]> ciphertexts)
      implements DkgMessage {
    public Dealing {
      commitments = List.copyOf(commitments);
      ciphertexts = List.copyOf(ciphertexts);
    }

    @Override
    public int author() {
      return dealer;
    }

    @Override
    public byte[] encode() {
      Codec.Writer w = new Codec.Writer().u8(DEALING).u16(dealer);
      list(w, commitments).bytes(ephemeral);
      return list(w, ciphertexts).toByteArray();
    }
  }

  /** GJKR Fig. 2 step 1(c): receiver j names the dealers whose share to j did not verify (possibly none). */
  record Complaints(int receiver, List<Integer> accused) implements DkgMessage {
    public Complaints {
      accused = List.copyOf(accused);
    }

    @Override
    public int author() {
      return receiver;
    }

    @Override
    public byte[] encode() {
      Codec.Writer w = new Codec.Writer().u8(COMPLAINTS).u16(receiver).u16(accused.size());
      accused.forEach(w::u16);
      return w.toByteArray();
    }
  }

  /** One revealed share: (s_ij, s'_ij) for Pedersen, s_ij alone (s' empty) for Feldman. */
  record Reveal(int receiver, byte[] s, byte[] sPrime) {}

  /** GJKR Fig. 2 step 1(d): dealer i reveals the shares of every receiver that complained against it. */
  record Justification(int dealer, List<Reveal> reveals) implements DkgMessage {
    public Justification {
      reveals = List.copyOf(reveals);
    }

    @Override
    public int author() {
      return dealer;
    }

    @Override
    public byte[] encode() {
      Codec.Writer w = new Codec.Writer().u8(JUSTIFICATION).u16(dealer).u16(reveals.size());
      for (Reveal r : reveals) {
        w.u16(r.receiver()).bytes(r.s()).bytes(r.sPrime());
      }
      return w.toByteArray();
    }
  }

  /** One opening: V_im = g^{s_im} with a proof of (s_im, s'_im) opening C_i(m) (see {@link OpeningProof}). */
  record Open(int dealer, byte[] value, byte[] proof) {}

  /**
   * The extraction of y (GJKR Fig. 2 step 4), as the holders publish it: receiver m opens g^{s_im} for every
   * qualified dealer i whose share it holds. See {@link Dkg} for why holders, not dealers, publish these.
   */
  record Opening(int receiver, List<Open> openings) implements DkgMessage {
    public Opening {
      openings = List.copyOf(openings);
    }

    @Override
    public int author() {
      return receiver;
    }

    @Override
    public byte[] encode() {
      Codec.Writer w = new Codec.Writer().u8(OPENING).u16(receiver).u16(openings.size());
      for (Open o : openings) {
        w.u16(o.dealer()).bytes(o.value()).bytes(o.proof());
      }
      return w.toByteArray();
    }
  }

  /** Decodes {@link #encode()}'s output; {@link IllegalArgumentException} on anything else. */
  static DkgMessage decode(byte[] encoded) {
    Codec.Reader r = new Codec.Reader(encoded);
    int type = r.u8();
    int author = r.u16();
    DkgMessage m = switch (type) {
      case DEALING -> new Dealing(author, list(r), r.bytes(), list(r));
      case COMPLAINTS -> {
        List<Integer> accused = new ArrayList<>();
        for (int c = count(r); c > 0; c--) {
          accused.add(r.u16());
        }
        yield new Complaints(author, accused);
      }
      case JUSTIFICATION -> {
        List<Reveal> reveals = new ArrayList<>();
        for (int c = count(r); c > 0; c--) {
          reveals.add(new Reveal(r.u16(), r.bytes(), r.bytes()));
        }
        yield new Justification(author, reveals);
      }
      case OPENING -> {
        List<Open> openings = new ArrayList<>();
        for (int c = count(r); c > 0; c--) {
          openings.add(new Open(r.u16(), r.bytes(), r.bytes()));
        }
        yield new Opening(author, openings);
      }
      default -> throw new IllegalArgumentException("unknown DKG message type " + type);
    };
    r.end();
    return m;
  }

  private static Codec.Writer list(Codec.Writer w, List<byte[]> items) {
    w.u16(items.size());
    items.forEach(w::bytes);
    return w;
  }

  private static List<byte[]> list(Codec.Reader r) {
    List<byte[]> items = new ArrayList<>();
    for (int c = count(r); c > 0; c--) {
      items.add(r.bytes());
    }
    return items;
  }

  private static int count(Codec.Reader r) {
    int c = r.u16();
    if (c > ThresholdParams.MAX_N) {
      throw new IllegalArgumentException("DKG message lists " + c + " items, more than " + ThresholdParams.MAX_N);
    }
    return c;
  }
}
