package org.bftws.client.group;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers that a launcher starts on the loopback interface some time after choosing them.
 *
 * <p>A port the kernel handed out as ephemeral ({@code new ServerSocket(0)}) and closed goes back to the pool
 * that every outgoing connection draws its local port from: a replica connecting to a peer between the
 * choice and the bind can take it, and the bind then fails with "address already in use". So the ports come
 * from below the kernel's ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}), which outgoing
 * connections never use, drawn at random (so two launchers on one machine rarely try the same one), each
 * checked free by a bind, and never handed out twice by this JVM.
 */
final class LoopbackPorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Linux's default lower end of the ephemeral range, where the file cannot be read. */
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    /** The lowest port drawn: above the well-known and most registered services' ports. */
    private static final int LOWEST = 10000;
    private static final int ATTEMPTS_PER_PORT = 200;

    private static final Set<Integer> handedOut = new HashSet<>();

    private LoopbackPorts() {
    }

    /** {@code count} distinct ports free on the loopback interface now, none handed out before by this JVM. */
    static synchronized int[] take(int count) throws IOException {
        int high = ephemeralLow();
        if (high - LOWEST < 4 * count) {
            return ephemeral(count);
        }
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            ports[i] = takeOne(high);
        }
        return ports;
    }

    private static int takeOne(int high) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS_PER_PORT; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, high);
            if (!handedOut.contains(port) && bindable(port)) {
                handedOut.add(port);
                return port;
            }
        }
        throw new IOException("no free loopback port found below " + high + " in " + ATTEMPTS_PER_PORT + " attempts");
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int ephemeralLow() {
        // Read by lines: on some kernels a /proc file read whole by its reported size comes back cut short.
        try (BufferedReader r = Files.newBufferedReader(EPHEMERAL_RANGE)) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_LOW;
        }
    }

    /** Where the ephemeral range leaves no room below it: the kernel's choice, distinct within the call. */
    private static int[] ephemeral(int count) throws IOException {
        ServerSocket[] sockets = new ServerSocket[count];
        int[] ports = new int[count];
        try {
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = sockets[i].getLocalPort();
            }
        } finally {
            for (ServerSocket s : sockets) {
                if (s != null) {
                    s.close();
                }
            }
        }
        return ports;
    }
}
