package org.bftws.core.keys;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * Keys without a trusted dealer: each replica generates its own keys on its own host, the operator assembles
 * their public halves into the group's {@code members.pub}, and the group's distributed key generation makes
 * the threshold keys at first start ({@code bftws.keys.mode=dkg}). No program ever sees two members' secrets.
 *
 * <pre>
 * keygen --replica I --out DIR     DIR/replica-I.id (0600: Ed25519 signing key, P-256 DKG encryption secret)
 *                                  and DIR/replica-I.pub (their public keys)
 * keygen --client J --out DIR      DIR/client-J.key (0600) and DIR/client-J.pub
 * keygen --group-from DIR [--group-from DIR2 ...] --out G [--f F] [--k K] [--scheme cks|bls]
 *                                  G/members.pub from every replica-I.pub and client-J.pub found in the DIRs
 * keygen --check-group DIR --members FILE
 *                                  exit 0 iff DIR/group.pub (from any one replica) holds with DIR/group.cert:
 *                                  2f+1 signatures of the replicas FILE (members.pub) lists
 * </pre>
 * Defaults as the dealer's ({@link KeyGen}): f = ⌊(n−1)/3⌋, k = f+1, scheme cks. No file is ever overwritten.
 */
final class IndividualKeyGen {
  private IndividualKeyGen() {}

  /** Whether {@code args} ask for one of these commands rather than the dealer. */
  static boolean handles(String[] args) {
    return Stream.of(args).anyMatch(a -> a.equals("--replica") || a.equals("--client") || a.equals("--group-from")
        || a.equals("--check-group"));
  }

  static int run(String[] args, SecureRandom random, PrintStream out, PrintStream err) {
    try {
      out.println("keygen: " + execute(args, random));
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("keygen: " + e.getMessage());
      err.println("usage: keygen --replica I --out DIR | --client J --out DIR"
          + " | --group-from DIR [--group-from DIR ...] --out DIR [--f F] [--k K] [--scheme cks|bls]"
          + " | --check-group DIR --members FILE");
      return 2;
    } catch (java.nio.file.FileAlreadyExistsException e) {
      err.println("keygen: " + e.getFile() + " exists: refusing to overwrite key files");
      return 1;
    } catch (IOException | KeyFileException e) {
      err.println("keygen: " + e.getMessage());
      return 1;
    }
  }

  private static String execute(String[] args, SecureRandom random) throws IOException, KeyFileException {
    Path outDir = null;
    Integer replica = null;
    Integer client = null;
    Integer f = null;
    Integer k = null;
    SchemeId scheme = SchemeId.CKS;
    List<Path> from = new ArrayList<>();
    if (args.length == 4 && args[0].equals("--check-group") && args[2].equals("--members")) {
      return checkGroup(Path.of(args[1]), Path.of(args[3]));
    }
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + flag);
      }
      String v = args[++i];
      switch (flag) {
        case "--out" -> outDir = Path.of(v);
        case "--replica" -> replica = KeyGen.number(flag, v, 1, ThresholdParams.MAX_N);
        case "--client" -> client = KeyGen.number(flag, v, 1, 1 << 16);
        case "--group-from" -> from.add(Path.of(v));
        case "--f" -> f = KeyGen.number(flag, v, 0, ThresholdParams.MAX_N);
        case "--k" -> k = KeyGen.number(flag, v, 1, ThresholdParams.MAX_N);
        case "--scheme" -> scheme = dkgScheme(v);
        default -> throw new IllegalArgumentException("unknown option " + flag);
      }
    }
    int modes = (replica != null ? 1 : 0) + (client != null ? 1 : 0) + (from.isEmpty() ? 0 : 1);
    if (outDir == null || modes != 1) {
      throw new IllegalArgumentException("--out and exactly one of --replica, --client, --group-from are required");
    }
    if (from.isEmpty() && (f != null || k != null)) {
      throw new IllegalArgumentException("--f and --k belong to --group-from");
    }
    if (replica != null) {
      return replica(outDir, replica, random);
    }
    if (client != null) {
      return client(outDir, client, random);
    }
    return group(outDir, from, f, k, scheme);
  }

  /** What a client does with a group.pub fetched from one replica: check it against the members' keys. */
  private static String checkGroup(Path dir, Path membersFile) throws KeyFileException {
    GroupMembers members = MemberFiles.readMembers(membersFile);
    GroupKeys group = GroupCertificate.verify(dir.resolve(KeyFiles.GROUP_FILE), dir.resolve(GroupCertificate.FILE),
        members.replicaKeys(), members.f());
    return dir.resolve(KeyFiles.GROUP_FILE) + " holds: 2f+1 of the replicas " + membersFile + " lists signed it ("
        + group.scheme().label() + " and tdh2, n=" + group.n() + ")";
  }

  private static String replica(Path dir, int index, SecureRandom random) throws IOException {
    directory(dir);
    Ed25519PrivateKeyParameters signing = new Ed25519PrivateKeyParameters(random);
    byte[] secret = new byte[32];
    do {
      random.nextBytes(secret);
    } while (!validScalar(secret));
    MemberFiles.writeIdentity(dir.resolve(MemberFiles.identityFileName(index)),
        new ReplicaIdentity(index, signing, secret));
    MemberFiles.writeMember(dir.resolve(MemberFiles.replicaPublicFileName(index)), new MemberFiles.Member(true, index,
        signing.generatePublicKey(), MemberFiles.encryptionPublicKey(secret)));
    return "wrote " + MemberFiles.identityFileName(index) + " (private, 0600) and "
        + MemberFiles.replicaPublicFileName(index) + " to " + dir;
  }

  private static String client(Path dir, int index, SecureRandom random) throws IOException {
    directory(dir);
    Ed25519PrivateKeyParameters signing = new Ed25519PrivateKeyParameters(random);
    KeyFiles.writeClient(dir.resolve(KeyFiles.clientFileName(index)), new ClientKeys(index, signing));
    MemberFiles.writeMember(dir.resolve(MemberFiles.clientPublicFileName(index)),
        new MemberFiles.Member(false, index, signing.generatePublicKey(), null));
    return "wrote " + KeyFiles.clientFileName(index) + " (private, 0600) and "
        + MemberFiles.clientPublicFileName(index) + " to " + dir;
  }

  private static String group(Path dir, List<Path> from, Integer f, Integer k, SchemeId scheme)
      throws IOException, KeyFileException {
    TreeMap<Integer, MemberFiles.Member> replicas = new TreeMap<>();
    TreeMap<Integer, MemberFiles.Member> clients = new TreeMap<>();
    for (Path d : from) {
      List<Path> files;
      try (Stream<Path> s = Files.list(d)) {
        files = s.filter(p -> p.getFileName().toString().matches("(replica|client)-[0-9]+\\.pub")).sorted().toList();
      }
      for (Path p : files) {
        MemberFiles.Member m = MemberFiles.readMember(p);
        String expected = m.replica() ? MemberFiles.replicaPublicFileName(m.index())
            : MemberFiles.clientPublicFileName(m.index());
        if (!p.getFileName().toString().equals(expected)) {
          throw new KeyFileException(p, m.replica() ? "replica" : "client", "does not match the file name");
        }
        if ((m.replica() ? replicas : clients).put(m.index(), m) != null) {
          throw new IllegalArgumentException(p + ": a second public file of " + expected);
        }
      }
    }
    int n = replicas.size();
    if (n == 0 || replicas.lastKey() != n) {
      throw new IllegalArgumentException("need replica-1.pub .. replica-n.pub without gaps, found replicas "
          + replicas.keySet());
    }
    if (!clients.isEmpty() && clients.lastKey() != clients.size()) {
      throw new IllegalArgumentException("need client-1.pub .. client-C.pub without gaps, found " + clients.keySet());
    }
    int ff = f != null ? f : (n - 1) / 3;
    int kk = k != null ? k : ff + 1;
    new ThresholdParams(n, kk, ff);
    List<Ed25519PublicKeyParameters> signing = new ArrayList<>();
    List<byte[]> enc = new ArrayList<>();
    for (MemberFiles.Member m : replicas.values()) {
      signing.add(m.signingKey());
      enc.add(m.encryptionKey());
    }
    List<Ed25519PublicKeyParameters> clientKeys = clients.values().stream().map(MemberFiles.Member::signingKey)
        .toList();
    directory(dir);
    MemberFiles.writeMembers(dir.resolve(MemberFiles.MEMBERS_FILE),
        new GroupMembers(scheme, n, ff, kk, signing, enc, clientKeys));
    return "wrote " + MemberFiles.MEMBERS_FILE + " to " + dir + " (" + n + " replicas, " + clientKeys.size()
        + " clients, scheme " + scheme.label() + " and tdh2 by distributed key generation, f=" + ff + " k=" + kk
        + ")";
  }

  private static boolean validScalar(byte[] b) {
    try {
      return org.bftws.core.crypto.threshold.DlGroup.p256().decodeScalar(b, "secret").signum() != 0;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static SchemeId dkgScheme(String label) {
    SchemeId id = SchemeId.fromLabel(label);
    if (id != SchemeId.CKS && id != SchemeId.BLS) {
      throw new IllegalArgumentException("--scheme with --group-from is cks or bls: " + label
          + " has no distributed key generation (use the dealer)");
    }
    return id;
  }

  /** The directory, created with mode 0700 if absent; files in it are never overwritten. */
  private static void directory(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (dir.toAbsolutePath().getParent().getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(dir);
    }
  }
}
