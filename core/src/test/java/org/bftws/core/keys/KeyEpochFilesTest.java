package org.bftws.core.keys;

import static org.bftws.core.keys.KeyGenTest.expectError;
import static org.bftws.core.keys.KeyGenTest.keygen;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A refresh's key files ({@link KeyEpochFiles}): written through a staging directory, finished at the next start
 * when the staging directory is complete and every file there parses, dropped when not, and group.vk refused unless it has
 * group.pub's group keys.
 */
public class KeyEpochFilesTest {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();
  private Path keys;
  private Path other;
  private Path data;

  @Before
  public void deal() throws Exception {
    keys = tmp.getRoot().toPath().resolve("keys");
    other = tmp.getRoot().toPath().resolve("other");
    data = Files.createDirectory(tmp.getRoot().toPath().resolve("data"));
    assertEquals(0, keygen(7, "--out", keys.toString(), "--replicas", "4", "--clients", "1"));
    assertEquals(0, keygen(8, "--out", other.toString(), "--replicas", "4", "--clients", "1"));
    Files.copy(keys.resolve(KeyFiles.GROUP_FILE), data.resolve(KeyFiles.GROUP_FILE));
    Files.copy(keys.resolve(KeyFiles.replicaFileName(2)), data.resolve(KeyFiles.replicaFileName(2)));
  }

  /** Epoch 1's files (the generation's keys written as refreshed) through {@link KeyEpochFiles#write}. */
  private void writeEpochOne() throws Exception {
    GroupKeys group = KeyEpochFiles.readGroup(data);
    ReplicaKeys mine = KeyFiles.readReplica(data.resolve(KeyFiles.replicaFileName(2)), group);
    KeyEpochFiles.write(data, new KeyEpochFiles.Epoch(1, 18), group, mine);
  }

  @Test
  public void theGenerationsKeysHaveEpochZeroUntilARefreshWritesItsFiles() throws Exception {
    assertEquals(KeyEpochFiles.Epoch.GENERATED, KeyEpochFiles.read(data));
    writeEpochOne();
    assertEquals(new KeyEpochFiles.Epoch(1, 18), KeyEpochFiles.read(data));
    assertTrue(Files.exists(data.resolve(KeyEpochFiles.VK_FILE)));
    assertFalse(Files.exists(data.resolve(KeyEpochFiles.STAGING)));
    assertEquals("rw-------", PosixFilePermissions.toString(
        Files.getPosixFilePermissions(data.resolve(KeyFiles.replicaFileName(2)))));
    KeyFiles.readReplica(data.resolve(KeyFiles.replicaFileName(2)), KeyEpochFiles.readGroup(data));
  }

  @Test
  public void aCompleteStagingDirectoryIsMovedInAtStartAndAnIncompleteOneDropped() throws Exception {
    writeEpochOne();
    // a replica stopped after forcing epoch 2's files, before moving them: all three are in the staging directory
    Path staging = Files.createDirectory(data.resolve(KeyEpochFiles.STAGING));
    for (String f : new String[] {KeyEpochFiles.VK_FILE, KeyFiles.replicaFileName(2)}) {
      Files.copy(data.resolve(f), staging.resolve(f));
    }
    Files.writeString(staging.resolve(KeyEpochFiles.EPOCH_FILE),
        Files.readString(data.resolve(KeyEpochFiles.EPOCH_FILE)).replace("epoch = 1", "epoch = 2"));
    KeyEpochFiles.recover(data);
    assertEquals(2, KeyEpochFiles.read(data).epoch());
    assertFalse(Files.exists(staging));
    // stopped while writing epoch 3's files: no keys.epoch in the staging directory, the old files stay
    Files.createDirectory(staging);
    Files.writeString(staging.resolve(KeyFiles.replicaFileName(2)), "half written");
    byte[] share = Files.readAllBytes(data.resolve(KeyFiles.replicaFileName(2)));
    KeyEpochFiles.recover(data);
    assertFalse(Files.exists(staging));
    assertEquals(2, KeyEpochFiles.read(data).epoch());
    assertArrayEquals(share, Files.readAllBytes(data.resolve(KeyFiles.replicaFileName(2))));
  }

  /** keys.epoch staged but another file damaged, or of another group: the staging directory is dropped. */
  @Test
  public void aStagingDirectoryWithAFileThatDoesNotParseIsDropped() throws Exception {
    writeEpochOne();
    byte[] share = Files.readAllBytes(data.resolve(KeyFiles.replicaFileName(2)));
    byte[] vk = Files.readAllBytes(data.resolve(KeyEpochFiles.VK_FILE));
    String epoch2 = Files.readString(data.resolve(KeyEpochFiles.EPOCH_FILE)).replace("epoch = 1", "epoch = 2");
    Path staging = data.resolve(KeyEpochFiles.STAGING);
    String[][] damaged = {
      {KeyFiles.replicaFileName(2), "half written"},
      {KeyEpochFiles.EPOCH_FILE, "format = bftws-keys-epoch-1\nepoch = 2\n"},
      {KeyEpochFiles.VK_FILE, Files.readString(other.resolve(KeyFiles.GROUP_FILE))},
    };
    for (String[] d : damaged) {
      Files.createDirectory(staging);
      Files.write(staging.resolve(KeyEpochFiles.VK_FILE), vk);
      Files.write(staging.resolve(KeyFiles.replicaFileName(2)), share);
      Files.writeString(staging.resolve(KeyEpochFiles.EPOCH_FILE), epoch2);
      Files.writeString(staging.resolve(d[0]), d[1]);
      KeyEpochFiles.recover(data);
      assertFalse(d[0] + " damaged: dropped", Files.exists(staging));
      assertEquals(d[0] + " damaged: epoch 1 stays", 1, KeyEpochFiles.read(data).epoch());
      assertArrayEquals(share, Files.readAllBytes(data.resolve(KeyFiles.replicaFileName(2))));
      assertArrayEquals(vk, Files.readAllBytes(data.resolve(KeyEpochFiles.VK_FILE)));
    }
  }

  /** Stopped after moving group.vk and the share, before keys.epoch: the next start finishes the moves. */
  @Test
  public void movesStoppedBeforeTheEpochFileAreFinished() throws Exception {
    writeEpochOne();
    Path staging = Files.createDirectory(data.resolve(KeyEpochFiles.STAGING));
    Files.writeString(staging.resolve(KeyEpochFiles.EPOCH_FILE),
        Files.readString(data.resolve(KeyEpochFiles.EPOCH_FILE)).replace("epoch = 1", "epoch = 2"));
    KeyEpochFiles.recover(data);
    assertFalse(Files.exists(staging));
    assertEquals(2, KeyEpochFiles.read(data).epoch());
  }

  @Test
  public void aGroupVkOfAnotherGroupKeyIsRefused() throws Exception {
    Files.copy(other.resolve(KeyFiles.GROUP_FILE), data.resolve(KeyEpochFiles.VK_FILE));
    expectError(() -> KeyEpochFiles.readGroup(data), KeyEpochFiles.VK_FILE, "threshold.group");
  }

  @Test
  public void aDamagedEpochFileIsNamed() throws Exception {
    Files.writeString(data.resolve(KeyEpochFiles.EPOCH_FILE), "format = bftws-keys-epoch-1\nepoch = 0\n"
        + "after.seq = 4\n");
    expectError(() -> KeyEpochFiles.read(data), KeyEpochFiles.EPOCH_FILE, "epoch");
  }
}
