package org.bftws.core.keys;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.crypto.threshold.Dealt;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.ShoupRsa;
import org.bftws.core.crypto.threshold.ThresholdParams;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.crypto.threshold.Thresholds;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * The trusted dealer (SINTRA §2: "a trusted dealer to generate the secret keys of all threshold
 * schemes ... required only once"): deals a threshold key (the coin's), a TDH2 key of the same (n, k, t) for
 * confidential requests (SINTRA §2.6), and Ed25519 keys for every replica and client and
 * writes {@code group.pub}, {@code replica-I.key} and {@code client-J.key} into a new or empty directory.
 * Its console command, {@code scripts/keygen}, lives beside the simulator and passes a fresh
 * {@link SecureRandom} and the console's streams to {@link #run}.
 *
 * <pre>
 * KeyGen --out DIR --replicas N [--f F] [--k K] [--scheme cks|bls|rsa] [--rsa-bits B] [--clients C]
 * </pre>
 * Defaults: f = ⌊(N−1)/3⌋, k = f+1, scheme cks, rsa-bits 2048, clients 1. With {@code --replica},
 * {@code --client} or {@code --group-from} it generates individual keys instead ({@link IndividualKeyGen}), with
 * {@code --admin J} an administrator's ({@link AdminKeys}). Exit status 0 on success, 2 on a
 * usage error, 1 on an I/O error. Key material is never printed.
 */
public final class KeyGen {
  /** Parsed command line. */
  record Options(Path out, int replicas, int f, int k, SchemeId scheme, int rsaBits, int clients) {}

  private KeyGen() {}

  /** Runs the command with the given randomness (tests pass a seeded DRBG); returns the exit status. */
  public static int run(String[] args, SecureRandom random, PrintStream out, PrintStream err) {
    if (args.length > 0 && args[0].equals("--admin")) {
      return AdminKeys.run(args, random, out, err);
    }
    if (IndividualKeyGen.handles(args)) {
      return IndividualKeyGen.run(args, random, out, err);
    }
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("keygen: " + e.getMessage());
      err.println("usage: keygen --out DIR --replicas N [--f F] [--k K] [--scheme cks|bls|rsa]"
          + " [--rsa-bits B] [--clients C]");
      err.println("   or: keygen --replica I --out DIR | --client J --out DIR | --group-from DIR... --out G"
          + " | --check-group DIR --members FILE | --admin J --out DIR");
      return 2;
    }
    if (o.scheme() == SchemeId.RSA && o.rsaBits() < 2048) {
      err.println("keygen: warning: a " + o.rsaBits() + "-bit RSA modulus is for tests only (2048 ≈ 112-bit security)");
    }
    try {
      generate(o, random);
    } catch (IOException e) {
      err.println("keygen: " + e);
      return 1;
    }
    out.printf("keygen: wrote %s, %d replica and %d client key files to %s (scheme %s and tdh2, n=%d f=%d k=%d)%n",
        KeyFiles.GROUP_FILE, o.replicas(), o.clients(), o.out(), o.scheme().label(), o.replicas(), o.f(), o.k());
    return 0;
  }

  static void generate(Options o, SecureRandom random) throws IOException {
    prepareDirectory(o.out());
    ThresholdParams params = new ThresholdParams(o.replicas(), o.k(), o.f());
    ThresholdScheme scheme = o.scheme() == SchemeId.RSA ? new ShoupRsa(o.rsaBits()) : Thresholds.scheme(o.scheme());
    Dealt dealt = scheme.deal(params, random);
    List<Ed25519PrivateKeyParameters> replicaKeys = ed25519Keys(o.replicas(), random);
    List<Ed25519PrivateKeyParameters> clientKeys = ed25519Keys(o.clients(), random);
    Dealt tdh2 = Thresholds.keys(SchemeId.TDH2).deal(params, random);
    GroupKeys group = new GroupKeys(o.replicas(), o.f(), o.k(), dealt.group(), tdh2.group(),
        publicKeys(replicaKeys), publicKeys(clientKeys));
    KeyFiles.writeGroup(o.out().resolve(KeyFiles.GROUP_FILE), group);
    for (int i = 1; i <= o.replicas(); i++) {
      KeyFiles.writeReplica(o.out().resolve(KeyFiles.replicaFileName(i)),
          new ReplicaKeys(i, dealt.share(i), tdh2.share(i), replicaKeys.get(i - 1)));
    }
    for (int j = 1; j <= o.clients(); j++) {
      KeyFiles.writeClient(o.out().resolve(KeyFiles.clientFileName(j)), new ClientKeys(j, clientKeys.get(j - 1)));
    }
  }

  static Options parse(String[] args) {
    Path out = null;
    Integer replicas = null;
    Integer f = null;
    Integer k = null;
    SchemeId scheme = SchemeId.CKS;
    int rsaBits = ShoupRsa.DEFAULT_MODULUS_BITS;
    int clients = 1;
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value after " + flag);
      }
      String v = args[++i];
      switch (flag) {
        case "--out" -> out = Path.of(v);
        case "--replicas" -> replicas = number(flag, v, 1, ThresholdParams.MAX_N);
        case "--f" -> f = number(flag, v, 0, ThresholdParams.MAX_N);
        case "--k" -> k = number(flag, v, 1, ThresholdParams.MAX_N);
        case "--scheme" -> scheme = coinScheme(v);
        case "--rsa-bits" -> rsaBits = number(flag, v, ShoupRsa.MIN_MODULUS_BITS, 16384);
        case "--clients" -> clients = number(flag, v, 0, 1 << 16);
        default -> throw new IllegalArgumentException("unknown option " + flag);
      }
    }
    if (out == null || replicas == null) {
      throw new IllegalArgumentException("--out and --replicas are required");
    }
    int ff = f != null ? f : (replicas - 1) / 3;
    int kk = k != null ? k : ff + 1;
    new ThresholdParams(replicas, kk, ff); // validates n >= 3f+1 and f < k <= n-f
    if (rsaBits % 2 != 0) {
      throw new IllegalArgumentException("--rsa-bits must be even");
    }
    return new Options(out, replicas, ff, kk, scheme, rsaBits, clients);
  }

  private static SchemeId coinScheme(String label) {
    SchemeId id = SchemeId.fromLabel(label);
    if (!id.signs()) {
      throw new IllegalArgumentException("--scheme names the coin's scheme (cks, bls or rsa); TDH2 keys are always dealt");
    }
    return id;
  }

  static int number(String flag, String v, int min, int max) {
    try {
      int n = Integer.parseInt(v);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(flag + " expects an integer in " + min + ".." + max + ", got '" + v + "'");
  }

  /** A new directory (mode 0700) or an existing empty one: never mix keys of two dealings. */
  private static void prepareDirectory(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IOException(dir + " is not empty: refusing to overwrite or mix key files");
        }
      }
      return;
    }
    if (dir.toAbsolutePath().getParent().getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(dir);
    }
  }

  private static List<Ed25519PrivateKeyParameters> ed25519Keys(int count, SecureRandom random) {
    List<Ed25519PrivateKeyParameters> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      keys.add(new Ed25519PrivateKeyParameters(random));
    }
    return keys;
  }

  private static List<Ed25519PublicKeyParameters> publicKeys(List<Ed25519PrivateKeyParameters> keys) {
    List<Ed25519PublicKeyParameters> out = new ArrayList<>();
    for (Ed25519PrivateKeyParameters k : keys) {
      out.add(k.generatePublicKey());
    }
    return out;
  }
}
