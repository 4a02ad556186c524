package org.bftws.perf.echo;

import java.util.ArrayList;
import java.util.List;

import org.bftws.module.config.Ordering;

/**
 * Every mode of the echo experiment, in the order they appear in tables and plots. Adding a mode (e.g.
 * configurations II and III, or signing once Rampart is wired) is one class implementing {@link EchoMode}
 * and one line here.
 */
public final class EchoModes {
    private EchoModes() {
    }

    public static List<EchoMode> all() {
        List<EchoMode> modes = new ArrayList<>();
        modes.add(new PlainMode());
        modes.add(new WsRmMode());
        modes.add(new BftwsMode(4));
        modes.add(new PlainMode(true));
        modes.add(new WsRmMode(true));
        return modes;
    }

    /**
     * Experiment 5 (scale): WS-RM and BFT-WS with n = 4, 7, 10 replicas (f = 1, 2, 3), WS-RM measured in the
     * same run as the baseline every ratio divides by.
     */
    public static List<EchoMode> scale() {
        return List.of(new WsRmMode(), new BftwsMode(4), new BftwsMode(7), new BftwsMode(10));
    }

    /** Every mode either experiment knows, each name once. */
    private static List<EchoMode> known() {
        List<EchoMode> modes = new ArrayList<>(all());
        modes.add(new BftwsMode(4, true)); // named only: --modes bftws-signed
        modes.add(BftwsMode.readOnly()); // named only: --modes bftws-ro
        modes.add(BftwsMode.configurationTwo()); // named only: --modes bftws-c2
        modes.add(BftwsMode.configurationThree()); // named only: --modes bftws-c3
        modes.add(BftwsMode.ordered(Ordering.ASYNC)); // named only: --modes bftws-async
        modes.add(BftwsMode.ordered(Ordering.HYBRID)); // named only: --modes bftws-hybrid
        modes.add(BftwsMode.confidential()); // named only: --modes bftws-confidential
        modes.add(BftwsMode.slowReplicaZero(Ordering.PBFT)); // named only: --modes bftws-slow
        modes.add(BftwsMode.slowReplicaZero(Ordering.ASYNC)); // named only: --modes bftws-async-slow
        modes.add(BftwsMode.slowReplicaZero(Ordering.HYBRID)); // named only: --modes bftws-hybrid-slow
        modes.add(BftwsMode.journaled("os")); // named only: --modes bftws-journal
        modes.add(BftwsMode.journaled("fsync")); // named only: --modes bftws-journal-fsync
        modes.add(new GatewayMode()); // named only: --modes bftws-gateway
        modes.add(BftwsMode.axis2Control()); // named only: --modes bftws-axis2control
        for (EchoMode m : scale()) {
            if (modes.stream().noneMatch(k -> k.name().equals(m.name()))) {
                modes.add(m);
            }
        }
        return modes;
    }

    /**
     * The modes named (comma-separated, any of {@link #all()} and {@link #scale()}), in that order; "all" or
     * empty means {@link #all()}.
     */
    public static List<EchoMode> named(String names) {
        if (names == null || names.isBlank() || names.equals("all")) {
            return all();
        }
        List<String> wanted = List.of(names.split(","));
        List<EchoMode> modes = new ArrayList<>();
        for (EchoMode m : known()) {
            if (wanted.contains(m.name())) {
                modes.add(m);
            }
        }
        for (String w : wanted) {
            if (modes.stream().noneMatch(m -> m.name().equals(w))) {
                throw new IllegalArgumentException("unknown echo mode " + w + "; known: "
                        + known().stream().map(EchoMode::name).toList());
            }
        }
        return modes;
    }
}
