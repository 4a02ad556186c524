package org.bftws.core.engine;

import java.util.Set;
import java.util.function.Consumer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * The {@code receive} of the engines whose replicas talk through an asynchronous channel context (the
 * asynchronous and the hybrid engine): {@link Envelopes#open opens} the envelope, then hands ASYNC
 * envelopes to the channel (whose context checks their sender and signature itself), client requests to
 * the engine's intake and the peer kinds, once authenticated, to the engine. What each engine does with
 * them, and which peer kinds it takes, are parameters.
 */
public final class ChannelInbox {
  private final int n;
  /** The first client node id ({@code GroupConfig#clientBase}): n, or bftws.maxReplicas when given. */
  private final int clientBase;
  private final int id;
  private final String engine;
  private final Set<Kind> peerKinds;
  private final Verifier verifier;
  private final Consumer<byte[]> channel;
  private final Consumer<Signed> request;
  private final Consumer<Signed> peer;
  private final Envelopes.EvidenceSink sink;

  /**
   * @param clientBase the first client node id: requests from below it are no client's
   * @param engine how the refusal names the receiver ("an asynchronous replica")
   * @param channel takes the bytes of an ASYNC envelope
   * @param request takes a client's REQUEST
   * @param peer takes an authenticated envelope of one of {@code peerKinds} from a peer replica
   */
  public ChannelInbox(int n, int clientBase, int id, String engine, Set<Kind> peerKinds, Verifier verifier,
      Consumer<byte[]> channel, Consumer<Signed> request, Consumer<Signed> peer, Envelopes.EvidenceSink sink) {
    this.n = n;
    this.clientBase = clientBase;
    this.id = id;
    this.engine = engine;
    this.peerKinds = peerKinds;
    this.verifier = verifier;
    this.channel = channel;
    this.request = request;
    this.peer = peer;
    this.sink = sink;
  }

  /** One envelope from the network; anything a correct node would not have sent is evidence. */
  public void receive(byte[] bytes) {
    Signed s = Envelopes.open(bytes, this::allowedSender, kind -> "sender not allowed to send " + kind + " to "
        + engine, sink);
    if (s == null) {
      return;
    }
    if (s.kind() == Kind.ASYNC) {
      channel.accept(bytes);
    } else if (s.kind() == Kind.REQUEST) {
      request.accept(s);
    } else {
      Envelopes.deliver(s, p -> p.verify(verifier), peer, sink);
    }
  }

  /**
   * Clients send ordered requests (read-only ones are not taken here), peers the rest. Our own checkpoint vote may come back in a peer's relayed
   * stable-checkpoint proof: after a restart we lack it.
   */
  private boolean allowedSender(Signed s) {
    if (s.kind() == Kind.ASYNC) {
      return true;
    }
    if (s.kind() == Kind.REQUEST) {
      return s.sender() >= clientBase;
    }
    return peerKinds.contains(s.kind()) && s.sender() >= 0 && s.sender() < n
        && (s.sender() != id || s.kind() == Kind.CHECKPOINT);
  }
}
