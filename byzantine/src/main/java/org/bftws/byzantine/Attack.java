package org.bftws.byzantine;

import java.util.Arrays;
import java.util.function.Function;

/** The Byzantine behaviours by the name {@code scripts/faults --byzantine} and {@code -Dbftws.byzantine} take. */
enum Attack {
    EQUIVOCATE(Equivocate::new),
    SLOW_PRIMARY(SlowPrimary::new),
    WRONG_REPLY(WrongReply::new),
    FORGE(Forge::new),
    REPLAY(Replay::new),
    FLOOD(Flood::new),
    SELECTIVE(Selective::new),
    CONFLICT(Conflict::new);

    private final Function<Node, Behaviour> make;

    Attack(Function<Node, Behaviour> make) {
        this.make = make;
    }

    /** Whether the behaviour attacks PBFT's primary, which the asynchronous engine does not have. */
    boolean needsPrimary() {
        return this == EQUIVOCATE || this == SLOW_PRIMARY;
    }

    /** Whether the behaviour attacks the asynchronous engine's broadcasts and coins, which PBFT does not run. */
    boolean needsAsynchronous() {
        return this == CONFLICT;
    }

    Behaviour behaviour(Node node) {
        return make.apply(node);
    }

    String label() {
        return name().toLowerCase().replace('_', '-');
    }

    static Attack parse(String s) {
        for (Attack k : values()) {
            if (k.label().equals(s.trim())) {
                return k;
            }
        }
        throw new IllegalArgumentException("bftws.byzantine: unknown behaviour '" + s + "', expected one of "
                + Arrays.stream(values()).map(Attack::label).toList());
    }
}
