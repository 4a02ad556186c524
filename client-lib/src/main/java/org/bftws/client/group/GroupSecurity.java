package org.bftws.client.group;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.bftws.client.embedded.Axis2Repository;
import org.bftws.client.security.GeneratedKeystores;
import org.bftws.client.security.SigningPolicy;
import org.bftws.module.config.BftwsKeys;

/**
 * How a launched group's clients and replicas sign their WS-RM CreateSequence exchange ({@code bftws.security},
 * docs/security.md "WS-Security signing", BFT-WS paper §3.3.1): {@link #NONE}, or {@link #RAMPART} with X.509 keystores
 * generated into the group's key directory on first use ({@link GeneratedKeystores}: {@code client.jks},
 * {@code replica-1.jks} ... beside keygen's files) and one {@link SigningPolicy} per party.
 */
public enum GroupSecurity {
    NONE, RAMPART;

    /** The keystore alias of the group's client (replicas are {@code replica-1} ... {@code replica-n}). */
    public static final String CLIENT = "client";

    /** {@code none} or {@code rampart}. */
    public static GroupSecurity parse(String name) {
        for (GroupSecurity s : values()) {
            if (s.name().equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("--security is none or rampart, not " + name);
    }

    /** The value of {@code bftws.security}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The keystores of a group of {@code n} replicas and its client in {@code keys}: generated where missing
     * (keytool, seconds each), reused otherwise. Call it once before starting the parties, so that they do not
     * generate the same files at once.
     */
    public static GeneratedKeystores keystores(Path keys, int n) throws IOException {
        List<String> parties = new ArrayList<>(List.of(CLIENT));
        for (int r = 1; r <= n; r++) {
            parties.add(replicaAlias(r - 1));
        }
        return GeneratedKeystores.generate(keys, parties);
    }

    /** Replica {@code id}'s keystore alias: keygen's numbering, {@code replica-(id+1)}. */
    public static String replicaAlias(int id) {
        return "replica-" + (id + 1);
    }

    /**
     * Replica {@code id}'s {@code bftws.security} parameters; with rampart its policy (verifying the client's
     * signature, signing its answers) is written into {@code dir}.
     */
    public String replicaParameters(Path keys, int n, int id, Path dir) throws IOException {
        if (this == NONE) {
            return "";
        }
        return parameters(SigningPolicy.write(dir, keystores(keys, n), replicaAlias(id), SigningPolicy.REQUEST_SIGNER));
    }

    /** The group client's {@code bftws.security} parameters; with rampart its policy is written into {@code dir}. */
    public String clientParameters(Path keys, int n, Path dir) throws IOException {
        if (this == NONE) {
            return "";
        }
        // Each replica's answer is checked against its own certificate in the keystore (as in SignedGroupTest).
        return parameters(SigningPolicy.write(dir, keystores(keys, n), CLIENT, replicaAlias(0)));
    }

    private String parameters(Path policy) {
        return GroupLauncher.param(BftwsKeys.SECURITY.name(), value())
                + GroupLauncher.param(BftwsKeys.SECURITY_POLICY, policy.toAbsolutePath());
    }

    /** rampart.mar into a repository when signing (without it a replica with rampart does not start). */
    Axis2Repository.Builder withModule(Axis2Repository.Builder repository, GroupLauncher.Layout layout)
            throws IOException {
        return this == NONE ? repository : repository.module(layout.artifacts().resolve("modules/rampart.mar"));
    }
}
