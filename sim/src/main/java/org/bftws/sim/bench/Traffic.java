package org.bftws.sim.bench;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.async.AsyncMessage;
import org.bftws.core.async.BinaryAgreement;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;

/**
 * What crosses the transport boundary of an in-process group: every {@code Ready.Outbound} a replica
 * returns, counted once per recipient (messages) and its envelope's length once per recipient (bytes), as a
 * network would carry it; split by envelope kind, and for SINTRA's messages by protocol (the segment of the
 * instance id that names it: {@code abc} proposals, {@code cb} consistent broadcasts, {@code mvba} votes,
 * {@code vba} binary agreements) and binary-agreement message type.
 *
 * <p>With {@code agreements} it also reads, from the binary agreements' DECIDE messages, each agreement's
 * deciding round (the round is the first field of DECIDE) and, from the instance ids {@code
 * abc/r/mvba/vba/k}, how many candidates each channel round's multi-valued agreement tried (k + 1): both
 * as the messages show them, with no hook in the engine. Those maps grow with the rounds, so a long run
 * (the memory benchmark) turns them off.
 */
final class Traffic {
  /** Messages and bytes of one category. */
  static final class Count {
    long messages;
    long bytes;

    void add(int recipients, int length) {
      messages += recipients;
      bytes += (long) recipients * length;
    }
  }

  final Count peers = new Count();
  final Count requests = new Count();
  final Count replies = new Count();
  final Map<Kind, Count> byKind = new EnumMap<>(Kind.class);
  final Map<String, Count> byProtocol = new TreeMap<>();
  /** Coin-share messages (binary agreement type COIN) sent, once per envelope (not per recipient). */
  long coinMessages;
  private final boolean agreements;
  /** Per channel round: the highest candidate index k of {@code abc/r/mvba/vba/k} seen. */
  private final Map<Long, Integer> candidates = new HashMap<>();
  /** Per binary agreement {@code "r/k"}: the deciding round named by its DECIDE messages. */
  private final Map<String, Long> decidedIn = new HashMap<>();

  Traffic(boolean agreements) {
    this.agreements = agreements;
  }

  /** A replica's message to {@code recipients} other replicas. */
  void peer(byte[] envelope, int recipients) {
    peers.add(recipients, envelope.length);
    Signed s = Signed.decode(envelope);
    byKind.computeIfAbsent(s.kind(), k -> new Count()).add(recipients, envelope.length);
    if (s.kind() == Kind.ASYNC) {
      async(AsyncMessage.decode(s.body()), recipients, envelope.length);
    }
  }

  private void async(AsyncMessage m, int recipients, int length) {
    List<String> seg = m.pid().segments(); // abc / r [/ mvba [/ cb / j | / vba / k]]
    String protocol = seg.size() <= 2 ? "abc proposal" : seg.size() <= 3 ? "mvba vote" : seg.get(3);
    if (protocol.equals("vba")) {
      protocol = "vba " + binaryAgreementType(m.type());
      if (m.type() == BinaryAgreement.Type.COIN.code()) {
        coinMessages++;
      }
      if (agreements) {
        long round = Long.parseLong(seg.get(1));
        int k = Integer.parseInt(seg.get(4));
        candidates.merge(round, k, Math::max);
        if (m.type() == BinaryAgreement.Type.DECIDE.code()) {
          decidedIn.merge(round + "/" + k, new ByteReader(m.payload()).i64(), Math::max);
        }
      }
    }
    byProtocol.computeIfAbsent(protocol, p -> new Count()).add(recipients, length);
  }

  private static String binaryAgreementType(int type) {
    for (BinaryAgreement.Type t : BinaryAgreement.Type.values()) {
      if (t.code() == type) {
        return t.name().toLowerCase(Locale.ROOT).replace('_', '-');
      }
    }
    return "type " + type;
  }

  /** Candidates tried per multi-valued agreement (channel rounds that reached one), 0 if none seen. */
  double meanCandidates() {
    return candidates.values().stream().mapToInt(k -> k + 1).average().orElse(0);
  }

  /** Rounds per binary agreement to decide, over those whose DECIDE was seen, 0 if none. */
  double meanAgreementRounds() {
    return decidedIn.values().stream().mapToLong(Long::longValue).average().orElse(0);
  }

  long maxAgreementRounds() {
    return decidedIn.values().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  int agreementsSeen() {
    return decidedIn.size();
  }
}
