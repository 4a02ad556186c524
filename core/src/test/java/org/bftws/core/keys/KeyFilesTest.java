package org.bftws.core.keys;

import static org.bftws.core.keys.KeyGenTest.expectError;
import static org.bftws.core.keys.KeyGenTest.keygen;
import static org.junit.Assert.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The loader rejects every inconsistency and names the file and the field (docs/design/cryptography.md pitfall 3: trust only
 * the group's published verification keys, so they and the shares must be checked when loaded). */
public class KeyFilesTest {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();
  private Path dir;

  @Before
  public void deal() throws Exception {
    dir = tmp.getRoot().toPath().resolve("keys");
    assertEquals(0, keygen(7, "--out", dir.toString(), "--replicas", "4", "--clients", "1"));
  }

  private String field(String file, String name) throws Exception {
    return Files.readAllLines(dir.resolve(file)).stream().filter(l -> l.startsWith(name + " = "))
        .findFirst().orElseThrow().substring(name.length() + 3);
  }

  private void edit(String file, String name, String value) throws Exception {
    Path p = dir.resolve(file);
    List<String> lines = Files.readAllLines(p).stream()
        .map(l -> l.startsWith(name + " = ") ? (value == null ? "# removed" : name + " = " + value) : l)
        .collect(Collectors.toList());
    Files.write(p, lines);
  }

  private void append(String file, String line) throws Exception {
    Files.writeString(dir.resolve(file), Files.readString(dir.resolve(file)) + line + "\n");
  }

  private GroupKeys group() throws KeyFileException {
    return KeyFiles.readGroup(dir.resolve("group.pub"));
  }

  @Test
  public void missingVerificationKeyIsNamed() throws Exception {
    edit("group.pub", "threshold.vk.2", null);
    expectError(this::group, "group.pub", "threshold.vk.2");
  }

  @Test
  public void extraVerificationKeyIsNamed() throws Exception {
    append("group.pub", "threshold.vk.5 = " + field("group.pub", "threshold.vk.1"));
    expectError(this::group, "group.pub", "threshold.vk.5");
  }

  @Test
  public void malformedVerificationKeyIsNamed() throws Exception {
    edit("group.pub", "threshold.vk.3", "AAAA");
    expectError(this::group, "group.pub", "threshold.vk.3");
  }

  @Test
  public void invalidThresholdIsNamed() throws Exception {
    edit("group.pub", "k", "4");
    expectError(this::group, "group.pub", "k");
  }

  @Test
  public void badBase64IsNamed() throws Exception {
    edit("group.pub", "replica.3.ed25519", "not*base64");
    expectError(this::group, "group.pub", "replica.3.ed25519");
  }

  @Test
  public void duplicateFieldIsNamed() throws Exception {
    append("group.pub", "n = 4");
    expectError(this::group, "group.pub", "n");
  }

  @Test
  public void shareThatDoesNotMatchItsVerificationKeyIsNamed() throws Exception {
    edit("group.pub", "threshold.vk.2", field("group.pub", "threshold.vk.3"));
    GroupKeys g = group();
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-2.key"), g), "replica-2.key", "threshold.share");
  }

  @Test
  public void shareOfAnotherReplicaIsNamed() throws Exception {
    edit("replica-2.key", "threshold.share", field("replica-1.key", "threshold.share"));
    GroupKeys g = group();
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-2.key"), g), "replica-2.key", "threshold.share");
  }

  @Test
  public void missingEncryptionVerificationKeyIsNamed() throws Exception {
    edit("group.pub", "tdh2.vk.2", null);
    expectError(this::group, "group.pub", "tdh2.vk.2");
  }

  @Test
  public void malformedEncryptionKeyIsNamed() throws Exception {
    edit("group.pub", "tdh2.group", "AAAA");
    expectError(this::group, "group.pub", "tdh2.group");
  }

  @Test
  public void decryptionShareOfAnotherReplicaIsNamed() throws Exception {
    edit("replica-3.key", "tdh2.share", field("replica-1.key", "tdh2.share"));
    GroupKeys g = group();
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-3.key"), g), "replica-3.key", "tdh2.share");
    edit("replica-3.key", "tdh2.share", field("replica-3.key", "threshold.share"));
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-3.key"), g), "replica-3.key", "tdh2.share");
  }

  @Test
  public void ed25519KeyThatDoesNotMatchIsNamed() throws Exception {
    edit("replica-4.key", "ed25519.private", field("replica-1.key", "ed25519.private"));
    GroupKeys g = group();
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-4.key"), g), "replica-4.key", "ed25519.private");
    edit("client-1.key", "ed25519.private", field("replica-1.key", "ed25519.private"));
    expectError(() -> KeyFiles.readClient(dir.resolve("client-1.key"), g), "client-1.key", "ed25519.private");
  }

  @Test
  public void replicaIndexOutOfRangeIsNamed() throws Exception {
    edit("replica-1.key", "replica", "9");
    GroupKeys g = group();
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-1.key"), g), "replica-1.key", "replica");
  }

  @Test
  public void schemeMismatchIsNamed() throws Exception {
    edit("replica-1.key", "scheme", "bls");
    GroupKeys g = group();
    expectError(() -> KeyFiles.readReplica(dir.resolve("replica-1.key"), g), "replica-1.key", "scheme");
  }

  @Test
  public void missingFileIsNamed() {
    expectError(() -> KeyFiles.readGroup(dir.resolve("nope.pub")), "nope.pub", "(file)");
  }
}
