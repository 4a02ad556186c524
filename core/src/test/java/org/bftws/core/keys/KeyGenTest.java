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
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The dealer command (SINTRA §2: a trusted dealer runs once and keys are distributed to the servers) and a
 * round trip through the key files: what KeyGen writes, KeyFiles reads back, and the keys work.
 */
public class KeyGenTest {
  static final byte[] MSG = "group=g;n=7;d=ab".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] LABEL = "label".getBytes(StandardCharsets.US_ASCII);
  private static final Tdh2 TDH2 = new Tdh2();

  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  static int keygen(long seed, String... args) {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    return KeyGen.run(args, TestRandom.seeded(seed), quiet, quiet);
  }

  @Test
  public void roundTripForEveryScheme() throws Exception {
    roundTrip("cks", 4, 2, 2);
    roundTrip("bls", 4, 3, 0);
    roundTrip("rsa", 4, 2, 1, "--rsa-bits", "512");
  }

  private void roundTrip(String scheme, int n, int k, int clients, String... extra) throws Exception {
    Path dir = tmp.getRoot().toPath().resolve(scheme);
    List<String> args = new ArrayList<>(List.of("--out", dir.toString(), "--replicas", "" + n, "--k", "" + k,
        "--scheme", scheme, "--clients", "" + clients));
    args.addAll(List.of(extra));
    assertEquals(0, keygen(42, args.toArray(new String[0])));
    GroupKeys group = KeyFiles.readGroup(dir.resolve("group.pub"));
    assertEquals(SchemeId.fromLabel(scheme), group.scheme());
    assertEquals(n, group.n());
    assertEquals(1, group.f());
    assertEquals(k, group.k());
    assertEquals(clients, group.clientKeys().size());
    ThresholdScheme ts = group.thresholdScheme();
    List<SignatureShare> shares = new ArrayList<>();
    Tdh2Ciphertext sealed = TDH2.encrypt(group.encryption(), LABEL, MSG, TestRandom.seeded(5));
    List<SignatureShare> decryptionShares = new ArrayList<>();
    for (int i = n; i >= 1; i--) {
      ReplicaKeys r = KeyFiles.readReplica(dir, i);
      assertEquals(i, r.index());
      assertEquals("rw-------", mode(dir.resolve("replica-" + i + ".key")));
      shares.add(ts.share(group.threshold(), r.share(), MSG));
      decryptionShares.add(TDH2.share(group.encryption(), r.decryption(), sealed));
      assertTrue(ed25519RoundTrip(r, group));
    }
    // the TDH2 key dealt beside the coin's: k replicas' decryption shares open what a client sealed
    assertArrayEquals(MSG, TDH2.combine(group.encryption(), sealed, decryptionShares.subList(n - k, n)));
    GroupValue v = ts.combine(group.threshold(), MSG, shares.subList(0, k));
    assertTrue(ts.verifyCombined(group.threshold(), MSG, v));
    assertArrayEquals(v.unique(), ts.combine(group.threshold(), MSG, shares.subList(n - k, n)).unique());
    for (int j = 1; j <= clients; j++) {
      assertEquals(j, KeyFiles.readClient(dir.resolve("client-" + j + ".key"), group).index());
      assertEquals("rw-------", mode(dir.resolve("client-" + j + ".key")));
    }
    assertEquals("rw-r--r--", mode(dir.resolve("group.pub")));
  }

  private static boolean ed25519RoundTrip(ReplicaKeys r, GroupKeys group) {
    Ed25519Signer s = new Ed25519Signer();
    s.init(true, r.signingKey());
    s.update(MSG, 0, MSG.length);
    byte[] sig = s.generateSignature();
    Ed25519Signer v = new Ed25519Signer();
    v.init(false, group.replicaKey(r.index()));
    v.update(MSG, 0, MSG.length);
    return v.verifySignature(sig);
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  public void usageErrorsExitWithStatusTwo() {
    assertEquals(2, keygen(1, "--replicas", "4"));
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "3", "--f", "1"));
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "4", "--k", "4"));
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "4", "--scheme", "ecdsa"));
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "4", "--scheme", "tdh2"));
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "4", "--bogus", "1"));
  }

  @Test
  public void aUsageErrorNamesEveryFormOfTheCommand() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
    assertEquals(2, KeyGen.run(new String[] {"--bogus"}, TestRandom.seeded(1), e, e));
    String usage = err.toString(StandardCharsets.UTF_8);
    for (String form : List.of("--replicas", "--replica I", "--client J", "--group-from", "--check-group", "--admin J")) {
      assertTrue(form + " missing from: " + usage, usage.contains(form));
    }
  }

  @Test
  public void refusesANonEmptyDirectory() throws Exception {
    Path dir = tmp.newFolder("full").toPath();
    Files.writeString(dir.resolve("something"), "x");
    assertEquals(1, keygen(1, "--out", dir.toString(), "--replicas", "4"));
  }

  @Test
  public void defaultsAreFPlusOneOfThreeFPlusOne() throws Exception {
    KeyGen.Options o = KeyGen.parse(new String[] {"--out", "x", "--replicas", "7"});
    assertEquals(2, o.f());
    assertEquals(3, o.k());
    assertEquals(SchemeId.CKS, o.scheme());
    assertEquals(1, o.clients());
  }

  // Integrity paper §5: k may be set anywhere from f+1 up to 2f+1 = n−f.
  @Test
  public void thresholdMayRangeFromFPlusOneToTwoFPlusOne() {
    for (int k = 3; k <= 5; k++) {
      assertEquals(k, KeyGen.parse(new String[] {"--out", "x", "--replicas", "7", "--k", "" + k}).k());
    }
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "7", "--k", "6"));
    assertEquals(2, keygen(1, "--out", tmp.getRoot().toString(), "--replicas", "7", "--k", "2"));
  }

  static void expectError(KeyFilesCall call, String file, String field) {
    try {
      call.run();
      fail("expected an error naming " + file + " / " + field);
    } catch (KeyFileException e) {
      assertEquals(e.getMessage(), field, e.field());
      assertTrue(e.getMessage(), e.getMessage().contains(file));
      assertTrue(e.getMessage(), e.getMessage().contains("'" + field + "'"));
    }
  }

  interface KeyFilesCall {
    void run() throws KeyFileException;
  }
}
