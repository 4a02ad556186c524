package org.bftws.core.dkg;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;

/**
 * What a replica's {@link GroupRefresh} decided from the agreed sequence, as it goes into the group's checkpoints:
 * the epoch of the keys in use, that epoch's public keys (the same group keys, the epoch's verification keys),
 * the votes and asks counted towards the next run, and, while a run goes on, whether it is a refresh or a share
 * recovery with every operation of it taken so far. All of it is public (on the agreed sequence, or computed from
 * it alike at every correct replica); no share is in it. A replica that installs a checkpoint, by state transfer or
 * from its journal at restart, resumes its refresh from it ({@link GroupRefresh#resume}): it learns the group's
 * epoch and verification keys from 2f+1 replicas' certified state, not from any one of them, and follows a running
 * run from the operations it missed.
 */
public record RefreshCheckpoint(long epoch, GroupKeys current, List<Integer> votes, List<Integer> recovered, Run run,
    List<Logged> log) {
  private static final byte[] MAGIC = "BFTWS-REFRESH-STATE-1".getBytes(StandardCharsets.US_ASCII);
  /** Largest group text accepted (group.pub at the largest n is far below). */
  private static final int MAX_GROUP_TEXT = 1 << 20;

  /** Which run goes on at the checkpoint. */
  public enum Run {
    NONE, REFRESH, RECOVERY
  }

  /** An operation of the running run, taken from replica {@code submitter} (1..n). */
  public record Logged(int submitter, byte[] operation) {}

  public RefreshCheckpoint {
    votes = List.copyOf(votes);
    recovered = List.copyOf(recovered);
    log = List.copyOf(log);
  }

  /** The bytes that go into a checkpoint: a function of the fields alone, so correct replicas' agree. */
  public byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      out.writeLong(epoch);
      byte[] text = KeyFiles.groupText(current).getBytes(StandardCharsets.UTF_8);
      out.writeInt(text.length);
      out.write(text);
      ints(out, votes);
      ints(out, recovered);
      out.writeByte(run.ordinal());
      out.writeInt(log.size());
      for (Logged l : log) {
        out.writeInt(l.submitter());
        out.writeInt(l.operation().length);
        out.write(l.operation());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /**
   * Parses {@link #encode}'s bytes of a group of {@code n} replicas; every problem is an IllegalArgumentException
   * (a checkpoint that 2f+1 replicas certified holds a correct one's bytes: this guards against a damaged journal).
   */
  public static RefreshCheckpoint decode(byte[] encoded, int n) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
      byte[] magic = in.readNBytes(MAGIC.length);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new IllegalArgumentException("not a refresh checkpoint");
      }
      long epoch = in.readLong();
      if (epoch < 0) {
        throw new IllegalArgumentException("negative epoch");
      }
      GroupKeys current = KeyFiles.parseGroup(new String(field(in, MAX_GROUP_TEXT), StandardCharsets.UTF_8),
          "checkpoint");
      List<Integer> votes = ints(in, n);
      List<Integer> recovered = ints(in, n);
      int run = in.readUnsignedByte();
      if (run >= Run.values().length) {
        throw new IllegalArgumentException("unknown run " + run);
      }
      int size = in.readInt();
      if (size < 0 || size > n * GroupRefresh.MAX_RUN_OPERATIONS) {
        throw new IllegalArgumentException("log of " + size + " operations");
      }
      List<Logged> log = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        int submitter = member(in.readInt(), n);
        log.add(new Logged(submitter, field(in, GroupDkg.MAX_OPERATION_BYTES)));
      }
      if (in.read() != -1) {
        throw new IllegalArgumentException("trailing bytes");
      }
      return new RefreshCheckpoint(epoch, current, votes, recovered, Run.values()[run], log);
    } catch (IOException e) {
      throw new IllegalArgumentException("truncated refresh checkpoint", e);
    } catch (KeyFileException e) {
      throw new IllegalArgumentException("the checkpoint's group keys: " + e.getMessage(), e);
    }
  }

  private static void ints(DataOutputStream out, List<Integer> xs) throws IOException {
    out.writeInt(xs.size());
    for (int x : xs) {
      out.writeInt(x);
    }
  }

  private static List<Integer> ints(DataInputStream in, int n) throws IOException {
    int size = in.readInt();
    if (size < 0 || size > n) {
      throw new IllegalArgumentException("a set of " + size + " replicas");
    }
    List<Integer> xs = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      xs.add(member(in.readInt(), n));
    }
    return xs;
  }

  private static int member(int i, int n) {
    if (i < 1 || i > n) {
      throw new IllegalArgumentException("replica index " + i + " outside 1.." + n);
    }
    return i;
  }

  private static byte[] field(DataInputStream in, int max) throws IOException {
    int len = in.readInt();
    if (len < 0 || len > max) {
      throw new IllegalArgumentException("field of " + len + " bytes");
    }
    byte[] b = in.readNBytes(len);
    if (b.length != len) {
      throw new IllegalArgumentException("truncated field");
    }
    return b;
  }
}
