package org.bftws.core.async;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * Consistent broadcast (Reiter's echo broadcast, SINTRA §2.2) of one payload from a designated sender,
 * verifiable in the sense of SINTRA §3.2 ({@code VerifiableConsistentBroadcast}):
 * <ol>
 *   <li>the sender sends the payload to all (SEND);
 *   <li>each party answers the first SEND from the sender with its signature share on {@code
 *       pid.bind("cb", digest)}, to the sender only (SHARE);
 *   <li>with a quorum of ⌈(n+f+1)/2⌉ valid shares the sender combines the certificate and sends (payload,
 *       certificate) to all (FINAL);
 *   <li>a party delivers the payload of the first FINAL whose certificate is valid.
 * </ol>
 * Consistency: two quorums of ⌈(n+f+1)/2⌉ share a correct party, which signs one digest per instance, so no
 * two valid certificates of one instance name different payloads, and correct parties never deliver
 * different payloads. Unlike reliable broadcast, some correct parties may deliver nothing when the sender
 * is faulty. Linear messages, at the price of the signatures (SINTRA §2.2).
 *
 * <p>The certificate is transferable: {@link #verifies} lets anyone check a (payload, certificate) pair of
 * an instance, and {@link #deliverClosing} delivers from one received in another protocol's message (the
 * multi-valued agreement's yes-votes, SINTRA §2.4). The certificate scheme is a {@link QuorumSignatures}.
 */
public final class ConsistentBroadcast extends Protocol {
  public static final int SEND = 1;
  public static final int SHARE = 2;
  public static final int FINAL = 3;
  /** The purpose under which shares and certificates bind the payload digest to the instance. */
  static final String PURPOSE = "cb";

  /** What a party delivers: the payload with the certificate that proves it to anyone. */
  public record Delivery(byte[] payload, byte[] certificate) {}

  private final int sender;
  private final QuorumSignatures sigs;
  private final Consumer<Delivery> deliver;
  /** At the sender: the payload sent, its bound digest and the valid shares so far. */
  private byte[] sent;
  private byte[] sentMessage;
  private final Map<Integer, byte[]> shares = new HashMap<>();
  private boolean sentFinal;
  /** The digest of the first SEND this party signed, or null. */
  private byte[] signed;
  private Delivery delivered;

  /**
   * The instance {@code pid} of {@code sender}'s broadcast; {@code deliver} gets the payload and its
   * certificate, at most once, synchronously inside a handler.
   */
  public ConsistentBroadcast(Context ctx, Pid pid, int sender, QuorumSignatures sigs, Consumer<Delivery> deliver) {
    super(ctx, pid);
    if (sender < 0 || sender >= ctx.n()) {
      throw new IllegalArgumentException("sender " + sender + " outside 0.." + (ctx.n() - 1));
    }
    this.sender = sender;
    this.sigs = sigs;
    this.deliver = deliver;
  }

  public int sender() {
    return sender;
  }

  /** What this party delivered, or null. */
  public Delivery delivered() {
    return delivered;
  }

  /** Whether {@code certificate} proves that instance {@code pid} can deliver {@code payload}. */
  public static boolean verifies(QuorumSignatures sigs, Pid pid, byte[] payload, byte[] certificate) {
    return sigs.verify(bound(pid, payload), certificate);
  }

  /** SINTRA §3.2 {@code send}: only the designated sender, exactly once. */
  public void send(byte[] payload) {
    if (ctx.id() != sender || sent != null) {
      throw new IllegalStateException("replica " + ctx.id() + " may not send in " + pid);
    }
    sent = payload;
    sentMessage = bound(pid, payload);
    multicast(SEND, payload);
  }

  /**
   * SINTRA §3.2 {@code deliverClosing}: delivers from a (payload, certificate) pair received elsewhere, if
   * the certificate is valid for this instance; returns whether this party has delivered now or before.
   */
  public boolean deliverClosing(byte[] payload, byte[] certificate) {
    if (delivered == null && verifies(sigs, pid, payload, certificate)) {
      delivered = new Delivery(payload, certificate);
      deliver.accept(delivered);
    }
    return delivered != null;
  }

  @Override
  protected void onMessage(int from, int type, byte[] body) {
    switch (type) {
      case SEND -> onSend(from, body);
      case SHARE -> onShare(from, body);
      case FINAL -> onFinal(from, body);
      default -> throw new DecodeException("unknown consistent broadcast message type " + type);
    }
  }

  private void onSend(int from, byte[] payload) {
    if (from != sender) {
      evidence(from, "SEND from a party that is not the sender " + sender);
      return;
    }
    byte[] d = Digests.sha256(payload);
    if (signed != null) {
      if (!Arrays.equals(d, signed)) {
        evidence(from, "two different SENDs");
      }
      return;
    }
    signed = d;
    send(sender, SHARE, sigs.share(bound(pid, payload)));
  }

  private void onShare(int from, byte[] share) {
    if (ctx.id() != sender || sent == null) {
      evidence(from, "SHARE to a party that did not send in this instance");
      return;
    }
    if (sentFinal || shares.containsKey(from)) {
      return; // late or repeated: the certificate is made or the party counted
    }
    if (!sigs.verifyShare(from, sentMessage, share)) {
      evidence(from, "invalid signature share");
      return;
    }
    shares.put(from, share);
    if (shares.size() >= sigs.quorum()) {
      sentFinal = true;
      multicast(FINAL, new ByteWriter(sent.length + share.length * shares.size() + 16)
          .bytes(sent).bytes(sigs.combine(sentMessage, shares)).toBytes());
    }
  }

  private void onFinal(int from, byte[] body) {
    ByteReader r = new ByteReader(body);
    byte[] payload = r.bytes();
    byte[] certificate = r.bytes();
    r.end();
    if (delivered != null) {
      return;
    }
    if (!deliverClosing(payload, certificate)) {
      evidence(from, "FINAL with an invalid certificate");
    }
  }

  /** The bytes every share and certificate of the instance signs: the payload digest bound to the pid. */
  private static byte[] bound(Pid pid, byte[] payload) {
    return pid.bind(PURPOSE, Digests.sha256(payload));
  }
}
