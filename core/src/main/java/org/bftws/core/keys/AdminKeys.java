package org.bftws.core.keys;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.reconfig.Administrators;
import org.bftws.core.reconfig.Member;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * The keys of a group's administrators, who sign reconfigurations (docs/design/reconfiguration.md, "The
 * RECONFIGURE request"; core's {@link Administrators}). {@code keygen --admin J --out DIR} writes:
 * <pre>
 * admin-J.key   format = bftws-admin-1 (POSIX mode 0600): admin = J, ed25519.private = 32-byte seed
 * admins.pub    format = bftws-admins-1: admins = m, admin.J.ed25519 = public key of admin J (1..m)
 * </pre>
 * Each administrator generates its key on its own host; {@code admins.pub} lists every {@code admin-J.key} of
 * DIR and is what the group's {@code bftws.reconfig.administrators} names. Administrator J signs as index J−1
 * of {@link Administrators}.
 */
public final class AdminKeys {
  public static final String LIST_FILE = "admins.pub";
  private static final String KEY_FORMAT = "bftws-admin-1";
  private static final String LIST_FORMAT = "bftws-admins-1";

  private AdminKeys() {}

  /** {@code admin-J.key}, the file of administrator J's private key. */
  public static Path keyFile(Path dir, int j) {
    return dir.resolve("admin-" + j + ".key");
  }

  /**
   * {@code keygen --admin J --out DIR}: writes administrator J's key and rewrites DIR's {@code admins.pub};
   * administrators 1..J−1 must have their keys in DIR already, so the list has no gaps.
   */
  static int run(String[] args, SecureRandom random, PrintStream out, PrintStream err) {
    if (args.length != 4 || !args[0].equals("--admin") || !args[2].equals("--out")) {
      err.println("usage: keygen --admin J --out DIR");
      return 2;
    }
    try {
      int j = KeyGen.number("--admin", args[1], 1, Administrators.MAX);
      Path dir = Path.of(args[3]);
      Files.createDirectories(dir);
      generate(dir, j, random);
      out.println("keygen: wrote " + keyFile(dir, j) + " and " + dir.resolve(LIST_FILE) + " (administrators 1.." + j
          + ")");
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("keygen: " + e.getMessage());
      return 2;
    } catch (IOException | KeyFileException e) {
      err.println("keygen: " + e.getMessage());
      return 1;
    }
  }

  static void generate(Path dir, int j, SecureRandom random) throws IOException, KeyFileException {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < j; i++) {
      if (!Files.exists(keyFile(dir, i))) {
        throw new IllegalArgumentException("administrator " + i + " has no " + keyFile(dir, i) + ": generate the"
            + " administrators' keys in order, 1 first");
      }
      keys.add(readPrivate(keyFile(dir, i)).generatePublicKey().getEncoded());
    }
    Ed25519PrivateKeyParameters key = Ed25519.generate(random);
    KeyFileFormat.create(keyFile(dir, j), new KeyFileFormat.Builder().comment("administrator " + j + ": private")
        .field("format", KEY_FORMAT).field("admin", j).base64("ed25519.private", key.getEncoded()).text(), true);
    keys.add(key.generatePublicKey().getEncoded());
    KeyFileFormat.Builder list = new KeyFileFormat.Builder().comment("the group's administrators")
        .field("format", LIST_FORMAT).field("admins", keys.size());
    for (int i = 0; i < keys.size(); i++) {
      list.base64("admin." + (i + 1) + ".ed25519", keys.get(i));
    }
    Path tmp = Files.createTempFile(dir, LIST_FILE, ".tmp");
    Files.writeString(tmp, list.text(), StandardCharsets.UTF_8);
    Files.move(tmp, dir.resolve(LIST_FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The public keys of {@code admins.pub}, administrator 1 first. */
  public static List<byte[]> readList(Path file) throws KeyFileException {
    KeyFileFormat.Fields f = KeyFileFormat.read(file);
    f.expect("format", LIST_FORMAT);
    int m = f.integer("admins", 1, Administrators.MAX);
    List<byte[]> keys = new ArrayList<>();
    for (int j = 1; j <= m; j++) {
      byte[] key = f.base64("admin." + j + ".ed25519");
      if (key.length != Member.KEY_BYTES) {
        throw f.error("admin." + j + ".ed25519", "expected a " + Member.KEY_BYTES + "-byte Ed25519 key");
      }
      keys.add(key);
    }
    f.noOthers();
    return keys;
  }

  /** Administrator J's private key from its {@code admin-J.key}. Never log it. */
  public static Ed25519PrivateKeyParameters readPrivate(Path file) throws KeyFileException {
    KeyFileFormat.Fields f = KeyFileFormat.read(file);
    f.expect("format", KEY_FORMAT);
    f.integer("admin", 1, Administrators.MAX);
    byte[] seed = f.base64("ed25519.private");
    if (seed.length != Ed25519PrivateKeyParameters.KEY_SIZE) {
      throw f.error("ed25519.private", "expected a " + Ed25519PrivateKeyParameters.KEY_SIZE + "-byte seed");
    }
    f.noOthers();
    return new Ed25519PrivateKeyParameters(seed, 0);
  }
}
