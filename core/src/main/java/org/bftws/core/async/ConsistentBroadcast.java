package org.bftws.core.async;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Digests;
import org.bftws.core.message.async.CbFinal;

/**
 * Consistent broadcast (Reiter's echo broadcast, SINTRA §2.2) of one payload from a designated sender,
 * verifiable in the sense of SINTRA §3.2 ({@code VerifiableConsistentBroadcast}):
 * <ol>
 *   <li>the sender sends the payload to all (SEND);
 *   <li>each party answers the first SEND from the sender, if the payload is externally valid, with its
 *       signature share on {@code pid.bind("cb", digest)}, to the sender only (SHARE);
 *   <li>with a quorum of ⌈(n+f+1)/2⌉ valid shares the sender combines the certificate and sends (digest,
 *       certificate) to all (FINAL): the payload travels once, in SEND;
 *   <li>a party delivers the payload of the first FINAL whose certificate is valid: the one it holds from
 *       the SEND if its digest matches, else the one it fetches (below).
 * </ol>
 * Consistency: two quorums of ⌈(n+f+1)/2⌉ share a correct party, which signs one digest per instance, so no
 * two valid certificates of one instance name different payloads, and correct parties never deliver
 * different payloads. Unlike reliable broadcast, some correct parties may deliver nothing when the sender
 * is faulty. Linear messages, at the price of the signatures (SINTRA §2.2).
 *
 * <p>The certificate is transferable: {@link #certifies} lets anyone check a (digest, certificate) pair of
 * an instance, and {@link #deliverClosing} takes one received in another protocol's message (the
 * multi-valued agreement's yes-votes and binary-agreement validation, SINTRA §2.4). The certificate scheme
 * is a {@link QuorumSignatures}.
 *
 * <p>External validity at the echo (CKPS 2001 §5, SINTRA §2.4): with a predicate, a correct party signs a
 * SEND only if the payload satisfies it. A certificate holds ⌈(n+f+1)/2⌉ ≥ f+1 shares, so at least one
 * correct party checked the payload it names: the certificate alone proves the payload valid, and it can
 * stand for the payload (its 32-byte digest) wherever validity is what must be shown.
 *
 * <p>Fetching: a party that holds a valid certificate (from a FINAL or a closing message) but not the
 * payload it names (it missed the SEND, or the sender sent it something else) asks all once (FETCH, with
 * the digest). Each correct signer of the certificate holds the payload (it signed only what it
 * received), and at least one signer is correct; every holder answers once per asker (PAYLOAD; a FETCH that comes before the SEND is answered when the
 * SEND comes), and an answer is accepted only if it hashes to the certified digest (anything else is
 * evidence against its sender).
 */
public final class ConsistentBroadcast extends Protocol {
  /** Reiter's echo broadcast (SINTRA §2.3), and the fetch of a certified payload this party lacks; by position. */
  public enum Type implements AsyncKind {
    SEND,
    SHARE,
    FINAL,
    FETCH,
    PAYLOAD
  }

  /** The purpose under which shares and certificates bind the payload digest to the instance. */
  static final String PURPOSE = "cb";

  /** What a party delivers: the payload with the certificate that proves it to anyone. */
  public record Delivery(byte[] payload, byte[] certificate) {}

  /** A payload's digest with a valid certificate of this instance: proof of the payload without it. */
  public record Certificate(byte[] digest, byte[] certificate) {}

  private final int sender;
  private final QuorumSignatures sigs;
  private final Validity externallyValid;
  private final Consumer<Certificate> certified;
  private final Consumer<Delivery> deliver;
  /** At the sender: the payload sent, its bound digest and the valid shares so far. */
  private byte[] sent;
  /** At the sender: its SEND went out in this run (a payload adopted from the journal may precede it). */
  private boolean sendSent;
  private byte[] sentMessage;
  private final Map<Integer, byte[]> shares = new HashMap<>();
  private boolean sentFinal;
  /** The digest of the first SEND this party received (signed, or being judged), or null. */
  private byte[] signed;
  /** That SEND while its validity cannot be told yet ({@link Validity.Verdict#NOT_YET}); see {@link #recheck}. */
  private byte[] awaiting;
  /** The payload this party holds (its own, or the SEND it signed), with its digest; null if none. */
  private byte[] held;
  private byte[] heldDigest;
  /** A valid certificate whose payload this party is fetching, with its digest; null if none. */
  private byte[] wantedDigest;
  private byte[] wantedCertificate;
  private final Set<Integer> answeredFetch = new HashSet<>();
  /** FETCHes that came before this party held the payload: requester → digest asked (one per requester). */
  private final Map<Integer, byte[]> openFetches = new HashMap<>();
  private boolean fetching;
  private Delivery delivered;

  /**
   * The instance {@code pid} of {@code sender}'s broadcast; {@code deliver} gets the payload and its
   * certificate, at most once, synchronously inside a handler.
   */
  public ConsistentBroadcast(Context ctx, Pid pid, int sender, QuorumSignatures sigs, Consumer<Delivery> deliver) {
    this(ctx, pid, sender, sigs, Validity.of(payload -> true), c -> { }, deliver);
  }

  /**
   * As above; a correct party signs only a payload that {@code externallyValid} (deterministic, the same at
   * every correct party) accepts, so every valid certificate names such a payload; a SEND it cannot judge
   * yet is kept, unsigned, and judged again on {@link #recheck} (the parent calls it when data arrives). {@code certified} gets
   * the first valid certificate this party holds, once, whether or not it holds the payload yet (the
   * multi-valued agreement counts certified proposals, which prove as much as the proposals themselves).
   */
  public ConsistentBroadcast(Context ctx, Pid pid, int sender, QuorumSignatures sigs,
      Validity externallyValid, Consumer<Certificate> certified, Consumer<Delivery> deliver) {
    super(ctx, pid);
    if (sender < 0 || sender >= ctx.n()) {
      throw new IllegalArgumentException("sender " + sender + " outside 0.." + (ctx.n() - 1));
    }
    this.sender = sender;
    this.sigs = sigs;
    this.externallyValid = externallyValid;
    this.certified = certified;
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
    return certifies(sigs, pid, Digests.sha256(payload), certificate);
  }

  /** Whether {@code certificate} proves that instance {@code pid} can deliver the payload with {@code digest}. */
  public static boolean certifies(QuorumSignatures sigs, Pid pid, byte[] digest, byte[] certificate) {
    return digest.length == Digests.LENGTH && sigs.verify(pid.bind(PURPOSE, digest), certificate);
  }

  /** SINTRA §3.2 {@code send}: only the designated sender, exactly once. */
  public void send(byte[] value) {
    if (ctx.id() != sender || sendSent) {
      throw new IllegalStateException("replica " + ctx.id() + " may not send in " + pid);
    }
    sendSent = true;
    if (!adoptPromise()) {
      adopt(value);
    }
    multicast(Type.SEND, sent);
  }

  private void adopt(byte[] payload) {
    sent = payload;
    held = payload;
    heldDigest = Digests.sha256(payload);
    sentMessage = pid.bind(PURPOSE, heldDigest);
  }

  /**
   * Restarted from its journal, the sender takes the payload it sent before the crash as its own ({@link
   * Context#recover}), before it sends it again: the peers that got it then answer with their shares of it,
   * which may come first.
   */
  private boolean adoptPromise() {
    if (sent != null) {
      return true;
    }
    byte[] promised = promisedPayload(Type.SEND, new byte[0]);
    if (promised == null) {
      return false;
    }
    adopt(promised);
    return true;
  }

  /**
   * SINTRA §3.2 {@code deliverClosing}, by digest: takes a (digest, certificate) pair received elsewhere.
   * If this party holds the payload it names, it delivers now; otherwise it remembers the certificate, and
   * {@link #fetch} asks the holders for it. Returns whether this party delivered (now or before) or holds
   * a valid certificate now; false for a certificate not valid for this instance.
   */
  public boolean deliverClosing(byte[] digest, byte[] certificate) {
    if (delivered != null) {
      return true; // consistency: a valid certificate of this instance names the delivered payload
    }
    if (wantedDigest == null || !Arrays.equals(digest, wantedDigest)) {
      if (!certifies(sigs, pid, digest, certificate)) {
        return false;
      }
      boolean first = wantedDigest == null;
      wantedDigest = digest;
      wantedCertificate = certificate;
      if (first) {
        certified.accept(new Certificate(digest, certificate));
      }
    }
    if (held == null && awaiting != null && Arrays.equals(signed, digest)) {
      held = awaiting; // a valid certificate proves it valid: no need to wait for its data
      heldDigest = signed;
      awaiting = null;
    }
    if (held != null && Arrays.equals(heldDigest, digest)) {
      deliver(held, certificate);
    }
    return true;
  }

  /** Judges again a SEND whose validity could not be told yet (its data may have arrived meanwhile). */
  public void recheck() {
    if (awaiting != null) {
      byte[] payload = awaiting;
      awaiting = null;
      judge(payload);
    }
  }

  /** Asks all, once, for the payload of the certificate taken by {@link #deliverClosing}, unless delivered. */
  public void fetch() {
    if (delivered == null && wantedDigest != null && !fetching) {
      fetching = true;
      multicast(Type.FETCH, wantedDigest);
    }
  }

  /** SEND, the signature SHARE and the sender's FINAL: one each per instance (SINTRA §2.2 echo broadcast). */
  @Override
  protected byte[] slot(AsyncKind type, byte[] payload) {
    return type == Type.SEND || type == Type.SHARE || type == Type.FINAL ? new byte[0] : null;
  }

  @Override
  protected void onMessage(int from, int type, byte[] body) {
    switch (AsyncKind.of(Type.class, type, "consistent broadcast")) {
      case SEND -> onSend(from, body);
      case SHARE -> onShare(from, body);
      case FINAL -> onFinal(from, body);
      case FETCH -> onFetch(from, body);
      case PAYLOAD -> onPayload(from, body);
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
    judge(payload);
  }

  /** Signs the SEND (digest {@link #signed}) if it is valid, keeps it if that cannot be told yet. */
  private void judge(byte[] payload) {
    switch (externallyValid.check(payload)) {
      case NOT_YET -> awaiting = payload;
      case INVALID -> evidence(sender, "SEND fails the external validity predicate");
      case VALID -> {
        held = payload;
        heldDigest = signed;
        send(sender, Type.SHARE, sigs.share(pid.bind(PURPOSE, signed)));
        answerFetches();
        if (wantedDigest != null && Arrays.equals(signed, wantedDigest)) {
          deliver(payload, wantedCertificate);
        }
      }
    }
  }

  private void onShare(int from, byte[] share) {
    if (ctx.id() != sender || !adoptPromise()) {
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
      multicast(Type.FINAL, new CbFinal(heldDigest, sigs.combine(sentMessage, shares)).encode());
    }
  }

  private void onFinal(int from, byte[] body) {
    CbFinal f = CbFinal.decode(body);
    if (delivered != null) {
      return;
    }
    if (!deliverClosing(f.digest(), f.certificate())) {
      evidence(from, "FINAL with an invalid certificate");
      return;
    }
    fetch(); // nothing if the SEND delivered it
  }

  private void onFetch(int from, byte[] digest) {
    if (from == ctx.id() || answeredFetch.contains(from)) {
      return; // our own multicast, or answered
    }
    openFetches.putIfAbsent(from, digest);
    answerFetches();
  }

  /** Answers the open FETCHes whose digest is that of a payload this party holds (the SEND may come late). */
  private void answerFetches() {
    if (held != null) {
      answerFetches(held, heldDigest);
    }
    if (delivered != null) { // differs from the SEND held only if the sender equivocated
      answerFetches(delivered.payload(), Digests.sha256(delivered.payload()));
    }
  }

  private void answerFetches(byte[] payload, byte[] d) {
    openFetches.entrySet().removeIf(e -> {
      if (!Arrays.equals(e.getValue(), d)) {
        return false;
      }
      answeredFetch.add(e.getKey());
      send(e.getKey(), Type.PAYLOAD, payload);
      return true;
    });
  }

  private void onPayload(int from, byte[] payload) {
    if (!fetching || delivered != null) {
      return; // an answer we no longer need (several holders answer)
    }
    if (!supply(payload)) {
      evidence(from, "fetched PAYLOAD does not match the certified digest");
    }
  }

  /**
   * Delivers {@code payload} obtained elsewhere if it hashes to the digest of the certificate taken by
   * {@link #deliverClosing}; returns whether it did (false: not wanted, or not the certified payload).
   */
  public boolean supply(byte[] payload) {
    if (delivered != null || wantedDigest == null || !Arrays.equals(Digests.sha256(payload), wantedDigest)) {
      return false;
    }
    deliver(payload, wantedCertificate);
    return true;
  }

  private void deliver(byte[] payload, byte[] certificate) {
    if (delivered == null) {
      delivered = new Delivery(payload, certificate);
      deliver.accept(delivered);
      answerFetches();
    }
  }
}
