package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.junit.Test;

public class LoopbackPortsTest {

    @Test
    public void portsAreDistinctAcrossCallsBindableAndBelowTheEphemeralRange() throws IOException {
        int low = ephemeralLow();
        Set<Integer> seen = new HashSet<>();
        for (int call = 0; call < 20; call++) {
            for (int port : GroupLauncher.freePorts(5)) {
                assertTrue("port " + port + " handed out twice", seen.add(port));
                assertTrue("port " + port + " inside the ephemeral range from " + low, port < low);
                try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    assertEquals(port, s.getLocalPort());
                }
            }
        }
        assertEquals(100, seen.size());
    }

    /** An outgoing connection's local port comes from the ephemeral range, so it never takes a chosen port. */
    @Test
    public void anOutgoingConnectionsLocalPortIsNeverAChosenOne() throws IOException {
        int[] chosen = GroupLauncher.freePorts(4);
        Set<Integer> chosenSet = new HashSet<>();
        for (int p : chosen) {
            chosenSet.add(p);
        }
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 50; i++) {
                try (java.net.Socket c = new java.net.Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                        java.net.Socket accepted = server.accept()) {
                    assertTrue(!chosenSet.contains(c.getLocalPort()));
                }
            }
        }
    }

    private static int ephemeralLow() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        if (!Files.isReadable(range)) {
            return 32768;
        }
        try (java.io.BufferedReader r = Files.newBufferedReader(range)) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        }
    }
}
