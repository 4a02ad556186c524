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

    /** Whether the behaviour needs PBFT's pre-prepares, which neither the asynchronous nor the hybrid engine sends. */
    boolean needsPbft() {
        return this == EQUIVOCATE;
    }

    /** Whether the behaviour acts as a leader: PBFT's primary or the hybrid engine's leader of an epoch. */
    boolean needsLeader() {
        return this == SLOW_PRIMARY;
    }

    /**
     * Whether the behaviour attacks the asynchronous engine's broadcasts and coins, which PBFT and the hybrid
     * engine's fallback do not run as it expects.
     */
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
