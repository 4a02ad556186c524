package org.bftws.core.keys;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class AdminKeysTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int keygen(String... args) {
    SecureRandom random = new SecureRandom(new byte[] {1, 2, 3});
    return KeyGen.run(args, random, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  public void adminsPubListsEveryAdministratorInOrderWithItsPrivateKeysPublicHalf() throws Exception {
    Path dir = tmp.getRoot().toPath().resolve("admins");
    assertEquals(0, keygen("--admin", "1", "--out", dir.toString()));
    assertEquals(0, keygen("--admin", "2", "--out", dir.toString()));
    List<byte[]> keys = AdminKeys.readList(dir.resolve(AdminKeys.LIST_FILE));
    assertEquals(2, keys.size());
    for (int j = 1; j <= 2; j++) {
      assertArrayEquals(AdminKeys.readPrivate(AdminKeys.keyFile(dir, j)).generatePublicKey().getEncoded(),
          keys.get(j - 1));
    }
  }

  @Test
  public void anAdministratorOutOfOrderOrTwiceIsRefusedAndWritesNothing() throws Exception {
    Path dir = tmp.getRoot().toPath();
    assertEquals(2, keygen("--admin", "2", "--out", dir.toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("administrator 1"));
    assertEquals(0, keygen("--admin", "1", "--out", dir.toString()));
    byte[] list = Files.readAllBytes(dir.resolve(AdminKeys.LIST_FILE));
    assertEquals(1, keygen("--admin", "1", "--out", dir.toString()));
    assertArrayEquals(list, Files.readAllBytes(dir.resolve(AdminKeys.LIST_FILE)));
  }

  @Test
  public void aListWithAShortKeyOrAnExtraFieldIsRefusedNamingTheField() throws Exception {
    Path file = tmp.newFile("admins.pub").toPath();
    Files.writeString(file, "format = bftws-admins-1\nadmins = 1\nadmin.1.ed25519 = AAAA\n");
    assertRefused(file, "admin.1.ed25519");
    Files.writeString(file, "format = bftws-admins-1\nadmins = 1\nadmin.1.ed25519 = "
        + java.util.Base64.getEncoder().encodeToString(new byte[32]) + "\nadmin.2.ed25519 = AAAA\n");
    assertRefused(file, "admin.2.ed25519");
  }

  private static void assertRefused(Path file, String field) {
    try {
      AdminKeys.readList(file);
      fail("accepted " + field);
    } catch (KeyFileException e) {
      assertTrue(e.getMessage(), e.getMessage().contains(field));
    }
  }
}
