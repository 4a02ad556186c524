package org.bftws.core.keys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.crypto.threshold.GroupKey;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Reads and writes the key files of {@link KeyGen} (format in the package documentation). Reading checks
 * everything a replica relies on — counts, indices, that the threshold share matches its published
 * verification key, that the Ed25519 private key matches the published public key — and every failure is a
 * {@link KeyFileException} naming the file and the field.
 */
public final class KeyFiles {
  public static final String GROUP_FILE = "group.pub";
  static final String GROUP_FORMAT = "bftws-group-1";
  static final String REPLICA_FORMAT = "bftws-replica-1";
  static final String CLIENT_FORMAT = "bftws-client-1";
  private static final int MAX_CLIENTS = 1 << 16;

  private KeyFiles() {}

  public static String replicaFileName(int index) {
    return "replica-" + index + ".key";
  }

  public static String clientFileName(int index) {
    return "client-" + index + ".key";
  }

  /** Reads and validates {@code group.pub}. */
  public static GroupKeys readGroup(Path file) throws KeyFileException {
    return group(KeyFileFormat.read(file));
  }

  /**
   * Parses and validates a {@code group.pub} text ({@link #groupText}) that did not come from a file (a
   * checkpoint's); {@code source} names it in errors.
   */
  public static GroupKeys parseGroup(String text, String source) throws KeyFileException {
    return group(KeyFileFormat.parse(Path.of(source), text));
  }

  private static GroupKeys group(KeyFileFormat.Fields in) throws KeyFileException {
    in.expect("format", GROUP_FORMAT);
    SchemeId scheme = scheme(in);
    int n = in.integer("n", 1, ThresholdParams.MAX_N);
    int f = in.integer("f", 0, n);
    int k = in.integer("k", 1, n);
    ThresholdParams params;
    try {
      params = new ThresholdParams(n, k, f);
    } catch (IllegalArgumentException e) {
      throw in.error("k", e.getMessage());
    }
    byte[] common = in.base64("threshold.group");
    List<byte[]> vks = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      vks.add(in.base64("threshold.vk." + i));
    }
    GroupKey group = groupKey(in, "threshold", scheme, params, common, vks);
    GroupKey encryption = groupKey(in, "tdh2", SchemeId.TDH2, params, in.base64("tdh2.group"), tdh2Keys(in, n));
    List<Ed25519PublicKeyParameters> replicas = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      replicas.add(publicKey(in, "replica." + i + ".ed25519"));
    }
    int clients = in.integer("clients", 0, MAX_CLIENTS);
    List<Ed25519PublicKeyParameters> clientKeys = new ArrayList<>();
    for (int j = 1; j <= clients; j++) {
      clientKeys.add(publicKey(in, "client." + j + ".ed25519"));
    }
    in.noOthers();
    return new GroupKeys(n, f, k, group, encryption, replicas, clientKeys);
  }

  /** Reads {@code replica-I.key} and checks it against the group's public material. */
  public static ReplicaKeys readReplica(Path file, GroupKeys group) throws KeyFileException {
    KeyFileFormat.Fields in = KeyFileFormat.read(file);
    in.expect("format", REPLICA_FORMAT);
    if (scheme(in) != group.scheme()) {
      throw in.error("scheme", "does not match the group's scheme " + group.scheme().label());
    }
    int index = in.integer("replica", 1, group.n());
    KeyShare share;
    try {
      share = KeyShare.decode(in.base64("threshold.share"));
    } catch (IllegalArgumentException e) {
      throw in.error("threshold.share", "malformed: " + e.getMessage());
    }
    if (share.index() != index || !share.params().equals(group.threshold().params())
        || share.scheme() != group.scheme()) {
      throw in.error("threshold.share", "is not a share of replica " + index + " for this group's (n, k, t)");
    }
    if (!group.thresholdScheme().keyShareMatches(group.threshold(), share)) {
      throw in.error("threshold.share", "does not match the group's threshold.vk." + index);
    }
    KeyShare decryption = decryptionShare(in, index, group);
    Ed25519PrivateKeyParameters key = privateKey(in);
    if (!Arrays.equals(key.generatePublicKey().getEncoded(), group.replicaKey(index).getEncoded())) {
      throw in.error("ed25519.private", "does not match the group's replica." + index + ".ed25519");
    }
    in.noOthers();
    return new ReplicaKeys(index, share, decryption, key);
  }

  /** Reads {@code client-J.key} and checks it against the group's published client key. */
  public static ClientKeys readClient(Path file, GroupKeys group) throws KeyFileException {
    KeyFileFormat.Fields in = KeyFileFormat.read(file);
    in.expect("format", CLIENT_FORMAT);
    int index = in.integer("client", 1, Math.max(1, group.clientKeys().size()));
    if (index > group.clientKeys().size()) {
      throw in.error("client", "the group publishes no client keys");
    }
    Ed25519PrivateKeyParameters key = privateKey(in);
    if (!Arrays.equals(key.generatePublicKey().getEncoded(), group.clientKey(index).getEncoded())) {
      throw in.error("ed25519.private", "does not match the group's client." + index + ".ed25519");
    }
    in.noOthers();
    return new ClientKeys(index, key);
  }

  /** Reads the group file and the file of replica {@code index} from {@code dir}. */
  public static ReplicaKeys readReplica(Path dir, int index) throws KeyFileException {
    GroupKeys group = readGroup(dir.resolve(GROUP_FILE));
    return readReplica(dir.resolve(replicaFileName(index)), group);
  }

  static void writeGroup(Path file, GroupKeys g) throws IOException {
    KeyFileFormat.create(file, groupText(g), false);
  }

  /**
   * The text of {@code group.pub} for {@code g}: a function of the keys alone, so replicas that computed the
   * same keys write byte-identical files (what the group's certificate signs).
   */
  public static String groupText(GroupKeys g) {
    KeyFileFormat.Builder b = new KeyFileFormat.Builder()
        .comment("BFT-WS replica group: public keys only (see org.bftws.core.keys for the format).")
        .field("format", GROUP_FORMAT).field("scheme", g.scheme().label())
        .field("n", g.n()).field("f", g.f()).field("k", g.k())
        .base64("threshold.group", g.threshold().commonEncoding());
    for (int i = 1; i <= g.n(); i++) {
      b.base64("threshold.vk." + i, g.threshold().verificationKeyEncoding(i));
    }
    b.base64("tdh2.group", g.encryption().commonEncoding());
    for (int i = 1; i <= g.n(); i++) {
      b.base64("tdh2.vk." + i, g.encryption().verificationKeyEncoding(i));
    }
    for (int i = 1; i <= g.n(); i++) {
      b.base64("replica." + i + ".ed25519", g.replicaKey(i).getEncoded());
    }
    b.field("clients", g.clientKeys().size());
    for (int j = 1; j <= g.clientKeys().size(); j++) {
      b.base64("client." + j + ".ed25519", g.clientKey(j).getEncoded());
    }
    return b.text();
  }

  /**
   * Whether {@code a} and {@code b} are the same group (members, group keys) whatever their verification keys:
   * the keys of one group before and after a proactive refresh.
   */
  public static boolean sameGroupKeys(GroupKeys a, GroupKeys b) {
    if (a.n() != b.n() || a.f() != b.f() || a.k() != b.k() || a.scheme() != b.scheme()
        || a.clientKeys().size() != b.clientKeys().size()
        || !Arrays.equals(a.threshold().commonEncoding(), b.threshold().commonEncoding())
        || !Arrays.equals(a.encryption().commonEncoding(), b.encryption().commonEncoding())) {
      return false;
    }
    for (int i = 1; i <= a.n(); i++) {
      if (!Arrays.equals(a.replicaKey(i).getEncoded(), b.replicaKey(i).getEncoded())) {
        return false;
      }
    }
    for (int j = 1; j <= a.clientKeys().size(); j++) {
      if (!Arrays.equals(a.clientKey(j).getEncoded(), b.clientKey(j).getEncoded())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes what the distributed key generation gave replica {@code keys.index()} into its data directory:
   * {@code group.pub} ({@code groupText}) and {@code replica-I.key} (mode 0600 from creation on). Never
   * overwrites.
   */
  public static void writeGenerated(Path dir, String groupText, ReplicaKeys keys) throws IOException {
    writeReplica(dir.resolve(replicaFileName(keys.index())), keys);
    KeyFileFormat.create(dir.resolve(GROUP_FILE), groupText, false);
  }

  static void writeReplica(Path file, ReplicaKeys r) throws IOException {
    String text = new KeyFileFormat.Builder()
        .comment("BFT-WS replica " + r.index() + ": PRIVATE keys. Keep this file on that replica only, mode 0600.")
        .field("format", REPLICA_FORMAT).field("scheme", r.share().scheme().label()).field("replica", r.index())
        .base64("threshold.share", r.share().encode()).base64("tdh2.share", r.decryption().encode())
        .base64("ed25519.private", r.signingKey().getEncoded())
        .text();
    KeyFileFormat.create(file, text, true);
  }

  static void writeClient(Path file, ClientKeys c) throws IOException {
    String text = new KeyFileFormat.Builder()
        .comment("BFT-WS client " + c.index() + ": PRIVATE signing key, mode 0600.")
        .field("format", CLIENT_FORMAT).field("client", c.index())
        .base64("ed25519.private", c.signingKey().getEncoded()).text();
    KeyFileFormat.create(file, text, true);
  }

  private static SchemeId scheme(KeyFileFormat.Fields in) throws KeyFileException {
    try {
      return SchemeId.fromLabel(in.string("scheme"));
    } catch (IllegalArgumentException e) {
      throw in.error("scheme", e.getMessage());
    }
  }

  /**
   * Validates each part of the key whose fields start with {@code prefix} ("threshold" or "tdh2"); a bad
   * verification key is reported as its own field, anything else as the common part.
   */
  private static GroupKey groupKey(KeyFileFormat.Fields in, String prefix, SchemeId scheme, ThresholdParams params,
      byte[] common, List<byte[]> vks) throws KeyFileException {
    try {
      return Thresholds.keys(scheme).groupKey(params, common, vks);
    } catch (IllegalArgumentException e) {
      String msg = String.valueOf(e.getMessage());
      for (int i = 1; i <= params.n(); i++) {
        if (msg.startsWith("verification key " + i + ":")) {
          throw in.error(prefix + ".vk." + i, msg);
        }
      }
      throw in.error(prefix + ".group", msg);
    }
  }

  private static List<byte[]> tdh2Keys(KeyFileFormat.Fields in, int n) throws KeyFileException {
    List<byte[]> vks = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      vks.add(in.base64("tdh2.vk." + i));
    }
    return vks;
  }

  /** Replica {@code index}'s TDH2 key share, checked against the group's {@code tdh2.vk.index}. */
  private static KeyShare decryptionShare(KeyFileFormat.Fields in, int index, GroupKeys group)
      throws KeyFileException {
    KeyShare share;
    try {
      share = KeyShare.decode(in.base64("tdh2.share"));
    } catch (IllegalArgumentException e) {
      throw in.error("tdh2.share", "malformed: " + e.getMessage());
    }
    if (share.index() != index || share.scheme() != SchemeId.TDH2
        || !Thresholds.keys(SchemeId.TDH2).keyShareMatches(group.encryption(), share)) {
      throw in.error("tdh2.share", "does not match the group's tdh2.vk." + index);
    }
    return share;
  }

  private static Ed25519PublicKeyParameters publicKey(KeyFileFormat.Fields in, String name)
      throws KeyFileException {
    byte[] b = in.base64(name);
    if (b.length != Ed25519PublicKeyParameters.KEY_SIZE || !Ed25519.validatePublicKeyFull(b, 0)) {
      throw in.error(name, "not a valid Ed25519 public key");
    }
    return new Ed25519PublicKeyParameters(b);
  }

  private static Ed25519PrivateKeyParameters privateKey(KeyFileFormat.Fields in) throws KeyFileException {
    byte[] b = in.base64("ed25519.private");
    if (b.length != Ed25519PrivateKeyParameters.KEY_SIZE) {
      throw in.error("ed25519.private", "expected " + Ed25519PrivateKeyParameters.KEY_SIZE + " bytes");
    }
    return new Ed25519PrivateKeyParameters(b);
  }
}
