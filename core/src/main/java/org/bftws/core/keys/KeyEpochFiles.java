package org.bftws.core.keys;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files of a replica whose generated keys were refreshed (Herzberg-Jarecki-Krawczyk-Yung, CRYPTO 1995):
 * {@code group.pub} stays as the key generation wrote and the group certified it (clients and beacons keep it),
 * while epoch e's verification keys and this replica's shares change. In the data directory:
 * <ul>
 *   <li>{@code group.vk}: epoch e's public keys in group.pub's format: the same group keys and members, the
 *       verification keys of epoch e (what checks the replicas' coin and decryption shares);</li>
 *   <li>{@code replica-I.key}: this replica's shares of epoch e (0600), replaced by each refresh (a rename:
 *       the old file is unlinked, erasing its blocks is left to the disk);</li>
 *   <li>{@code keys.epoch}: e and the seq s of the ordered operation that completed the refresh: the keys serve
 *       the requests ordered after s.</li>
 * </ul>
 * Without {@code keys.epoch} the keys are the key generation's (epoch 0, group.pub's verification keys).
 *
 * <p>A refresh writes the three files into {@value #STAGING}, forces them to the disk, then moves them over the
 * old ones ({@code keys.epoch} last): the old share is replaced only once the new one is durable. A replica
 * that stopped in between finishes the moves at its next start ({@link #recover}) when the staging directory
 * is complete (every file there parses), and drops it otherwise (the old files are then untouched).
 */
public final class KeyEpochFiles {
  public static final String VK_FILE = "group.vk";
  public static final String EPOCH_FILE = "keys.epoch";
  static final String STAGING = "refresh.next";
  private static final String FORMAT = "bftws-keys-epoch-1";

  /** The epoch of the keys on disk and the seq after which they serve (epoch 0: the generation's, seq -1). */
  public record Epoch(long epoch, long afterSeq) {
    public static final Epoch GENERATED = new Epoch(0, -1);
  }

  private KeyEpochFiles() {}

  /** Writes epoch {@code e.epoch()}'s files into {@code dir} as described above. */
  public static void write(Path dir, Epoch e, GroupKeys renewed, ReplicaKeys keys) throws IOException {
    Path staging = dir.resolve(STAGING);
    deleteTree(staging);
    Files.createDirectory(staging);
    Path vk = staging.resolve(VK_FILE);
    Path share = staging.resolve(KeyFiles.replicaFileName(keys.index()));
    Path epoch = staging.resolve(EPOCH_FILE);
    KeyFileFormat.create(vk, KeyFiles.groupText(renewed), false);
    KeyFiles.writeReplica(share, keys);
    KeyFileFormat.create(epoch, new KeyFileFormat.Builder().comment("BFT-WS: the epoch of this replica's keys")
        .field("format", FORMAT).field("epoch", e.epoch()).field("after.seq", e.afterSeq()).text(), false);
    for (Path p : new Path[] {vk, share, epoch, staging}) {
      force(p); // the staging directory too: its entries of the three files are durable before any move
    }
    commit(dir, staging);
  }

  /**
   * At start: finishes a refresh's interrupted moves when the staging directory is complete ({@link #complete})
   * and drops it otherwise (the old files then stay).
   */
  public static void recover(Path dir) throws IOException {
    Path staging = dir.resolve(STAGING);
    if (!Files.isDirectory(staging)) {
      return;
    }
    if (complete(dir, staging)) {
      commit(dir, staging);
    } else {
      deleteTree(staging);
    }
  }

  /**
   * Whether {@code staging} holds a refresh's files, each parsing: its {@code keys.epoch}, and {@code group.vk}
   * (with group.pub's group keys) and at most one share (of group.vk's keys) each either still there or already
   * moved into {@code dir} ({@link #commit} moves {@code keys.epoch} last, so with it still staged the moves
   * stopped half-way; the staging directory forced before them, a file missing from it was moved).
   */
  private static boolean complete(Path dir, Path staging) throws IOException {
    if (!Files.exists(staging.resolve(EPOCH_FILE))) {
      return false;
    }
    try (Stream<Path> files = Files.list(staging)) {
      read(staging);
      Path vkFile = Files.exists(staging.resolve(VK_FILE)) ? staging.resolve(VK_FILE) : dir.resolve(VK_FILE);
      GroupKeys vk = KeyFiles.readGroup(vkFile);
      if (!KeyFiles.sameGroupKeys(KeyFiles.readGroup(dir.resolve(KeyFiles.GROUP_FILE)), vk)) {
        return false;
      }
      List<Path> shares = files.filter(p -> !p.getFileName().toString().equals(EPOCH_FILE)
          && !p.getFileName().toString().equals(VK_FILE)).toList();
      if (shares.size() > 1) {
        return false;
      }
      for (Path share : shares) {
        ReplicaKeys keys = KeyFiles.readReplica(share, vk);
        if (!share.getFileName().toString().equals(KeyFiles.replicaFileName(keys.index()))) {
          return false;
        }
      }
      return true;
    } catch (KeyFileException e) {
      return false;
    }
  }

  /** The epoch record in {@code dir}, {@link Epoch#GENERATED} if there is none. */
  public static Epoch read(Path dir) throws KeyFileException {
    Path file = dir.resolve(EPOCH_FILE);
    if (!Files.exists(file)) {
      return Epoch.GENERATED;
    }
    KeyFileFormat.Fields in = KeyFileFormat.read(file);
    in.expect("format", FORMAT);
    long epoch = number(in, "epoch", 1);
    long after = number(in, "after.seq", -1);
    in.noOthers();
    return new Epoch(epoch, after);
  }

  /** The public keys serving the epoch on disk: {@code group.vk} after a refresh, else {@code group.pub}. */
  public static GroupKeys readGroup(Path dir) throws KeyFileException {
    GroupKeys certified = KeyFiles.readGroup(dir.resolve(KeyFiles.GROUP_FILE));
    Path vk = dir.resolve(VK_FILE);
    if (!Files.exists(vk)) {
      return certified;
    }
    GroupKeys current = KeyFiles.readGroup(vk);
    if (!KeyFiles.sameGroupKeys(certified, current)) {
      throw new KeyFileException(vk, "threshold.group", "is not the group key of " + KeyFiles.GROUP_FILE);
    }
    return current;
  }

  private static long number(KeyFileFormat.Fields in, String name, long min) throws KeyFileException {
    String v = in.string(name);
    try {
      long x = Long.parseLong(v);
      if (x >= min) {
        return x;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new KeyFileException(in.file(), name, "expected an integer of at least " + min + ", got '" + v + "'");
  }

  private static void commit(Path dir, Path staging) throws IOException {
    try (Stream<Path> files = Files.list(staging)) {
      for (Path p : files.filter(p -> !p.getFileName().toString().equals(EPOCH_FILE)).toList()) {
        Files.move(p, dir.resolve(p.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      }
    }
    Files.move(staging.resolve(EPOCH_FILE), dir.resolve(EPOCH_FILE), StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    Files.delete(staging);
    force(dir);
  }

  private static void force(Path p) throws IOException {
    boolean directory = Files.isDirectory(p);
    try (FileChannel c = FileChannel.open(p, directory ? StandardOpenOption.READ : StandardOpenOption.WRITE)) {
      c.force(true);
    } catch (IOException e) {
      if (!directory) {
        throw e;
      } // some file systems do not sync a directory: the files themselves are forced
    }
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> all = Files.walk(p)) {
      for (Path q : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
