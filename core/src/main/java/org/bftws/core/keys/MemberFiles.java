package org.bftws.core.keys;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.crypto.threshold.DlGroup;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * The key files of a group without a trusted dealer (format in the package documentation): each replica's
 * {@code replica-I.id} (private, 0600) and {@code replica-I.pub}, each client's {@code client-J.pub} beside its
 * {@code client-J.key}, and the group's {@code members.pub} assembled from the public files. Every failure is a
 * {@link KeyFileException} naming the file and the field.
 */
public final class MemberFiles {
  public static final String MEMBERS_FILE = "members.pub";
  static final String IDENTITY_FORMAT = "bftws-replica-identity-1";
  static final String MEMBER_FORMAT = "bftws-member-1";
  static final String MEMBERS_FORMAT = "bftws-members-1";
  private static final DlGroup<ECPoint> P256 = DlGroup.p256();
  private static final int MAX_CLIENTS = 1 << 16;

  private MemberFiles() {}

  public static String identityFileName(int replica) {
    return "replica-" + replica + ".id";
  }

  public static String replicaPublicFileName(int replica) {
    return "replica-" + replica + ".pub";
  }

  public static String clientPublicFileName(int client) {
    return "client-" + client + ".pub";
  }

  /** What one {@code replica-I.pub} or {@code client-J.pub} says; {@code encryptionKey} is null for a client. */
  public record Member(boolean replica, int index, Ed25519PublicKeyParameters signingKey, byte[] encryptionKey) {}

  static void writeIdentity(Path file, ReplicaIdentity id) throws IOException {
    String text = new KeyFileFormat.Builder()
        .comment("BFT-WS replica " + id.index() + ": PRIVATE individual keys, generated on this host. Mode 0600.")
        .field("format", IDENTITY_FORMAT).field("replica", id.index())
        .base64("ed25519.private", id.signingKey().getEncoded()).base64("p256.private", id.encryptionSecret())
        .text();
    KeyFileFormat.create(file, text, true);
  }

  static void writeMember(Path file, Member m) throws IOException {
    KeyFileFormat.Builder b = new KeyFileFormat.Builder()
        .comment("BFT-WS " + (m.replica() ? "replica " : "client ") + m.index() + ": public keys only.")
        .field("format", MEMBER_FORMAT).field(m.replica() ? "replica" : "client", m.index())
        .base64("ed25519", m.signingKey().getEncoded());
    if (m.replica()) {
      b.base64("p256", m.encryptionKey());
    }
    KeyFileFormat.create(file, b.text(), false);
  }

  public static void writeMembers(Path file, GroupMembers g) throws IOException {
    KeyFileFormat.Builder b = new KeyFileFormat.Builder()
        .comment("BFT-WS replica group without a dealer: public keys of its members; the distributed key"
            + " generation makes the threshold keys.")
        .field("format", MEMBERS_FORMAT).field("scheme", g.scheme().label())
        .field("n", g.n()).field("f", g.f()).field("k", g.k());
    for (int i = 1; i <= g.n(); i++) {
      b.base64("replica." + i + ".ed25519", g.replicaKey(i).getEncoded());
      b.base64("replica." + i + ".p256", g.encryptionKeys().get(i - 1));
    }
    b.field("clients", g.clientKeys().size());
    for (int j = 1; j <= g.clientKeys().size(); j++) {
      b.base64("client." + j + ".ed25519", g.clientKeys().get(j - 1).getEncoded());
    }
    KeyFileFormat.create(file, b.text(), false);
  }

  /** Reads {@code replica-I.id} and checks that its keys are well-formed. */
  public static ReplicaIdentity readIdentity(Path file) throws KeyFileException {
    KeyFileFormat.Fields in = KeyFileFormat.read(file);
    in.expect("format", IDENTITY_FORMAT);
    int index = in.integer("replica", 1, ThresholdParams.MAX_N);
    byte[] seed = in.base64("ed25519.private");
    if (seed.length != Ed25519PrivateKeyParameters.KEY_SIZE) {
      throw in.error("ed25519.private", "expected " + Ed25519PrivateKeyParameters.KEY_SIZE + " bytes");
    }
    byte[] secret = in.base64("p256.private");
    try {
      if (P256.decodeScalar(secret, "p256.private").signum() == 0) {
        throw in.error("p256.private", "is zero");
      }
    } catch (IllegalArgumentException e) {
      throw in.error("p256.private", e.getMessage());
    }
    in.noOthers();
    return new ReplicaIdentity(index, new Ed25519PrivateKeyParameters(seed), secret);
  }

  /** Reads {@code replica-I.id} and checks it against the group's published keys of that replica. */
  public static ReplicaIdentity readIdentity(Path file, GroupMembers group) throws KeyFileException {
    ReplicaIdentity id = readIdentity(file);
    if (id.index() > group.n()) {
      throw new KeyFileException(file, "replica", "is " + id.index() + ", but the group has " + group.n());
    }
    if (!Arrays.equals(id.signingKey().generatePublicKey().getEncoded(), group.replicaKey(id.index()).getEncoded())) {
      throw new KeyFileException(file, "ed25519.private", "does not match replica." + id.index() + ".ed25519");
    }
    if (!Arrays.equals(encryptionPublicKey(id.encryptionSecret()), group.encryptionKeys().get(id.index() - 1))) {
      throw new KeyFileException(file, "p256.private", "does not match replica." + id.index() + ".p256");
    }
    return id;
  }

  /** Reads one {@code replica-I.pub} or {@code client-J.pub}. */
  public static Member readMember(Path file) throws KeyFileException {
    KeyFileFormat.Fields in = KeyFileFormat.read(file);
    in.expect("format", MEMBER_FORMAT);
    boolean replica = in.has("replica");
    int index = replica ? in.integer("replica", 1, ThresholdParams.MAX_N) : in.integer("client", 1, MAX_CLIENTS);
    Ed25519PublicKeyParameters key = ed25519(in, "ed25519");
    byte[] enc = replica ? p256(in, "p256") : null;
    in.noOthers();
    return new Member(replica, index, key, enc);
  }

  /** Reads and validates {@code members.pub}. */
  public static GroupMembers readMembers(Path file) throws KeyFileException {
    KeyFileFormat.Fields in = KeyFileFormat.read(file);
    in.expect("format", MEMBERS_FORMAT);
    SchemeId scheme;
    try {
      scheme = SchemeId.fromLabel(in.string("scheme"));
    } catch (IllegalArgumentException e) {
      throw in.error("scheme", e.getMessage());
    }
    if (scheme != SchemeId.CKS && scheme != SchemeId.BLS) {
      throw in.error("scheme", "must be cks or bls: " + scheme.label() + " has no distributed key generation");
    }
    int n = in.integer("n", 1, ThresholdParams.MAX_N);
    int f = in.integer("f", 0, n);
    int k = in.integer("k", 1, n);
    try {
      new ThresholdParams(n, k, f);
    } catch (IllegalArgumentException e) {
      throw in.error("k", e.getMessage());
    }
    List<Ed25519PublicKeyParameters> replicas = new ArrayList<>();
    List<byte[]> enc = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      replicas.add(ed25519(in, "replica." + i + ".ed25519"));
      enc.add(p256(in, "replica." + i + ".p256"));
    }
    int clients = in.integer("clients", 0, MAX_CLIENTS);
    List<Ed25519PublicKeyParameters> clientKeys = new ArrayList<>();
    for (int j = 1; j <= clients; j++) {
      clientKeys.add(ed25519(in, "client." + j + ".ed25519"));
    }
    in.noOthers();
    return new GroupMembers(scheme, n, f, k, replicas, enc, clientKeys);
  }

  /** The P-256 public key g^sk of an encryption secret (33 bytes, SEC1 compressed). */
  static byte[] encryptionPublicKey(byte[] secret) {
    return P256.encode(P256.expG(P256.decodeScalar(secret, "encryption secret")));
  }

  private static Ed25519PublicKeyParameters ed25519(KeyFileFormat.Fields in, String name) throws KeyFileException {
    byte[] b = in.base64(name);
    if (b.length != Ed25519PublicKeyParameters.KEY_SIZE || !Ed25519.validatePublicKeyFull(b, 0)) {
      throw in.error(name, "not a valid Ed25519 public key");
    }
    return new Ed25519PublicKeyParameters(b);
  }

  private static byte[] p256(KeyFileFormat.Fields in, String name) throws KeyFileException {
    byte[] b = in.base64(name);
    try {
      P256.decode(b, name);
    } catch (IllegalArgumentException e) {
      throw in.error(name, "not a valid P-256 point: " + e.getMessage());
    }
    return b;
  }
}
