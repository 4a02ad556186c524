package org.bftws.core.dkg;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.crypto.threshold.Codec;
import org.bftws.core.crypto.Digests;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;

/**
 * One replica's key generation for a whole group without a dealer, over the group's own ordering: two runs of
 * {@link Dkg} (GENERATE) side by side, one for the coin's scheme (CKS or BLS) and one for TDH2, then the
 * group's certificate over the resulting {@code group.pub}. Pure: {@link #start()} and {@link #deliver} return
 * the operations to submit for ordering; the embedding delivers every ordered operation, in the agreed order,
 * with the replica the ordering authenticated as its submitter.
 *
 * <p>Operation format: {@link #MAGIC} ‖ tag (1 = coin DKG, 2 = TDH2 DKG, 3 = certificate signature) ‖ body. The
 * DKG bodies are {@link DkgMessage}s whose author must be their submitter; the signature is the submitter's
 * Ed25519 signature of {@link GroupCertificate#message}. Both runs share the members' individual encryption
 * keys, each with its own session id (SHA-256 of the members' keys and the run's scheme), so no ciphertext or
 * proof of one run means anything in the other.
 */
public final class GroupDkg {
  /** The first bytes of every operation of the key generation (the reserved internal operation). */
  public static final byte[] MAGIC = "BFTWS-DKG-1".getBytes(StandardCharsets.US_ASCII);
  private static final int COIN = 1;
  private static final int TDH2 = 2;
  private static final int CERTIFY = 3;
  /** Largest operation accepted: a dealing at the largest n is about 100 KB; anything far above is refused. */
  public static final int MAX_OPERATION_BYTES = 1 << 20;

  /**
   * What the run gave this replica: the keys ({@code keys} null if its share is missing), group.pub's text, and
   * the qualified dealers QUAL (1..n) of the coin's run and of the TDH2 run, the same at every correct replica:
   * what an auditor (the simulator's checker) needs to see that QUAL holds a correct dealer (GJKR's secrecy).
   */
  public record Output(GroupKeys group, ReplicaKeys keys, String groupText, List<Integer> coinQualified,
      List<Integer> tdh2Qualified) {
    public Output {
      coinQualified = List.copyOf(coinQualified);
      tdh2Qualified = List.copyOf(tdh2Qualified);
    }
  }

  /**
   * The operations to submit, the keys once (else null), the certificate text once 2f+1 replicas signed
   * group.pub (else null), and misbehaviour seen.
   */
  public record Step(List<byte[]> toOrder, Output output, String certificate, List<String> faults) {}

  private final GroupMembers members;
  private final ReplicaIdentity me;
  private final KeyRuns runs;
  private String groupText;
  private final Map<Integer, byte[]> signatures = new TreeMap<>();
  private boolean certified;
  private List<byte[]> out;
  private List<String> faults;
  private Output output;
  private String certificate;

  public GroupDkg(GroupMembers members, ReplicaIdentity me, SecureRandom random) {
    this.members = members;
    this.me = me;
    this.runs = new KeyRuns(Dkg.create(config(members, members.scheme()), member(me), random),
        Dkg.create(config(members, SchemeId.TDH2), member(me), random));
  }

  /** The session id of the run for {@code scheme}: bound into every encryption and proof of that run. */
  static byte[] session(GroupMembers members, SchemeId scheme) {
    Codec.Writer w = new Codec.Writer().bytes("BFTWS-DKG-generate-v1".getBytes(StandardCharsets.US_ASCII))
        .bytes(scheme.label().getBytes(StandardCharsets.US_ASCII)).u16(members.n()).u16(members.f())
        .u16(members.k());
    for (int i = 1; i <= members.n(); i++) {
      w.bytes(members.replicaKey(i).getEncoded()).bytes(members.encryptionKeys().get(i - 1));
    }
    return Digests.sha256(w.toByteArray());
  }

  private static DkgConfig config(GroupMembers m, SchemeId scheme) {
    return new DkgConfig(DkgConfig.Mode.GENERATE, scheme, session(m, scheme), m.params(), m.params(),
        m.encryptionKeys(), null);
  }

  private static Dkg.Member member(ReplicaIdentity me) {
    return new Dkg.Member(me.index(), me.index(), me.encryptionSecret(), null);
  }

  /** Whether {@code operation} is one of the key generation's (a client must never get one ordered). */
  public static boolean isDkgOperation(byte[] operation) {
    return ReservedOperations.is(MAGIC, operation);
  }

  public Step start() {
    begin();
    wrap(COIN, runs.startCoin());
    wrap(TDH2, runs.startTdh2());
    return end();
  }

  /** The next ordered operation of the key generation, submitted by replica {@code submitter} (1..n). */
  public Step deliver(int submitter, byte[] operation) {
    begin();
    ReservedOperations.guarded(submitter, "key generation", () -> take(submitter, operation), faults);
    return end();
  }

  public boolean keysDone() {
    return groupText != null;
  }

  public boolean certified() {
    return certified;
  }

  private void take(int submitter, byte[] operation) {
    if (!isDkgOperation(operation) || operation.length > MAX_OPERATION_BYTES) {
      throw new IllegalArgumentException("not a key generation operation of at most " + MAX_OPERATION_BYTES
          + " bytes");
    }
    int tag = operation[MAGIC.length];
    byte[] body = Arrays.copyOfRange(operation, MAGIC.length + 1, operation.length);
    if (tag == CERTIFY) {
      certify(submitter, body);
      return;
    }
    if (tag != COIN && tag != TDH2) {
      throw new IllegalArgumentException("unknown tag " + tag);
    }
    Dkg.Step s = runs.deliver(submitter, tag == COIN, body, faults);
    if (s != null) {
      wrap(tag, s);
      if (s.output() != null && runs.done()) {
        finish();
      }
    }
  }

  private void finish() {
    GroupKeys group = runs.group(members);
    groupText = KeyFiles.groupText(group);
    ReplicaKeys keys = runs.keys(me);
    if (keys == null) {
      faults.add("no share of its own from this run: this replica needs its share recovered");
    }
    List<List<Integer>> qual = runs.qualified();
    output = new Output(group, keys, groupText, qual.get(0), qual.get(1));
    // every correct replica computed the same group.pub: sign it for the certificate (2f+1 signatures)
    out.add(operation(CERTIFY, GroupCertificate.sign(me.signingKey(), groupText.getBytes(StandardCharsets.UTF_8))));
  }

  /** A replica's signature of group.pub; it counts once group.pub is known here and only if it holds. */
  private void certify(int submitter, byte[] signature) {
    if (certified || submitter < 1 || submitter > members.n()) {
      return;
    }
    if (groupText == null) {
      // every correct replica finishes at the same point of the sequence and signs only then
      faults.add("replica " + submitter + " signed group.pub before the keys were generated: ignored");
      return;
    }
    byte[] text = groupText.getBytes(StandardCharsets.UTF_8);
    if (!GroupCertificate.signatureValid(members.replicaKey(submitter), text, signature)) {
      faults.add("replica " + submitter + " signed another group.pub: ignored");
      return;
    }
    signatures.putIfAbsent(submitter, signature);
    if (signatures.size() == 2 * members.f() + 1) {
      certified = true;
      certificate = GroupCertificate.text(text, signatures);
    }
  }

  private void begin() {
    out = new ArrayList<>();
    faults = new ArrayList<>();
  }

  private Step end() {
    Step s = new Step(List.copyOf(out), output, certificate, List.copyOf(faults));
    output = null;
    certificate = null;
    return s;
  }

  private void wrap(int tag, Dkg.Step s) {
    ReservedOperations.wrap(MAGIC, tag, new byte[0], s, out);
  }

  private static byte[] operation(int tag, byte[] body) {
    return ReservedOperations.encode(MAGIC, tag, body);
  }
}
