package org.bftws.core.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.crypto.Digests;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;

/**
 * The group's certificate over a {@code group.pub} made by the distributed key generation ({@code group.cert}):
 * Ed25519 signatures of 2f+1 replicas over SHA-256(domain ‖ group.pub's bytes). At most f replicas are faulty,
 * so at least f+1 correct ones computed these keys from the agreed sequence: a client that trusts the replicas'
 * public keys ({@code members.pub}) can take a {@code group.pub} fetched from any one replica once this
 * certificate checks against it ({@link #verify}).
 *
 * <pre>
 * group.cert   format = bftws-group-cert-1
 *              group.sha256 = SHA-256 of group.pub's bytes
 *              signature.I  = Ed25519 signature of replica I (2f+1 or more distinct I)
 * </pre>
 */
public final class GroupCertificate {
  public static final String FILE = "group.cert";
  static final String FORMAT = "bftws-group-cert-1";
  private static final byte[] DOMAIN = "BFTWS-group-certificate-v1".getBytes(StandardCharsets.US_ASCII);

  private GroupCertificate() {}

  /** What each replica signs for {@code groupText}. */
  public static byte[] message(byte[] groupText) {
    return Digests.sha256(DOMAIN, Digests.sha256(groupText));
  }

  public static byte[] sign(Ed25519PrivateKeyParameters key, byte[] groupText) {
    Ed25519Signer s = new Ed25519Signer();
    s.init(true, key);
    byte[] m = message(groupText);
    s.update(m, 0, m.length);
    return s.generateSignature();
  }

  public static boolean signatureValid(Ed25519PublicKeyParameters key, byte[] groupText, byte[] signature) {
    Ed25519Signer s = new Ed25519Signer();
    s.init(false, key);
    byte[] m = message(groupText);
    s.update(m, 0, m.length);
    return s.verifySignature(signature);
  }

  /** The text of {@code group.cert}: the digest and the signatures by replica index (1..n). */
  public static String text(byte[] groupText, Map<Integer, byte[]> signatures) {
    KeyFileFormat.Builder b = new KeyFileFormat.Builder()
        .comment("BFT-WS group certificate: 2f+1 replicas signed group.pub (org.bftws.core.keys.GroupCertificate).")
        .field("format", FORMAT).base64("group.sha256", Digests.sha256(groupText));
    new TreeMap<>(signatures).forEach((i, sig) -> b.base64("signature." + i, sig));
    return b.text();
  }

  public static void write(Path file, byte[] groupText, Map<Integer, byte[]> signatures) throws IOException {
    KeyFileFormat.create(file, text(groupText, signatures), false);
  }

  /**
   * Checks {@code groupFile} against {@code certFile} and the trusted replica keys ({@code replicaKeys.get(i-1)}
   * of replica i): the digest matches, at least 2f+1 distinct replicas' signatures hold, and the group.pub
   * names exactly these replica keys. Returns the group's keys.
   */
  public static GroupKeys verify(Path groupFile, Path certFile, List<Ed25519PublicKeyParameters> replicaKeys, int f)
      throws KeyFileException {
    byte[] groupText;
    try {
      groupText = Files.readAllBytes(groupFile);
    } catch (IOException e) {
      throw new KeyFileException(groupFile, KeyFileFormat.FILE, "cannot read: " + e.getMessage());
    }
    KeyFileFormat.Fields in = KeyFileFormat.read(certFile);
    in.expect("format", FORMAT);
    if (!java.util.Arrays.equals(in.base64("group.sha256"), Digests.sha256(groupText))) {
      throw in.error("group.sha256", "is not the digest of " + groupFile);
    }
    int valid = 0;
    for (int i = 1; i <= replicaKeys.size(); i++) {
      if (in.has("signature." + i)) {
        if (!signatureValid(replicaKeys.get(i - 1), groupText, in.base64("signature." + i))) {
          throw in.error("signature." + i, "is not replica " + i + "'s signature of this group.pub");
        }
        valid++;
      }
    }
    in.noOthers();
    if (valid < 2 * f + 1) {
      throw in.error("signature.*", valid + " replicas signed, 2f+1 = " + (2 * f + 1) + " needed");
    }
    GroupKeys group = KeyFiles.readGroup(groupFile);
    for (int i = 1; i <= replicaKeys.size(); i++) {
      if (group.n() != replicaKeys.size()
          || !java.util.Arrays.equals(group.replicaKey(i).getEncoded(), replicaKeys.get(i - 1).getEncoded())) {
        throw new KeyFileException(groupFile, "replica." + i + ".ed25519", "is not the trusted key of replica " + i);
      }
    }
    return group;
  }
}
