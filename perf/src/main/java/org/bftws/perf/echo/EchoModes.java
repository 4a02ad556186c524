package org.bftws.perf.echo;

import java.util.ArrayList;
import java.util.List;

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
        modes.add(new BftwsMode());
        modes.add(new PlainMode(true));
        modes.add(new WsRmMode(true));
        return modes;
    }

    /** The modes named (comma-separated), in the order of {@link #all()}; "all" or empty means all. */
    public static List<EchoMode> named(String names) {
        if (names == null || names.isBlank() || names.equals("all")) {
            return all();
        }
        List<String> wanted = List.of(names.split(","));
        List<EchoMode> modes = new ArrayList<>();
        for (EchoMode m : all()) {
            if (wanted.contains(m.name())) {
                modes.add(m);
            }
        }
        for (String w : wanted) {
            if (modes.stream().noneMatch(m -> m.name().equals(w))) {
                throw new IllegalArgumentException("unknown echo mode " + w + "; known: "
                        + all().stream().map(EchoMode::name).toList());
            }
        }
        return modes;
    }
}
