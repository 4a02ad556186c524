package org.bftws.fuzz;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.bftws.core.keys.GroupCertificate;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyEpochFiles;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.KeyGen;
import org.bftws.core.keys.MemberFiles;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.core.testkit.TestRandom;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * The files of a group whose members generate their own keys and whose threshold keys come from the DKG
 * (docs/keys.md): {@code members.pub} and a replica's {@code replica-I.id} as {@code keygen --replica/--client/
 * --group-from} write them, the {@code group.cert} of 2f+1 replicas' signatures on a {@code group.pub}, and a
 * proactive refresh's {@code group.vk} and {@code keys.epoch}; then mutations. Each input is read in each of
 * these roles (against the authentic members, group.pub and replica keys): it loads or is refused with {@link
 * KeyFileException}, which names the file and the field; anything else thrown is a crash. Reading keeps no state.
 */
final class MemberFileIntake implements Target {
    private final List<byte[]> corpus = new ArrayList<>();
    private final GroupMembers members;
    private final List<Ed25519PublicKeyParameters> replicaKeys = new ArrayList<>();
    private final Path in;
    private String lastFinding = "";

    MemberFileIntake(long seed) {
        try {
            Path dir = Scratch.directory("bftws-fuzz-members");
            Path pub = Files.createDirectories(dir.resolve("pub"));
            for (int i = 1; i <= 4; i++) {
                Path host = dir.resolve("host" + i);
                keygen(seed + i, "--replica", "" + i, "--out", host.toString());
                Files.copy(host.resolve(MemberFiles.replicaPublicFileName(i)),
                        pub.resolve(MemberFiles.replicaPublicFileName(i)));
            }
            keygen(seed, "--client", "1", "--out", dir.resolve("client").toString());
            keygen(seed, "--group-from", pub.toString(), "--group-from", dir.resolve("client").toString(), "--out",
                    dir.resolve("group").toString());
            Path membersFile = dir.resolve("group").resolve(MemberFiles.MEMBERS_FILE);
            members = MemberFiles.readMembers(membersFile);
            corpus.add(Files.readAllBytes(membersFile));
            corpus.add(Files.readAllBytes(dir.resolve("host1").resolve(MemberFiles.identityFileName(1))));
            Path keys = dir.resolve("keys");
            keygen(seed, "--out", keys.toString(), "--replicas", "4", "--clients", "1");
            corpus.add(certificate(keys));
            GroupKeys group = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
            KeyEpochFiles.write(keys, new KeyEpochFiles.Epoch(1, 8), group, KeyFiles.readReplica(keys, 1));
            corpus.add(Files.readAllBytes(keys.resolve(KeyEpochFiles.VK_FILE)));
            corpus.add(Files.readAllBytes(keys.resolve(KeyEpochFiles.EPOCH_FILE)));
            in = Files.createDirectories(dir.resolve("in"));
            Files.copy(keys.resolve(KeyFiles.GROUP_FILE), in.resolve(KeyFiles.GROUP_FILE),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (KeyFileException e) {
            throw new IllegalStateException("a generated key file does not load", e);
        }
    }

    private static void keygen(long seed, String... args) {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        int status = KeyGen.run(args, TestRandom.seeded(seed), quiet, quiet);
        if (status != 0) {
            throw new IllegalStateException("keygen " + String.join(" ", args) + " exited " + status);
        }
    }

    /** The dealt group's group.cert, signed by replicas 1..3 (2f+1); keeps their public keys for the checks. */
    private byte[] certificate(Path keys) throws IOException, KeyFileException {
        byte[] groupText = Files.readAllBytes(keys.resolve(KeyFiles.GROUP_FILE));
        GroupKeys group = KeyFiles.readGroup(keys.resolve(KeyFiles.GROUP_FILE));
        Map<Integer, byte[]> signatures = new TreeMap<>();
        for (int i = 1; i <= 4; i++) {
            replicaKeys.add(group.replicaKey(i));
            if (i <= 3) {
                ReplicaKeys r = KeyFiles.readReplica(keys, i);
                signatures.put(i, GroupCertificate.sign(r.signingKey(), groupText));
            }
        }
        Path cert = keys.resolve(GroupCertificate.FILE);
        GroupCertificate.write(cert, groupText, signatures);
        return Files.readAllBytes(cert);
    }

    @Override
    public String name() {
        return "members";
    }

    @Override
    public List<byte[]> corpus() {
        return corpus;
    }

    /** One way of reading a file; throws KeyFileException to refuse it. */
    private interface Reader {
        void read(Path file) throws KeyFileException;
    }

    @Override
    public Outcome feed(byte[] input) {
        Map<String, Reader> roles = new TreeMap<>();
        roles.put(MemberFiles.MEMBERS_FILE, MemberFiles::readMembers);
        roles.put("replica-1.id", file -> MemberFiles.readIdentity(file, members));
        roles.put(GroupCertificate.FILE, file -> GroupCertificate.verify(in.resolve(KeyFiles.GROUP_FILE), file,
                replicaKeys, 1));
        roles.put(KeyEpochFiles.VK_FILE, file -> KeyEpochFiles.readGroup(in));
        roles.put(KeyEpochFiles.EPOCH_FILE, file -> KeyEpochFiles.read(in));
        for (Map.Entry<String, Reader> role : roles.entrySet()) {
            Path file = in.resolve(role.getKey());
            try {
                Files.write(file, input);
                role.getValue().read(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (KeyFileException refused) {
                // the clear refusal
            } catch (RuntimeException | Error e) {
                lastFinding = role.getKey() + ": " + e;
                return Outcome.CRASH;
            } finally {
                deleteQuietly(file);
            }
        }
        return Outcome.HANDLED;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String lastFinding() {
        return lastFinding;
    }
}
