package org.bftws.core.message;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Signer;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/** The canonical binary encoding (docs/design/architecture.md, "The core's contract"): one encoding per message. */
public class MessageCodecTest {
  private final TestKeys keys = TestKeys.seeded(2, 1);
  private final Signer signer = keys.signer(1);

  private Signed request(long n) {
    Request q = new Request(4, "urn:uuid:x", n, true, "op".getBytes(StandardCharsets.UTF_8));
    return Signed.sign(Kind.REQUEST, 4, q.encode(), signer);
  }

  @Test
  public void everyMessageRoundTripsToTheSameBytes() {
    byte[] d = new byte[32];
    d[3] = 7;
    PrePrepare pp = PrePrepare.of(2, 9, List.of(request(1), request(2)));
    assertArrayEquals(pp.encode(), PrePrepare.decode(pp.encode()).encode());
    Vote v = new Vote(2, 9, d);
    assertArrayEquals(v.encode(), Vote.decode(v.encode()).encode());
    ReplyCertificate rc = new ReplyCertificate(1, List.of(new ReplyCertificate.Entry("s", 3,
        ReplyCertificate.resultDigest(new byte[] {1}, new byte[0]))));
    assertArrayEquals(rc.encode(), ReplyCertificate.decode(rc.encode()).encode());
    ReplyBundle rb = ReplyBundle.of(Signed.sign(Kind.REPLY, 1, rc.encode(), signer), 0, new byte[] {1}, new byte[0]);
    assertArrayEquals(rb.encode(), ReplyBundle.decode(rb.encode()).encode());
    assertEquals("s", ReplyBundle.decode(rb.encode()).sequenceId());
    Checkpoint cp = new Checkpoint(16, d, d);
    assertArrayEquals(cp.encode(), Checkpoint.decode(cp.encode()).encode());
    Checkpoint orderingOnly = new Checkpoint(16, d, Checkpoint.NO_EXECUTION);
    assertArrayEquals(orderingOnly.encode(), Checkpoint.decode(orderingOnly.encode()).encode());
    assertEquals(false, Checkpoint.decode(orderingOnly.encode()).hasExecution());
    Signed ppSigned = Signed.sign(Kind.PRE_PREPARE, 2, pp.encode(), signer);
    Signed prep = Signed.sign(Kind.PREPARE, 1, v.encode(), signer);
    Signed ck = Signed.sign(Kind.CHECKPOINT, 1, cp.encode(), signer);
    ViewChange vc = new ViewChange(3, 16, d, List.of(ck), List.of(new PreparedCertificate(ppSigned, List.of(prep))));
    assertArrayEquals(vc.encode(), ViewChange.decode(vc.encode()).encode());
    NewView nv = new NewView(3, List.of(Signed.sign(Kind.VIEW_CHANGE, 1, vc.encode(), signer)), List.of(ppSigned));
    assertArrayEquals(nv.encode(), NewView.decode(nv.encode()).encode());
    StateTransfer st = new StateTransfer(16, new byte[] {9, 9}, new byte[] {7}, List.of(ck));
    assertArrayEquals(st.encode(), StateTransfer.decode(st.encode()).encode());
    assertEquals(16, FetchState.decode(new FetchState(16).encode()).seq());
    Signed s = request(5);
    assertArrayEquals(s.encode(), Signed.decode(s.encode()).encode());
  }

  @Test
  public void truncatedTrailingAndInconsistentEncodingsAreRefused() {
    byte[] ok = request(1).encode();
    assertThrows(DecodeException.class, () -> Signed.decode(java.util.Arrays.copyOf(ok, ok.length - 1)));
    assertThrows(DecodeException.class, () -> Signed.decode(java.util.Arrays.copyOf(ok, ok.length + 1)));
    PrePrepare pp = PrePrepare.of(0, 1, List.of(request(1)));
    PrePrepare lying = new PrePrepare(0, 1, new byte[32], pp.requests());
    assertThrows(DecodeException.class, () -> PrePrepare.decode(lying.encode()));
    byte[] huge = new byte[] {1, 0, 0, 0, 4, 0x7f, 0, 0, 0};
    assertThrows(DecodeException.class, () -> Signed.decode(huge));
    assertThrows(DecodeException.class, () -> Kind.of(99));
  }

  // Reference: Castro-Liskov §4.1 — a reply is authentic only if the signed certificate covers its result.
  @Test
  public void replyBundleWithAResultItsCertificateDoesNotCoverFailsVerification() {
    org.bftws.core.crypto.Verifier v = keys.verifier();
    ReplyCertificate rc = new ReplyCertificate(0, List.of(new ReplyCertificate.Entry("s", 1,
        ReplyCertificate.resultDigest(new byte[] {1}, new byte[0]))));
    Signed cert = Signed.sign(Kind.REPLY, 1, rc.encode(), signer);
    org.junit.Assert.assertTrue(ReplyBundle.of(cert, 0, new byte[] {1}, new byte[0]).verify(v));
    org.junit.Assert.assertFalse(ReplyBundle.of(cert, 0, new byte[] {2}, new byte[0]).verify(v));
    assertThrows(DecodeException.class, () -> ReplyBundle.of(cert, 1, new byte[] {1}, new byte[0]));
  }
}
