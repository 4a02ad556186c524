package org.bftws.core.dkg;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.bftws.core.crypto.threshold.GroupValue;
import org.bftws.core.crypto.threshold.SchemeId;
import org.bftws.core.crypto.threshold.SignatureShare;
import org.bftws.core.crypto.threshold.Tdh2;
import org.bftws.core.crypto.threshold.Tdh2Ciphertext;
import org.bftws.core.crypto.threshold.ThresholdScheme;
import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.core.keys.MemberFiles;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * A whole group's keys without a dealer: n replicas run {@link GroupDkg} over one agreed sequence (a FIFO of
 * submitted operations, in a seeded interleaving, standing for the ordering); all end with the same group.pub,
 * their shares work for the coin and TDH2, and 2f+1 signatures certify group.pub for clients.
 */
public class GroupDkgTest {
  @Rule
  public TemporaryFolder tmp = new TemporaryFolder();

  private record Submitted(int replica, byte[] operation) {}

  private static final class Net {
    final GroupMembers members;
    final List<GroupDkg> replicas = new ArrayList<>();
    final GroupDkg.Output[] outputs;
    final String[] certificates;
    final Deque<Submitted> pending = new ArrayDeque<>();
    final Random order;
    int operations;
    long bytes;

    Net(SchemeId scheme, int n, long seed) {
      order = new Random(seed);
      List<ReplicaIdentity> ids = new ArrayList<>();
      List<Ed25519PublicKeyParameters> sign = new ArrayList<>();
      List<byte[]> enc = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        ShareCipher.KeyPair kp = ShareCipher.generate(TestRandom.seeded(seed * 100 + i));
        Ed25519PrivateKeyParameters sk = new Ed25519PrivateKeyParameters(TestRandom.seeded(seed * 1000 + i));
        ids.add(new ReplicaIdentity(i, sk, kp.secret()));
        sign.add(sk.generatePublicKey());
        enc.add(kp.publicKey());
      }
      int f = (n - 1) / 3;
      members = new GroupMembers(scheme, n, f, f + 1, sign, enc, List.of());
      outputs = new GroupDkg.Output[n + 1];
      certificates = new String[n + 1];
      for (int i = 1; i <= n; i++) {
        replicas.add(new GroupDkg(members, ids.get(i - 1), TestRandom.seeded(seed * 7 + i)));
      }
    }

    void run() {
      // the replicas start in a seeded order; every submitted operation is then ordered after those before it
      List<Integer> starters = new ArrayList<>();
      for (int i = 1; i <= replicas.size(); i++) {
        starters.add(i);
      }
      java.util.Collections.shuffle(starters, order);
      for (int i : starters) {
        submit(i, replicas.get(i - 1).start());
      }
      while (!pending.isEmpty()) {
        Submitted s = pending.poll();
        operations++;
        bytes += s.operation().length;
        for (int i = 1; i <= replicas.size(); i++) {
          submit(i, replicas.get(i - 1).deliver(s.replica(), s.operation()));
        }
      }
    }

    private void submit(int i, GroupDkg.Step step) {
      for (byte[] op : step.toOrder()) {
        pending.add(new Submitted(i, op));
      }
      if (step.output() != null) {
        outputs[i] = step.output();
      }
      if (step.certificate() != null) {
        certificates[i] = step.certificate();
      }
    }
  }

  @Test
  public void everyReplicaEndsWithTheSameCertifiedKeysAndWorkingShares() throws Exception {
    for (SchemeId scheme : new SchemeId[] {SchemeId.CKS, SchemeId.BLS}) {
      Net net = new Net(scheme, 4, scheme.ordinal() + 3);
      net.run();
      String text = net.outputs[1].groupText();
      for (int i = 1; i <= 4; i++) {
        assertNotNull("replica " + i + " has no keys", net.outputs[i]);
        assertEquals("group.pub of replica " + i, text, net.outputs[i].groupText());
        assertNotNull("replica " + i + " has no certificate", net.certificates[i]);
        assertEquals(net.certificates[1], net.certificates[i]);
        assertTrue(net.replicas.get(i - 1).certified());
        assertEquals("QUAL of the coin's run at replica " + i, net.outputs[1].coinQualified(),
            net.outputs[i].coinQualified());
        assertEquals("QUAL of the TDH2 run at replica " + i, net.outputs[1].tdh2Qualified(),
            net.outputs[i].tdh2Qualified());
      }
      // every dealer is correct here: QUAL is the first n - 2t = 2 qualified, in increasing order, within 1..4
      for (List<Integer> qual : List.of(net.outputs[1].coinQualified(), net.outputs[1].tdh2Qualified())) {
        assertTrue("QUAL " + qual, qual.size() >= 2 && qual.stream().allMatch(d -> d >= 1 && d <= 4)
            && qual.equals(qual.stream().sorted().toList()));
      }
      GroupKeys group = net.outputs[1].group();
      assertEquals(scheme, group.scheme());
      byte[] msg = "coin".getBytes(StandardCharsets.US_ASCII);
      ThresholdScheme ts = group.thresholdScheme();
      List<SignatureShare> coinShares = new ArrayList<>();
      Tdh2 tdh2 = new Tdh2();
      Tdh2Ciphertext ct = tdh2.encrypt(group.encryption(), "l".getBytes(StandardCharsets.US_ASCII), msg,
          TestRandom.seeded(1));
      List<SignatureShare> decShares = new ArrayList<>();
      for (int i = 4; i >= 1; i--) {
        ReplicaKeys r = net.outputs[i].keys();
        coinShares.add(ts.share(group.threshold(), r.share(), msg));
        decShares.add(tdh2.share(group.encryption(), r.decryption(), ct));
      }
      GroupValue v = ts.combine(group.threshold(), msg, coinShares.subList(0, 2));
      assertTrue(ts.verifyCombined(group.threshold(), msg, v));
      assertArrayEquals(v.unique(), ts.combine(group.threshold(), msg, coinShares.subList(2, 4)).unique());
      assertArrayEquals(msg, tdh2.combine(group.encryption(), ct, decShares.subList(1, 3)));
    }
  }

  /** What a replica writes and a client checks: group.pub and replica-I.key read back; the certificate holds. */
  @Test
  public void theWrittenFilesLoadAndTheCertificateChecksAgainstTheTrustedReplicaKeys() throws Exception {
    Net net = new Net(SchemeId.CKS, 4, 11);
    net.run();
    Path dir = tmp.newFolder("data-2").toPath();
    GroupDkg.Output out = net.outputs[2];
    KeyFiles.writeGenerated(dir, out.groupText(), out.keys());
    Files.writeString(dir.resolve(GroupCertificate.FILE), net.certificates[2]);
    ReplicaKeys loaded = KeyFiles.readReplica(dir, 2);
    assertEquals(2, loaded.index());
    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(dir.resolve("replica-2.key"))));
    GroupKeys checked = GroupCertificate.verify(dir.resolve(KeyFiles.GROUP_FILE), dir.resolve(GroupCertificate.FILE),
        net.members.replicaKeys(), 1);
    assertArrayEquals(out.group().threshold().commonEncoding(), checked.threshold().commonEncoding());
    // the client's command: keygen --check-group DIR --members members.pub
    Path membersFile = tmp.getRoot().toPath().resolve(MemberFiles.MEMBERS_FILE);
    MemberFiles.writeMembers(membersFile, net.members);
    java.io.PrintStream quiet = new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true);
    assertEquals(0, KeyGen.run(new String[] {"--check-group", dir.toString(), "--members", membersFile.toString()},
        TestRandom.seeded(1), quiet, quiet));
    // one byte changed in group.pub (another TDH2 key, say): the certificate no longer holds
    Path forged = tmp.newFolder("forged").toPath();
    Files.writeString(forged.resolve(KeyFiles.GROUP_FILE), out.groupText().replace("clients = 0", "clients = 0 "));
    try {
      GroupCertificate.verify(forged.resolve(KeyFiles.GROUP_FILE), dir.resolve(GroupCertificate.FILE),
          net.members.replicaKeys(), 1);
      fail("a changed group.pub passed the certificate");
    } catch (KeyFileException e) {
      assertEquals("group.sha256", e.field());
    }
    Files.copy(dir.resolve(GroupCertificate.FILE), forged.resolve(GroupCertificate.FILE));
    assertEquals(1, KeyGen.run(new String[] {"--check-group", forged.toString(), "--members", membersFile.toString()},
        TestRandom.seeded(1), quiet, quiet));
  }

  /** An operation naming another author than its submitter, or garbage, is ignored and reported. */
  @Test
  public void forgedAndMalformedOperationsChangeNothing() {
    Net net = new Net(SchemeId.CKS, 4, 5);
    GroupDkg.Step s = net.replicas.get(0).start();
    GroupDkg.Step other = net.replicas.get(1).deliver(3, s.toOrder().get(0));
    assertTrue(other.toOrder().isEmpty());
    assertFalse(other.faults().isEmpty());
    GroupDkg.Step garbage = net.replicas.get(1).deliver(3, "BFTWS-DKG-1\u0001xyz".getBytes(StandardCharsets.US_ASCII));
    assertTrue(garbage.faults().get(0), garbage.faults().get(0).contains("malformed"));
    assertFalse(GroupDkg.isDkgOperation("<soap/>".getBytes(StandardCharsets.US_ASCII)));
    assertTrue(GroupDkg.isDkgOperation(s.toOrder().get(0)));
  }
}
