package org.bftws.module.keys;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.KeyEpochFiles;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.MemberFiles;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.metrics.CryptoCounts;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * A replica's keys with {@code bftws.keys.mode=dkg}: {@code bftws.keys.public} is the group's
 * {@code members.pub}, {@code bftws.keys.private} this replica's {@code replica-I.id}. When its data directory
 * holds the {@code group.pub} and {@code replica-I.key} that the distributed key generation gave it, those are
 * its keys (checked against the members' public keys: the same replicas, the same clients; after a refresh,
 * {@code group.vk}'s verification keys with the same group keys, {@link KeyEpochFiles}); otherwise it
 * starts with its individual keys only and {@link GroupKeyMaterial.Pending}.
 */
final class DkgKeys {
    private DkgKeys() {
    }

    static GroupKeyMaterial load(BftwsConfig config) {
        GroupMembers members;
        ReplicaIdentity identity;
        try {
            members = MemberFiles.readMembers(config.publicKeysPath());
        } catch (KeyFileException e) {
            throw new BftwsConfigException(BftwsKeys.PUBLIC_KEYS.name(), "cannot be used with "
                    + BftwsKeys.KEYS_MODE + "=dkg (expected members.pub): " + e.getMessage());
        }
        if (members.n() != config.n() || members.f() != config.f()) {
            throw new BftwsConfigException(BftwsKeys.PUBLIC_KEYS.name(), "is for a group of n = " + members.n()
                    + ", f = " + members.f() + ", but " + GroupConfig.F.name() + " gives n = " + config.n());
        }
        if (!members.scheme().label().equals(config.thresholdScheme().configValue())) {
            throw new BftwsConfigException(BftwsKeys.THRESHOLD_SCHEME.name(), "is "
                    + config.thresholdScheme().configValue() + ", but " + BftwsKeys.PUBLIC_KEYS.name()
                    + " makes a " + members.scheme().label() + " key (scripts/keygen --group-from --scheme)");
        }
        try {
            identity = MemberFiles.readIdentity(config.privateKeyPath(), members);
        } catch (KeyFileException e) {
            throw new BftwsConfigException(BftwsKeys.PRIVATE_KEY.name(), "cannot be used with "
                    + BftwsKeys.KEYS_MODE + "=dkg (expected this replica's replica-I.id): " + e.getMessage());
        }
        if (identity.index() != config.replicaId() + 1) {
            throw new BftwsConfigException(BftwsKeys.PRIVATE_KEY.name(), "holds the keys of replica "
                    + identity.index() + ", but " + BftwsKeys.REPLICA_ID.name() + " " + config.replicaId()
                    + " needs replica-" + (config.replicaId() + 1) + ".id");
        }
        CryptoCounts counts = new CryptoCounts();
        GroupKeyMaterial.Pending pending = new GroupKeyMaterial.Pending(members, identity, config.clientBase());
        // the key generation's requests stay verifiable after it: a journal or a state transfer may hold them
        Map<Integer, Ed25519PublicKeyParameters> publicKeys = publicKeys(members, config.n(), config.clientBase());
        for (int i = 0; i < config.n(); i++) {
            publicKeys.put(pending.submitter(i), members.replicaKey(i + 1));
        }
        Verifier verifier = counts.counting(Ed25519.verifier(publicKeys));
        if (Files.exists(config.dataDir().resolve(KeyFiles.GROUP_FILE))) {
            return generatedKeys(config, members, verifier, counts, pending);
        }
        Authenticators macs = config.authentication() == Authentication.MACS
                ? new Authenticators(config.replicaId(), identity.signingKey(), replicaKeys(members, config.n())) : null;
        return new GroupKeyMaterial(config.replicaId(), counts.counting(Ed25519.signer(identity.signingKey())),
                verifier, null, null, null, counts, macs, pending);
    }

    /** The keys a finished key generation left in the data directory, checked against the members. */
    private static GroupKeyMaterial generatedKeys(BftwsConfig config, GroupMembers members, Verifier verifier,
            CryptoCounts counts, GroupKeyMaterial.Pending pending) {
        Path dir = config.dataDir();
        GroupKeys group;
        ReplicaKeys mine;
        try {
            // a refresh stopped between forcing its files and moving them is finished (or dropped) first
            KeyEpochFiles.recover(dir);
            group = KeyEpochFiles.readGroup(dir);
            mine = KeyFiles.readReplica(dir.resolve(KeyFiles.replicaFileName(config.replicaId() + 1)), group);
            KeyEpochFiles.read(dir);
        } catch (KeyFileException e) {
            throw new BftwsConfigException(BftwsKeys.DATA_DIR.name(), "holds generated keys that cannot be used: "
                    + e.getMessage());
        } catch (java.io.IOException e) {
            throw new BftwsConfigException(BftwsKeys.DATA_DIR.name(), "holds an unfinished refresh of the keys that"
                    + " cannot be completed: " + e);
        }
        boolean same = group.n() == members.n() && group.f() == members.f() && group.scheme() == members.scheme()
                && group.clientKeys().size() == members.clientKeys().size();
        for (int i = 1; same && i <= members.n(); i++) {
            same = Arrays.equals(group.replicaKey(i).getEncoded(), members.replicaKey(i).getEncoded());
        }
        for (int j = 1; same && j <= members.clientKeys().size(); j++) {
            same = Arrays.equals(group.clientKey(j).getEncoded(), members.clientKeys().get(j - 1).getEncoded());
        }
        if (!same) {
            throw new BftwsConfigException(BftwsKeys.DATA_DIR.name(), "holds a group.pub of other members than "
                    + BftwsKeys.PUBLIC_KEYS.name() + " lists");
        }
        return GroupKeyMaterial.replica(config, group, mine, verifier, counts, pending);
    }

    /** Replicas' keys by node id 0..n-1 and clients' from n on. */
    private static Map<Integer, Ed25519PublicKeyParameters> publicKeys(GroupMembers members, int n, int clientBase) {
        Map<Integer, Ed25519PublicKeyParameters> keys = replicaKeys(members, n);
        for (int j = 1; j <= members.clientKeys().size(); j++) {
            keys.put(GroupKeyMaterial.clientNode(clientBase, j), members.clientKeys().get(j - 1));
        }
        return keys;
    }

    private static Map<Integer, Ed25519PublicKeyParameters> replicaKeys(GroupMembers members, int n) {
        Map<Integer, Ed25519PublicKeyParameters> keys = new HashMap<>();
        for (int i = 0; i < n; i++) {
            keys.put(i, members.replicaKey(i + 1));
        }
        return keys;
    }
}
