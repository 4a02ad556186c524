package org.bftws.sim.bench;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bftws.core.message.CoinShare;
import org.bftws.core.message.Kind;
import org.bftws.core.message.PpUpdate;
import org.bftws.core.message.PrePrepare;
import org.bftws.core.message.Signed;
import org.bftws.core.pbft.BaRandomness;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.pbft.RandomnessConfig;
import org.bftws.core.pbft.RandomnessConfig.Algorithm;

/**
 * The engine benchmark's other replicas (0 = primary, 2, 3) as far as randomness goes: what they send the
 * measured backup (replica 1) for a batch whose requests are all randomized, made outside the timing.
 * CT (integrity paper §5): after the commit, the coin shares of replicas 0, 2 and 3 (the backup combines its
 * own with the first, k = f+1 = 2). BA (§4): the primary's contribution in the pre-prepare, the other
 * backups' contributions, the primary's set S_R (hardened: commitments, then the reveals of the set's
 * members). Prepares and commits are then on d' = D(d || R), which is computed here from what the backup
 * itself contributed.
 */
final class RandomPeers {
  private static final int[] PEERS = {0, 2, 3};
  private static final byte[] GROUP_ID = "urn:bftws:engine-bench".getBytes(StandardCharsets.US_ASCII);

  private final Algorithm algorithm;
  private final Map<Integer, Signer> signers;
  private final CoinConfig[] coins = new CoinConfig[4];
  private final boolean perBatch;
  private final Random secrets = new Random(1);
  /** BA: the peers' values (hardened: and nonces) for the current batch, by replica. */
  private final Map<Integer, List<byte[]>> values = new HashMap<>();
  private final Map<Integer, byte[]> nonces = new HashMap<>();

  RandomPeers(Algorithm algorithm, SchemeId scheme, boolean perBatch, Map<Integer, Signer> signers) {
    this.algorithm = algorithm;
    this.perBatch = perBatch;
    this.signers = signers;
    if (algorithm == Algorithm.CT) {
      ThresholdScheme s = Thresholds.scheme(scheme);
      Dealt dealt = s.deal(ThresholdParams.forF(1), new SecureRandom());
      for (int i = 0; i < 4; i++) {
        coins[i] = new CoinConfig(s, dealt.group(), dealt.share(i + 1), GROUP_ID);
      }
    }
  }

  boolean randomized() {
    return algorithm != Algorithm.NONE;
  }

  /** The measured replica's configuration: its coin key share, or a seeded entropy source (BA). */
  RandomnessConfig config(int id) {
    Random entropy = new Random(100 + id);
    return switch (algorithm) {
      case NONE -> RandomnessConfig.none();
      case CT -> RandomnessConfig.ct(coins[id]);
      case BA -> RandomnessConfig.ba(entropy::nextBytes);
      case BA_HARDENED -> RandomnessConfig.baHardened(entropy::nextBytes);
    };
  }

  private boolean agreement() {
    return algorithm == Algorithm.BA || algorithm == Algorithm.BA_HARDENED;
  }

  /** BA: the pre-prepare with the primary's contribution (hardened: commitment). */
  PrePrepare inPrePrepare(PrePrepare pp) {
    if (!agreement()) {
      return pp;
    }
    values.clear();
    nonces.clear();
    return pp.withRandomness(contribution(0, pp));
  }

  /**
   * BA, after the pre-prepare was delivered: deliver the other backups' contributions and the primary's set
   * (hardened: and the set's reveals), and return d' for the prepares and commits; otherwise d.
   *
   * @param own the measured replica's pp-update of a type among what it sent (null if none)
   */
  byte[] afterPrePrepare(PrePrepare pp, Function<PpUpdate.Type, Signed> own, Consumer<byte[]> deliver) {
    if (!agreement()) {
      return pp.digest();
    }
    boolean hardened = algorithm == Algorithm.BA_HARDENED;
    Signed mine = own.apply(hardened ? PpUpdate.Type.COMMITMENT : PpUpdate.Type.CONTRIBUTION);
    Signed c2 = contribution(2, pp);
    deliver.accept(c2.encode());
    deliver.accept(contribution(3, pp).encode());
    Signed c0 = pp.randomness();
    PpUpdate set = PpUpdate.set(0, pp.seq(), pp.digest(), List.of(c0, mine, c2), List.of());
    deliver.accept(Signed.sign(Kind.PP_UPDATE, 0, set.encode(), signers.get(0)).encode());
    Map<Integer, List<byte[]>> combined = new HashMap<>();
    combined.put(0, values.get(0));
    combined.put(2, values.get(2));
    if (hardened) {
      for (int i : new int[] {0, 2}) {
        PpUpdate reveal = PpUpdate.values(PpUpdate.Type.REVEAL, 0, pp.seq(), pp.digest(), values.get(i), nonces.get(i));
        deliver.accept(Signed.sign(Kind.PP_UPDATE, i, reveal.encode(), signers.get(i)).encode());
      }
      combined.put(1, PpUpdate.decode(own.apply(PpUpdate.Type.REVEAL).body()).values());
    } else {
      combined.put(1, PpUpdate.decode(mine.body()).values());
    }
    return BaRandomness.voteDigest(pp.digest(), BaRandomness.combine(combined, pp.requests().size()));
  }

  /** Replica i's signed contribution (hardened: commitment) for every request of the batch. */
  private Signed contribution(int i, PrePrepare pp) {
    List<byte[]> vs = new ArrayList<>();
    for (int j = 0; j < pp.requests().size(); j++) {
      vs.add(random32());
    }
    values.put(i, vs);
    List<byte[]> sent = vs;
    PpUpdate.Type type = PpUpdate.Type.CONTRIBUTION;
    if (algorithm == Algorithm.BA_HARDENED) {
      byte[] nonce = random32();
      nonces.put(i, nonce);
      sent = new ArrayList<>();
      for (int j = 0; j < vs.size(); j++) {
        sent.add(BaRandomness.commitment(i, pp.seq(), pp.digest(), j, vs.get(j), nonce));
      }
      type = PpUpdate.Type.COMMITMENT;
    }
    PpUpdate u = PpUpdate.values(type, 0, pp.seq(), pp.digest(), sent, new byte[0]);
    return Signed.sign(Kind.PP_UPDATE, i, u.encode(), signers.get(i));
  }

  private byte[] random32() {
    byte[] b = new byte[PpUpdate.VALUE_LENGTH];
    secrets.nextBytes(b);
    return b;
  }

  /** CT, after the batch committed: the peers' coin shares (per request, or one per batch). */
  List<byte[]> coinShares(PrePrepare pp) {
    List<byte[]> out = new ArrayList<>();
    if (algorithm != Algorithm.CT) {
      return out;
    }
    for (int i : PEERS) {
      CoinConfig c = coins[i];
      List<CoinShare.Entry> entries = new ArrayList<>();
      if (perBatch) {
        byte[] m = CoinConfig.batchCoinMessage(GROUP_ID, pp.seq(), pp.digest());
        entries.add(new CoinShare.Entry(CoinShare.BATCH, c.scheme().share(c.group(), c.share(), m).encode()));
      } else {
        for (int j = 0; j < pp.requests().size(); j++) {
          byte[] m = CoinConfig.requestCoinMessage(GROUP_ID, pp.seq(), pp.requests().get(j).body());
          entries.add(new CoinShare.Entry(j, c.scheme().share(c.group(), c.share(), m).encode()));
        }
      }
      out.add(Signed.sign(Kind.COIN_SHARE, i, new CoinShare(pp.seq(), pp.digest(), entries).encode(), signers.get(i)).encode());
    }
    return out;
  }
}
