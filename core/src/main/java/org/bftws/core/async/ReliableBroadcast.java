package org.bftws.core.async;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;

/**
 * Reliable broadcast (Bracha-Toueg, SINTRA §2.2) of one payload from a designated sender:
 * <ol>
 *   <li>the sender sends the payload to all (SEND);
 *   <li>every party echoes its digest to all (ECHO), once, for the first SEND from the sender;
 *   <li>on ⌈(n+f+1)/2⌉ echoes or f+1 readies for a digest, a party sends READY for it to all, once;
 *   <li>on 2f+1 readies for a digest, a party delivers the payload of that digest, once.
 * </ol>
 * Agreement: two correct parties never send READY for different digests (two echo quorums of ⌈(n+f+1)/2⌉
 * intersect in a correct party, and f+1 readies include a correct one), so an equivocating sender cannot
 * make correct parties deliver different payloads. Totality: 2f+1 readies at one correct party become f+1
 * correct readies at all, hence 2f+1 everywhere.
 *
 * <p>ECHO and READY carry the 32-byte digest; the payload travels once, in SEND. A party that reaches 2f+1
 * readies for a digest without holding its payload (the sender sent it elsewhere, or something else to
 * us) asks all once (FETCH); a quorum for a digest implies at least f+1 correct echoes of it, and each of
 * those parties answers once with the payload (PAYLOAD), which is accepted only if its digest matches.
 */
public final class ReliableBroadcast extends Protocol {
  /** Bracha's messages (SINTRA §2.3), and the fetch of a payload this party lacks; codes by position. */
  public enum Type implements AsyncKind {
    SEND,
    ECHO,
    READY,
    FETCH,
    PAYLOAD
  }

  private final int sender;
  private final Consumer<byte[]> deliver;
  /** The payload of the first SEND (or of the fetched PAYLOAD), with its digest. */
  private byte[] payload;
  private byte[] payloadDigest;
  private final Map<Integer, byte[]> echoes = new HashMap<>();
  private final Map<Integer, byte[]> readies = new HashMap<>();
  private final Set<Integer> answeredFetch = new HashSet<>();
  /** The digest this party echoed (of the first SEND), or null. */
  private byte[] echoed;
  private boolean sentSend;
  private boolean sentReady;
  private boolean fetching;
  private byte[] delivered;

  /**
   * The instance {@code pid} of {@code sender}'s broadcast; {@code deliver} gets the payload, at most once
   * (SINTRA §3.2 DELIVER), synchronously inside a handler.
   */
  public ReliableBroadcast(Context ctx, Pid pid, int sender, Consumer<byte[]> deliver) {
    super(ctx, pid);
    if (sender < 0 || sender >= ctx.n()) {
      throw new IllegalArgumentException("sender " + sender + " outside 0.." + (ctx.n() - 1));
    }
    this.sender = sender;
    this.deliver = deliver;
  }

  public int sender() {
    return sender;
  }

  /** The delivered payload, or null. */
  public byte[] delivered() {
    return delivered;
  }

  /** SINTRA §3.2 {@code send}: only the designated sender, exactly once. */
  public void send(byte[] message) {
    if (ctx.id() != sender || sentSend) {
      throw new IllegalStateException("replica " + ctx.id() + " may not send in " + pid);
    }
    sentSend = true;
    byte[] promised = promisedPayload(Type.SEND, new byte[0]); // restarted: what it sent before the crash
    multicast(Type.SEND, promised != null ? promised : message);
  }

  /** SEND, ECHO and READY: one each per instance (Bracha; SINTRA §2.2). */
  @Override
  protected byte[] slot(AsyncKind type, byte[] payload) {
    return type == Type.SEND || type == Type.ECHO || type == Type.READY ? new byte[0] : null;
  }

  @Override
  protected void onMessage(int from, int type, byte[] body) {
    switch (AsyncKind.of(Type.class, type, "reliable broadcast")) {
      case SEND -> onSend(from, body);
      case ECHO -> onEcho(from, digest(body));
      case READY -> onReady(from, digest(body));
      case FETCH -> onFetch(from, digest(body));
      case PAYLOAD -> onPayload(from, body);
      default -> throw new DecodeException("unknown reliable broadcast message type " + type);
    }
  }

  private void onSend(int from, byte[] message) {
    if (from != sender) {
      evidence(from, "SEND from a party that is not the sender " + sender);
      return;
    }
    byte[] d = Digests.sha256(message);
    if (echoed != null) {
      if (!Arrays.equals(d, echoed)) {
        evidence(from, "two different SENDs");
      }
      return;
    }
    echoed = d;
    if (payload == null) {
      payload = message;
      payloadDigest = d;
    }
    multicast(Type.ECHO, d);
  }

  private void onEcho(int from, byte[] d) {
    if (!record(echoes, from, d, "ECHO")) {
      return;
    }
    if (count(echoes, d) >= (ctx.n() + ctx.f() + 2) / 2) { // ⌈(n+f+1)/2⌉
      sendReady(d);
    }
  }

  private void onReady(int from, byte[] d) {
    if (!record(readies, from, d, "READY")) {
      return;
    }
    int c = count(readies, d);
    if (c >= ctx.f() + 1) {
      sendReady(d); // amplification: some correct party is ready for d
    }
    if (c >= 2 * ctx.f() + 1) {
      tryDeliver(d);
    }
  }

  private void onFetch(int from, byte[] d) {
    if (payload != null && Arrays.equals(d, payloadDigest) && answeredFetch.add(from)) {
      send(from, Type.PAYLOAD, payload);
    }
  }

  private void onPayload(int from, byte[] message) {
    if (!fetching || delivered != null) {
      return; // an answer we no longer need (several holders answer)
    }
    byte[] quorum = quorumDigest();
    if (!Arrays.equals(Digests.sha256(message), quorum)) {
      evidence(from, "PAYLOAD does not match the ready quorum's digest");
      return;
    }
    payload = message;
    payloadDigest = quorum;
    tryDeliver(quorum);
  }

  private void sendReady(byte[] d) {
    if (!sentReady) {
      sentReady = true;
      multicast(Type.READY, d);
    }
  }

  private void tryDeliver(byte[] d) {
    if (delivered != null) {
      return;
    }
    if (payload == null || !Arrays.equals(d, payloadDigest)) {
      if (!fetching) {
        fetching = true;
        multicast(Type.FETCH, d);
      }
      return;
    }
    delivered = payload;
    deliver.accept(payload);
  }

  /** The digest with 2f+1 readies (unique: see the class comment), or null. */
  private byte[] quorumDigest() {
    for (byte[] d : readies.values()) {
      if (count(readies, d) >= 2 * ctx.f() + 1) {
        return d;
      }
    }
    return null;
  }

  /** Records a party's first vote; a second, different one is evidence of a double echo or ready. */
  private boolean record(Map<Integer, byte[]> votes, int from, byte[] d, String what) {
    byte[] held = votes.putIfAbsent(from, d);
    if (held == null) {
      return true;
    }
    if (!Arrays.equals(held, d)) {
      evidence(from, "two different " + what + "s");
    }
    return false;
  }

  private static int count(Map<Integer, byte[]> votes, byte[] d) {
    ByteBuffer key = ByteBuffer.wrap(d);
    return (int) votes.values().stream().filter(v -> ByteBuffer.wrap(v).equals(key)).count();
  }

  private static byte[] digest(byte[] body) {
    if (body.length != Digests.LENGTH) {
      throw new DecodeException("digest of " + body.length + " bytes");
    }
    return body;
  }

}
