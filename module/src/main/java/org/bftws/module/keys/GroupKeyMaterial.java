package org.bftws.module.keys;

import java.util.HashMap;
import java.util.Map;

import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Authentication;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Ed25519;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.crypto.threshold.KeyShare;
import org.bftws.core.keys.ClientKeys;
import org.bftws.core.keys.GroupKeys;
import org.bftws.core.keys.KeyFileException;
import org.bftws.core.keys.GroupMembers;
import org.bftws.core.keys.KeyFiles;
import org.bftws.core.keys.ReplicaIdentity;
import org.bftws.core.keys.ReplicaKeys;
import org.bftws.module.config.BftwsConfig;
import org.bftws.module.config.BftwsConfigException;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.KeysMode;
import org.bftws.module.metrics.CryptoCounts;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;

/**
 * The keys of one Axis2 instance of a replica group, loaded from the files of {@code scripts/keygen}
 * ({@code bftws.keys.public} = {@code group.pub}, {@code bftws.keys.private} = {@code replica-I.key} or
 * {@code client-J.key}) through core's {@link KeyFiles}, which checks every file.
 *
 * <p>Node ids: the key files number replicas 1..n and clients 1..C; core numbers replicas 0..n-1 and clients
 * from the client base b ({@code bftws.maxReplicas}, n when not given: above every replica index a grown
 * epoch can use, docs/design/reconfiguration.md). So replica id i (its entry in {@code bftws.replicas}) is
 * {@code replica-(i+1).key}, and {@code client-J.key} is core node b + J - 1. An execution node of configuration
 * III (BFT-WS §3.3.3; its id from b on, {@code bftws.executionNodes}) signs with the client key of its node id,
 * {@code client-(id-b+1).key}: its id is no client's, so no client uses that key, and every member already
 * holds its public key.
 *
 * @param nodeId this instance's core node id
 * @param group  all public material of {@code group.pub}, threshold group key included
 * @param share  a replica's threshold key share from its {@code replica-I.key} (index = id + 1); null on a
 *               client
 * @param decryption a replica's TDH2 decryption key share for confidential requests (SINTRA §2.6, index = id
 *               + 1); null on a client
 * @param counts the Ed25519 signatures {@code signer} made and {@code verifier} checked, per message kind
 * @param macs   a replica's authenticators with {@code bftws.authentication=macs} (pairwise keys from its
 *               Ed25519 key and the other replicas' public keys); null on a client and with signatures
 * @param pending with {@code bftws.keys.mode=dkg}: the members and this replica's individual keys (before the
 *               distributed key generation gave this replica its keys, {@code group}, {@code share} and
 *               {@code decryption} are null); null with dealt keys
 */
public record GroupKeyMaterial(int nodeId, Signer signer, Verifier verifier, GroupKeys group, KeyShare share,
        KeyShare decryption, CryptoCounts counts, Authenticators macs, Pending pending) {

    /**
     * A replica of a group without a dealer whose keys are not generated yet. Its DKG operations are ordered
     * as requests of node {@link #submitter} (after the clients' ids, which start at {@code clientBase}),
     * signed with its own Ed25519 key.
     */
    public record Pending(GroupMembers members, ReplicaIdentity identity, int clientBase) {
        /** The node id under which replica {@code replicaId} (0..n-1) submits its DKG operations. */
        public int submitter(int replicaId) {
            return clientBase + members.clientKeys().size() + replicaId;
        }

        /** The replica id (0..n-1) whose DKG operations node {@code node} submits, or -1. */
        public int replicaOf(int node) {
            int r = node - submitter(0);
            return r >= 0 && r < members.n() ? r : -1;
        }
    }

    /** Whether this replica still waits for the distributed key generation. */
    public boolean keysPending() {
        return pending != null && group == null;
    }

    /** Loads this instance's keys; any problem is a {@link BftwsConfigException} naming the key and file. */
    public static GroupKeyMaterial load(BftwsConfig config) {
        if (config.isReplica() && config.keysMode() == KeysMode.DKG) {
            return DkgKeys.load(config);
        }
        GroupKeys group;
        try {
            group = KeyFiles.readGroup(config.publicKeysPath());
        } catch (KeyFileException e) {
            throw new BftwsConfigException(BftwsKeys.PUBLIC_KEYS.name(), "cannot be used: " + e.getMessage());
        }
        int n = config.n();
        if (group.n() != n || group.f() != config.f()) {
            throw new BftwsConfigException(BftwsKeys.PUBLIC_KEYS.name(), "is for a group of n = " + group.n()
                    + ", f = " + group.f() + ", but " + GroupConfig.F.name() + " gives n = " + n + ", f = "
                    + config.f());
        }
        int base = config.clientBase();
        Map<Integer, Ed25519PublicKeyParameters> publicKeys = replicaKeys(group, n);
        for (int j = 1; j <= group.clientKeys().size(); j++) {
            publicKeys.put(clientNode(base, j), group.clientKey(j));
        }
        CryptoCounts counts = new CryptoCounts();
        Verifier verifier = counts.counting(Ed25519.verifier(publicKeys));
        try {
            if (config.isExecutionNode()) {
                ClientKeys mine = KeyFiles.readClient(config.privateKeyPath(), group);
                if (clientNode(base, mine.index()) != config.replicaId()) {
                    throw new BftwsConfigException(BftwsKeys.PRIVATE_KEY.name(), "holds the key of node "
                            + clientNode(base, mine.index()) + ", but execution node " + config.replicaId()
                            + " needs " + KeyFiles.clientFileName(config.replicaId() - base + 1));
                }
                return new GroupKeyMaterial(config.replicaId(), counts.counting(Ed25519.signer(mine.signingKey())),
                        verifier, group, null, null, counts, null, null);
            }
            if (config.isReplica()) {
                ReplicaKeys mine = KeyFiles.readReplica(config.privateKeyPath(), group);
                if (mine.index() != config.replicaId() + 1) {
                    throw new BftwsConfigException(BftwsKeys.PRIVATE_KEY.name(), "holds the key of replica "
                            + mine.index() + " (file numbering 1..n), but " + BftwsKeys.REPLICA_ID.name() + " "
                            + config.replicaId() + " needs replica-" + (config.replicaId() + 1) + ".key");
                }
                return replica(config, group, mine, verifier, counts, null);
            }
            ClientKeys mine = KeyFiles.readClient(config.privateKeyPath(), group);
            return new GroupKeyMaterial(clientNode(base, mine.index()),
                    counts.counting(Ed25519.signer(mine.signingKey())),
                    verifier, group, null, null, counts, null, null);
        } catch (KeyFileException e) {
            throw new BftwsConfigException(BftwsKeys.PRIVATE_KEY.name(), "cannot be used: " + e.getMessage());
        }
    }

    /** A replica's material from its (dealt or generated) keys. */
    static GroupKeyMaterial replica(BftwsConfig config, GroupKeys group, ReplicaKeys mine, Verifier verifier,
            CryptoCounts counts, Pending pending) {
        Authenticators macs = config.authentication() == Authentication.MACS
                ? new Authenticators(config.replicaId(), mine.signingKey(), replicaKeys(group, group.n())) : null;
        return new GroupKeyMaterial(config.replicaId(), counts.counting(Ed25519.signer(mine.signingKey())),
                verifier, group, mine.share(), mine.decryption(), counts, macs, pending);
    }

    /** The core node id of {@code client-J.key}: {@code clientBase + J - 1}. */
    public static int clientNode(int clientBase, int j) {
        return clientBase + j - 1;
    }

    /** The replicas' Ed25519 public keys by core node id (0..n-1). */
    static Map<Integer, Ed25519PublicKeyParameters> replicaKeys(GroupKeys group, int n) {
        Map<Integer, Ed25519PublicKeyParameters> keys = new HashMap<>();
        for (int i = 0; i < n; i++) {
            keys.put(i, group.replicaKey(i + 1));
        }
        return keys;
    }

    @Override
    public String toString() {
        return "keys of node " + nodeId + " (not shown)";
    }
}
