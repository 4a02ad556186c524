package org.bftws.client.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.bftws.client.group.GroupLauncher;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.keys.KeyFiles;
import org.bftws.module.config.BftwsKeys;

/**
 * The fault campaign's group: each replica on a host of its own (a network namespace with its own address,
 * scripts/faults), listed in a group file with one {@code ID PORT HOST} line per replica, ids 0..n-1 in order.
 * The first two columns are scripts/start-group's format, so scripts/group-status reads the same directory.
 */
public record Testbed(List<String> hosts, List<Integer> ports) {
    public Testbed {
        hosts = List.copyOf(hosts);
        ports = List.copyOf(ports);
        if (hosts.size() != ports.size() || hosts.isEmpty()) {
            throw new IllegalArgumentException("one host and one port per replica");
        }
    }

    /** Reads {@code ID PORT HOST} lines (ids 0..n-1 in order; blank lines and # comments skipped). */
    public static Testbed read(Path file) throws IOException {
        List<String> hosts = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            if (f.length != 3 || Integer.parseInt(f[0]) != hosts.size()) {
                throw new IllegalArgumentException(file + ": expected 'ID PORT HOST' with id " + hosts.size()
                        + ", got '" + t + "'");
            }
            ports.add(Integer.parseInt(f[1]));
            hosts.add(f[2]);
        }
        return new Testbed(hosts, ports);
    }

    public int size() {
        return hosts.size();
    }

    /** {@code http://HOST:PORT/axis2/services/NAME} of replica {@code id}. */
    public String serviceUrl(int id, String service) {
        return "http://" + hosts.get(id) + ":" + ports.get(id) + "/axis2/services/" + service;
    }

    /**
     * The bftws.* parameters every member and client shares: as the demo group's, with these hosts and the f of
     * their number (conf/axis2-replica.xml's f = 1 would refuse a group of 7).
     */
    public String groupParameters(Path keys) {
        StringBuilder replicas = new StringBuilder();
        for (int r = 0; r < size(); r++) {
            replicas.append(r).append('=').append(serviceUrl(r, "Echo")).append(' ');
        }
        return GroupLauncher.param(BftwsKeys.REPLICATED, true)
                + GroupLauncher.param(BftwsKeys.GROUP_ENDPOINT.name(), GroupLauncher.GROUP_ENDPOINT)
                + GroupLauncher.param(BftwsKeys.REPLICAS.name(), replicas.toString().trim())
                + GroupLauncher.param(BftwsKeys.PUBLIC_KEYS, keys.resolve(KeyFiles.GROUP_FILE))
                + GroupLauncher.param(GroupConfig.F, GroupLauncher.faults(size()));
    }
}
