package org.bftws.perf.echo;

import static org.bftws.client.group.GroupLauncher.param;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.bftws.client.security.GeneratedKeystores;
import org.bftws.client.security.SigningPolicy;
import org.bftws.module.config.BftwsKeys;
import org.bftws.module.config.SecurityMode;

/**
 * {@code bftws.security=rampart} for a {@link ReplicaGroup} (docs/security.md "WS-Security signing"): an X.509 keystore per
 * replica and for the client, made at run time (each trusting the others), and each party's own signing policy,
 * as axis2.xml parameters. The client then WS-Security signs its CreateSequence and application messages and
 * each replica's Rampart checks them.
 */
final class GroupSigning {
    private static final String CLIENT = "client";

    private final Path dir;
    private final GeneratedKeystores keystores;

    private GroupSigning(Path dir, GeneratedKeystores keystores) {
        this.dir = dir;
        this.keystores = keystores;
    }

    static GroupSigning generate(Path dir, int n) throws IOException {
        List<String> parties = new ArrayList<>(List.of(CLIENT));
        for (int r = 1; r <= n; r++) {
            parties.add(replica(r - 1));
        }
        return new GroupSigning(dir, GeneratedKeystores.generate(dir, parties));
    }

    /** Replica {@code r}'s (0-based) parameters: it verifies requests and signs answers with its own key. */
    String replicaParams(int r) throws IOException {
        return params(SigningPolicy.write(dir, keystores, replica(r), SigningPolicy.REQUEST_SIGNER));
    }

    /** The client's parameters: it signs with its key and checks answers against replica 0's certificate. */
    String clientParams() throws IOException {
        return params(SigningPolicy.write(dir, keystores, CLIENT, replica(0)));
    }

    private static String params(Path policy) {
        return param(BftwsKeys.SECURITY, SecurityMode.RAMPART) + param(BftwsKeys.SECURITY_POLICY, policy);
    }

    private static String replica(int r) {
        return "replica-" + (r + 1);
    }
}
