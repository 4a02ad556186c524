package org.bftws.module.config;

import java.net.URI;
import java.util.Objects;

/** One member of the replica group: its id (0..n-1, the PBFT replica index) and its own endpoint. */
public record ReplicaEndpoint(int id, URI endpoint) {
    public ReplicaEndpoint {
        Objects.requireNonNull(endpoint, "endpoint");
    }
}
