package org.bftws.perf.echo;

import java.nio.file.Path;

/** A mode the issue asks for that cannot run yet: its rows say so, with the reason, instead of a number. */
final class UnavailableMode implements EchoMode {
    private final String name;
    private final String description;
    private final String reason;

    UnavailableMode(String name, String description, String reason) {
        this.name = name;
        this.description = description;
        this.reason = reason;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String unavailableReason() {
        return reason;
    }

    @Override
    public Deployment start(EchoSetup setup, Path work) {
        throw new UnsupportedOperationException(name + " is not available: " + reason);
    }
}
