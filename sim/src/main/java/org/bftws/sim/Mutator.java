package org.bftws.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.Pid;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.message.Checkpoint;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.ExecutionState;
import org.bftws.core.message.Kind;
import org.bftws.core.message.NewView;
import org.bftws.core.message.OrderedBatch;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.ReplyBundle;
import org.bftws.core.message.Request;
import org.bftws.core.message.ReplyCertificate;
import org.bftws.core.message.Signed;
import org.bftws.core.message.StateTransfer;
import org.bftws.core.message.ViewChange;
import org.bftws.core.message.Vote;

/**
 * Small-scope mutations of one Byzantine replica's outgoing messages (ByzzFuzz, OOPSLA 2023): view or
 * sequence number ±1, wrong digests, omission, replay of an old message — checkpoints included, which
 * ByzzFuzz never mutated. Mutated messages are re-signed with the replica's own key, as a Byzantine
 * replica would: only content, never signatures, is what the protocol must doubt. Messages of the
 * asynchronous protocols ({@code Kind.ASYNC}) get flipped payload bytes, a truncated payload, another
 * message's payload of the same type (a value, share or proof of another instance), or a neighbouring
 * instance (a round or party index ±1).
 *
 * <p>With MAC authentication the replica's own authenticators make its prepares and commits: mutated ones
 * get a valid authenticator; and a third of them instead pit MAC against signature — a valid MAC on a bad
 * signature (same or changed content), or a damaged authenticator on a mutated, validly signed message.
 */
final class Mutator {
  private final Random rng;
  private final Signer signer;
  private final double rate;
  private final List<byte[]> history = new ArrayList<>();
  /** Payloads of past asynchronous-protocol messages, to move into other instances. */
  private final List<AsyncMessage> asyncHistory = new ArrayList<>();
  /** With randomness: a colluding client's request flagged randomized for an operation that is not. */
  private final Supplier<Signed> flagged;
  /** The replica's authenticators with MAC authentication; null with signatures. */
  private final Authenticators macs;

  Mutator(Random rng, Signer signer, double rate, Supplier<Signed> flagged, Authenticators macs) {
    this.rng = rng;
    this.signer = signer;
    this.rate = rate;
    this.flagged = flagged;
    this.macs = macs;
  }

  /**
   * A primary that batches a needlessly randomized request (integrity paper §4) into this pre-prepare,
   * re-signed; any other message unchanged. Correct backups must refuse the batch.
   */
  static byte[] withFlagged(byte[] bytes, Signed request, Signer signer) {
    Signed s = Signed.decode(bytes);
    if (s.kind() != Kind.PRE_PREPARE) {
      return bytes;
    }
    PrePrepare p = PrePrepare.decode(s.body());
    List<Signed> batch = new ArrayList<>(p.requests());
    batch.add(request);
    byte[] body = PrePrepare.of(p.view(), p.seq(), batch).withRandomness(p.randomness()).encode();
    return Signed.sign(Kind.PRE_PREPARE, s.sender(), body, signer).encode();
  }

  /** Zero, one or two messages to send instead of the given one. */
  List<byte[]> apply(byte[] bytes) {
    if (history.size() < 256) {
      history.add(bytes);
    } else {
      history.set(rng.nextInt(history.size()), bytes);
    }
    if (rng.nextDouble() >= rate) {
      return List.of(bytes);
    }
    int choice = rng.nextInt(10);
    if (choice == 0) {
      return List.of(); // omission
    }
    if (choice == 1) {
      return List.of(bytes, history.get(rng.nextInt(history.size()))); // replay an old message
    }
    try {
      return List.of(wrongReply(ReplyBundle.decode(bytes)).encode());
    } catch (DecodeException notAReply) {
      // a protocol message: mutate it below
    }
    try {
      Signed s = Signed.decode(bytes);
      if (macs != null && s.kind().macAuthenticated() && rng.nextInt(3) == 0) {
        return List.of(macAgainstSignature(s));
      }
      byte[] body = mutate(s.kind(), s.body());
      Signed m = Signed.sign(s.kind(), s.sender(), body, signer);
      return List.of(macs != null && m.kind().macAuthenticated() ? wire(m, true) : m.encode());
    } catch (DecodeException e) {
      return List.of(bytes);
    }
  }

  /**
   * A vote whose authenticator and signature disagree: a valid MAC on a bad signature of the same content or
   * on the old signature of changed content (receivers must not certify it), or a damaged authenticator on a
   * changed, validly signed vote (receivers fall back to the signature).
   */
  private byte[] macAgainstSignature(Signed s) {
    return switch (rng.nextInt(3)) {
      case 0 -> {
        byte[] sig = s.signature().clone();
        sig[rng.nextInt(sig.length)] ^= (byte) (1 << rng.nextInt(8));
        yield wire(Signed.of(s.kind(), s.sender(), s.body(), sig), true);
      }
      case 1 -> wire(Signed.of(s.kind(), s.sender(), mutate(s.kind(), s.body()), s.signature()), true);
      default -> wire(Signed.sign(s.kind(), s.sender(), mutate(s.kind(), s.body()), signer), false);
    };
  }

  /** {@code m} with this replica's authenticator, valid or with one bit flipped in every receiver's entry. */
  private byte[] wire(Signed m, boolean validMac) {
    byte[] a = macs.authenticator(m.digest());
    for (int j = 0; !validMac && j < macs.replicas(); j++) {
      a[j * Authenticators.TAG + rng.nextInt(Authenticators.TAG)] ^= (byte) (1 << rng.nextInt(8));
    }
    return Signed.wire(m, a);
  }

  /** A wrong result under a certificate the Byzantine replica signs for it: only the Voter can stop it. */
  private ReplyBundle wrongReply(ReplyBundle b) {
    ReplyCertificate c = ReplyCertificate.decode(b.certificate().body());
    byte[] result = randomDigest();
    List<ReplyCertificate.Entry> entries = new ArrayList<>(c.entries());
    for (int i = 0; i < entries.size(); i++) {
      ReplyCertificate.Entry e = entries.get(i);
      if (e.sequenceId().equals(b.sequenceId()) && e.messageNumber() == b.messageNumber()) {
        entries.set(i, new ReplyCertificate.Entry(e.sequenceId(), e.messageNumber(),
            ReplyCertificate.resultDigest(result, b.random())));
        Signed cert = Signed.sign(Kind.REPLY, b.sender(), new ReplyCertificate(c.view(), entries).encode(), signer);
        return ReplyBundle.of(cert, i, result, b.random());
      }
    }
    return b;
  }

  /**
   * The batch with one request's operation changed under its client's id and signature: backups that hold the
   * real request must check the signature again rather than trust the copy they verified (§4.2).
   */
  private List<Signed> relabelled(List<Signed> requests) {
    List<Signed> batch = new ArrayList<>(requests);
    int i = rng.nextInt(batch.size());
    Signed q = batch.get(i);
    try {
      Request r = Request.decode(q.body());
      Request other = new Request(r.client(), r.sequenceId(), r.messageNumber(), r.randomized(), randomDigest());
      batch.set(i, Signed.of(q.kind(), q.sender(), other.encode(), q.signature()));
    } catch (DecodeException notARequest) {
      // left as it is
    }
    return batch;
  }

  private long nudge(long v) {
    return v + (rng.nextBoolean() ? 1 : -1);
  }

  private byte[] randomDigest() {
    byte[] d = new byte[32];
    rng.nextBytes(d);
    return d;
  }

  private byte[] mutate(Kind kind, byte[] body) {
    switch (kind) {
      case PRE_PREPARE -> {
        PrePrepare p = PrePrepare.decode(body);
        if (flagged != null && rng.nextInt(4) == 0) {
          List<Signed> batch = new ArrayList<>(p.requests());
          batch.add(flagged.get());
          return PrePrepare.of(p.view(), p.seq(), batch).withRandomness(p.randomness()).encode();
        }
        if (!p.requests().isEmpty() && rng.nextInt(4) == 0) {
          return PrePrepare.of(p.view(), p.seq(), relabelled(p.requests())).withRandomness(p.randomness()).encode();
        }
        return switch (rng.nextInt(3)) {
          case 0 -> PrePrepare.of(nudge(p.view()), p.seq(), p.requests()).withRandomness(p.randomness()).encode();
          case 1 -> PrePrepare.of(p.view(), nudge(p.seq()), p.requests()).withRandomness(p.randomness()).encode();
          default -> PrePrepare.of(p.view(), p.seq(), p.requests().isEmpty() ? p.requests()
              : p.requests().subList(0, rng.nextInt(p.requests().size()))).encode();
        };
      }
      case PREPARE, COMMIT -> {
        Vote v = Vote.decode(body);
        return switch (rng.nextInt(3)) {
          case 0 -> new Vote(nudge(v.view()), v.seq(), v.digest()).encode();
          case 1 -> new Vote(v.view(), nudge(v.seq()), v.digest()).encode();
          default -> new Vote(v.view(), v.seq(), randomDigest()).encode();
        };
      }
      case CHECKPOINT -> {
        Checkpoint c = Checkpoint.decode(body);
        return switch (rng.nextInt(3)) {
          case 0 -> new Checkpoint(nudge(c.seq()), c.stateDigest(), c.executionDigest()).encode();
          case 1 -> new Checkpoint(c.seq(), randomDigest(), c.executionDigest()).encode();
          default -> new Checkpoint(c.seq(), c.stateDigest(), c.hasExecution() ? randomDigest() : c.executionDigest())
              .encode();
        };
      }
      case VIEW_CHANGE -> {
        ViewChange v = ViewChange.decode(body);
        return switch (rng.nextInt(3)) {
          case 0 -> new ViewChange(nudge(v.newView()), v.stableSeq(), v.stableDigest(), v.checkpointProof(), v.prepared()).encode();
          case 1 -> new ViewChange(v.newView(), v.stableSeq(), v.stableDigest(), v.checkpointProof(), List.of()).encode();
          default -> new ViewChange(v.newView(), v.stableSeq(), randomDigest(), v.checkpointProof(), v.prepared()).encode();
        };
      }
      case NEW_VIEW -> {
        NewView nv = NewView.decode(body);
        return rng.nextBoolean() || nv.prePrepares().isEmpty()
            ? new NewView(nudge(nv.view()), nv.viewChanges(), nv.prePrepares()).encode()
            : new NewView(nv.view(), nv.viewChanges(), nv.prePrepares().subList(1, nv.prePrepares().size())).encode();
      }
      case REPLY -> {
        ReplyCertificate c = ReplyCertificate.decode(body);
        return new ReplyCertificate(nudge(c.view()), c.entries()).encode();
      }
      case STATE -> {
        StateTransfer st = StateTransfer.decode(body);
        boolean execution = st.execution().length > 0 && rng.nextBoolean();
        byte[] c = (execution ? st.execution() : st.checkpoint()).clone();
        if (c.length > 0) {
          c[rng.nextInt(c.length)] ^= 1;
        }
        return (execution ? new StateTransfer(st.seq(), st.checkpoint(), c, st.proof())
            : new StateTransfer(st.seq(), c, st.execution(), st.proof())).encode();
      }
      case COIN_SHARE, DECRYPTION_SHARE -> { // one layout: a bad share must be named, by coins and decryptions alike
        return mutateCoinShare(CoinShare.decode(body));
      }
      case PP_UPDATE -> {
        return mutatePpUpdate(PpUpdate.decode(body));
      }
      case ASYNC -> {
        return mutateAsync(AsyncMessage.decode(body)).encode();
      }
      case ORDERED -> {
        return mutateOrdered(OrderedBatch.decode(body));
      }
      case EXECUTION_CHECKPOINT -> {
        Checkpoint c = Checkpoint.decode(body);
        return switch (rng.nextInt(3)) {
          case 0 -> new Checkpoint(nudge(c.seq()), c.stateDigest(), c.executionDigest()).encode();
          case 1 -> new Checkpoint(c.seq(), randomDigest(), c.executionDigest()).encode();
          default -> new Checkpoint(c.seq(), c.stateDigest(), randomDigest()).encode();
        };
      }
      case EXECUTION_STATE -> {
        ExecutionState st = ExecutionState.decode(body);
        byte[] x = st.execution().clone();
        if (x.length > 0) {
          x[rng.nextInt(x.length)] ^= 1;
        }
        return new ExecutionState(st.seq(), st.ordering(), x, st.proof()).encode();
      }
      case FETCH_STATE, REQUEST, EXECUTION_FETCH -> {
        return body;
      }
    }
    return body;
  }

  /**
   * Configuration III: a certified batch with a commit fewer, another sequence number, or part of its batch
   * (the certificate no longer covers it): execution nodes must refuse each.
   */
  private byte[] mutateOrdered(OrderedBatch b) {
    return switch (rng.nextInt(3)) {
      case 0 -> new OrderedBatch(b.seq(), b.view(), b.requests(), b.commits().subList(1, b.commits().size())).encode();
      case 1 -> new OrderedBatch(nudge(b.seq()), b.view(), b.requests(), b.commits()).encode();
      default -> new OrderedBatch(b.seq(), b.view(), b.requests().isEmpty() ? b.requests()
          : b.requests().subList(0, rng.nextInt(b.requests().size())), b.commits()).encode();
    };
  }

  private AsyncMessage mutateAsync(AsyncMessage m) {
    if (asyncHistory.size() < 64) {
      asyncHistory.add(m);
    } else {
      asyncHistory.set(rng.nextInt(asyncHistory.size()), m);
    }
    byte[] payload = m.payload().clone();
    switch (rng.nextInt(4)) {
      case 0 -> {
        if (payload.length > 0) {
          payload[rng.nextInt(payload.length)] ^= (byte) (1 << rng.nextInt(8));
        }
        return new AsyncMessage(m.pid(), m.type(), payload);
      }
      case 1 -> {
        return new AsyncMessage(m.pid(), m.type(), Arrays.copyOf(payload, rng.nextInt(payload.length + 1)));
      }
      case 2 -> {
        AsyncMessage other = asyncHistory.get(rng.nextInt(asyncHistory.size()));
        return other.type() == m.type() ? new AsyncMessage(m.pid(), m.type(), other.payload()) : m;
      }
      default -> {
        return new AsyncMessage(neighbour(m.pid()), m.type(), payload);
      }
    }
  }

  /** The instance with the last numeric segment (round, party, iteration) ±1, if there is one. */
  private Pid neighbour(Pid pid) {
    List<String> seg = pid.segments();
    String last = seg.get(seg.size() - 1);
    if (pid.parent() == null || last.isEmpty() || !last.chars().allMatch(Character::isDigit)) {
      return pid;
    }
    return pid.parent().child(Math.max(0, nudge(Long.parseLong(last))));
  }

  /**
   * Bad pp-updates (integrity paper §4 with a Byzantine replica): another value (a contribution of its
   * choosing, or a reveal that does not open its commitment), another nonce, another sequence number or
   * batch digest, a set missing a member or holding one twice, or a member whose value was changed (its
   * contributor's signature then fails).
   */
  private byte[] mutatePpUpdate(PpUpdate u) {
    List<byte[]> values = new ArrayList<>();
    for (byte[] v : u.values()) {
      values.add(v.clone());
    }
    switch (rng.nextInt(5)) {
      case 0 -> {
        if (!values.isEmpty()) {
          values.get(rng.nextInt(values.size()))[rng.nextInt(PpUpdate.VALUE_LENGTH)] ^= (byte) (1 << rng.nextInt(8));
        } else if (!u.set().isEmpty()) {
          List<Signed> set = new ArrayList<>(u.set());
          Signed m = set.get(rng.nextInt(set.size()));
          PpUpdate mu = PpUpdate.decode(m.body());
          List<byte[]> mv = new ArrayList<>(mu.values());
          mv.set(0, randomDigest());
          set.set(set.indexOf(m), Signed.of(Kind.PP_UPDATE, m.sender(),
              PpUpdate.values(mu.type(), mu.view(), mu.seq(), mu.digest(), mv, mu.nonce()).encode(), m.signature()));
          return new PpUpdate(u.type(), u.view(), u.seq(), u.digest(), values, u.nonce(), set, u.reveals()).encode();
        }
      }
      case 1 -> {
        if (!u.set().isEmpty()) {
          List<Signed> set = new ArrayList<>(u.set());
          if (rng.nextBoolean()) {
            set.remove(rng.nextInt(set.size()));
          } else {
            set.set(0, set.get(set.size() - 1));
          }
          return new PpUpdate(u.type(), u.view(), u.seq(), u.digest(), values, u.nonce(), set, u.reveals()).encode();
        }
        return new PpUpdate(u.type(), u.view(), u.seq(), u.digest(), values,
            u.nonce().length == 0 ? u.nonce() : randomDigest(), u.set(), u.reveals()).encode();
      }
      case 2 -> {
        return new PpUpdate(u.type(), u.view(), nudge(u.seq()), u.digest(), values, u.nonce(), u.set(), u.reveals()).encode();
      }
      case 3 -> {
        return new PpUpdate(u.type(), u.view(), u.seq(), randomDigest(), values, u.nonce(), u.set(), u.reveals()).encode();
      }
      default -> {
        if (!values.isEmpty()) {
          values.remove(values.size() - 1); // fewer values than randomized requests
        }
      }
    }
    return new PpUpdate(u.type(), u.view(), u.seq(), u.digest(), values, u.nonce(), u.set(), u.reveals()).encode();
  }

  /**
   * Bad coin shares (integrity paper §5 with a Byzantine replica): a flipped bit in a share's value or
   * proof, another replica's key index, a share for another request, or another sequence number.
   */
  private byte[] mutateCoinShare(CoinShare cs) {
    List<CoinShare.Entry> entries = new ArrayList<>(cs.shares());
    if (entries.isEmpty()) {
      return cs.encode();
    }
    int j = rng.nextInt(entries.size());
    CoinShare.Entry e = entries.get(j);
    SignatureShare s = SignatureShare.decode(e.share());
    switch (rng.nextInt(5)) {
      case 0, 1 -> {
        byte[] v = s.value();
        byte[] p = s.proof();
        if (rng.nextBoolean() && p.length > 0) {
          p[rng.nextInt(p.length)] ^= (byte) (1 << rng.nextInt(8));
        } else {
          v[rng.nextInt(v.length)] ^= (byte) (1 << rng.nextInt(8));
        }
        entries.set(j, new CoinShare.Entry(e.request(), new SignatureShare(s.scheme(), s.index(), v, p).encode()));
      }
      case 2 -> entries.set(j, new CoinShare.Entry(e.request(),
          new SignatureShare(s.scheme(), s.index() % 4 + 1, s.value(), s.proof()).encode()));
      case 3 -> entries.set(j, new CoinShare.Entry(e.request() + 1, e.share()));
      default -> {
        return new CoinShare(nudge(cs.seq()), cs.digest(), entries).encode();
      }
    }
    return new CoinShare(cs.seq(), cs.digest(), entries).encode();
  }
}
