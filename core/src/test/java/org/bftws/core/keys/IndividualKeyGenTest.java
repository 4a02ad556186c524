package org.bftws.core.keys;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.testkit.TestRandom;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Individual keys: each replica generates its own keys in its own directory (as on its own host), the group's
 * members.pub is assembled from the public files alone, and every key read back matches what was published.
 */
public class IndividualKeyGenTest {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private final ByteArrayOutputStream errors = new ByteArrayOutputStream();

  private int keygen(long seed, String... args) {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    return KeyGen.run(args, TestRandom.seeded(seed), quiet, new PrintStream(errors, true, StandardCharsets.UTF_8));
  }

  @Test
  public void replicasGenerateTheirOwnKeysAndTheGroupIsAssembledFromPublicFiles() throws Exception {
    Path pub = tmp.newFolder("pub").toPath();
    for (int i = 1; i <= 4; i++) {
      Path host = tmp.getRoot().toPath().resolve("host" + i);
      assertEquals(0, keygen(i, "--replica", "" + i, "--out", host.toString()));
      assertEquals("rw-------", mode(host.resolve("replica-" + i + ".id")));
      assertEquals("rw-r--r--", mode(host.resolve("replica-" + i + ".pub")));
      Files.copy(host.resolve("replica-" + i + ".pub"), pub.resolve("replica-" + i + ".pub"));
    }
    Path clientHost = tmp.getRoot().toPath().resolve("client");
    assertEquals(0, keygen(9, "--client", "1", "--out", clientHost.toString()));
    assertEquals("rw-------", mode(clientHost.resolve("client-1.key")));
    Path group = tmp.getRoot().toPath().resolve("group");
    assertEquals(0, keygen(0, "--group-from", pub.toString(), "--group-from", clientHost.toString(),
        "--out", group.toString(), "--scheme", "bls"));
    GroupMembers members = MemberFiles.readMembers(group.resolve(MemberFiles.MEMBERS_FILE));
    assertEquals(SchemeId.BLS, members.scheme());
    assertEquals(4, members.n());
    assertEquals(1, members.f());
    assertEquals(2, members.k());
    assertEquals(1, members.clientKeys().size());
    for (int i = 1; i <= 4; i++) {
      ReplicaIdentity id = MemberFiles.readIdentity(
          tmp.getRoot().toPath().resolve("host" + i).resolve("replica-" + i + ".id"), members);
      assertEquals(i, id.index());
      assertArrayEquals(members.encryptionKeys().get(i - 1), MemberFiles.encryptionPublicKey(id.encryptionSecret()));
    }
    // no secret left the hosts: the assembled directory holds public keys only
    try (var files = Files.list(group)) {
      assertEquals(1, files.count());
    }
  }

  @Test
  public void anotherReplicasIdentityIsRefusedNamingTheField() throws Exception {
    Path pub = tmp.newFolder("pub").toPath();
    for (int i = 1; i <= 4; i++) {
      assertEquals(0, keygen(i, "--replica", "" + i, "--out", pub.toString()));
    }
    assertEquals(0, keygen(0, "--group-from", pub.toString(), "--out", pub.toString()));
    GroupMembers members = MemberFiles.readMembers(pub.resolve(MemberFiles.MEMBERS_FILE));
    Path stranger = tmp.getRoot().toPath().resolve("stranger");
    assertEquals(0, keygen(77, "--replica", "2", "--out", stranger.toString()));
    try {
      MemberFiles.readIdentity(stranger.resolve("replica-2.id"), members);
      fail("a replica-2.id generated elsewhere was accepted");
    } catch (KeyFileException e) {
      assertEquals("ed25519.private", e.field());
    }
  }

  @Test
  public void badCommandLinesAndIncompleteGroupsAreRefused() throws Exception {
    Path pub = tmp.newFolder("pub").toPath();
    assertEquals(0, keygen(1, "--replica", "1", "--out", pub.toString()));
    assertEquals(0, keygen(3, "--replica", "3", "--out", pub.toString()));
    assertEquals(2, keygen(0, "--group-from", pub.toString(), "--out", pub.toString()));
    assertTrue(errors.toString(), errors.toString().contains("without gaps"));
    assertFalse(Files.exists(pub.resolve(MemberFiles.MEMBERS_FILE)));
    assertEquals(2, keygen(0, "--group-from", pub.toString(), "--out", pub.toString(), "--scheme", "rsa"));
    assertTrue(errors.toString(), errors.toString().contains("no distributed key generation"));
    assertEquals(2, keygen(0, "--replica", "1", "--client", "1", "--out", pub.toString()));
    // never overwritten: a second --replica 1 in the same directory fails and the first keys stay
    byte[] before = Files.readAllBytes(pub.resolve("replica-1.id"));
    assertEquals(1, keygen(5, "--replica", "1", "--out", pub.toString()));
    assertArrayEquals(before, Files.readAllBytes(pub.resolve("replica-1.id")));
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
