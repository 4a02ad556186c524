package org.bftws.byzantine;

import org.bftws.core.engine.Engine;
import org.bftws.module.order.EngineDecorator;

/**
 * Makes a replica Byzantine when its JVM is started with {@code -Dbftws.byzantine=KIND} ({@link Attack}: equivocate,
 * slow-primary, wrong-reply, forge, replay, flood, selective) and this artifact on its class path; without the
 * property the replica is left correct. A system property, not an {@code axis2.xml} parameter: only this
 * test-only artifact reads it, and {@code bftws.mar} never contains it (docs/faults.md).
 */
public final class ByzantineDecorator implements EngineDecorator {
    /** The JVM's system property naming the behaviour. */
    public static final String PROPERTY = "bftws.byzantine";

    @Override
    public Engine decorate(Engine engine, Context context) {
        String kind = System.getProperty(PROPERTY);
        if (kind == null || kind.isBlank()) {
            return engine;
        }
        Attack k = Attack.parse(kind);
        if (context.asynchronous() && k.needsPrimary()) {
            throw new IllegalArgumentException(PROPERTY + "=" + k.label() + " acts as PBFT's primary; the"
                    + " asynchronous engine (bftws.ordering=async) has none");
        }
        if (!context.asynchronous() && k.needsAsynchronous()) {
            throw new IllegalArgumentException(PROPERTY + "=" + k.label() + " attacks the asynchronous engine's"
                    + " broadcasts and coins: it needs bftws.ordering=async");
        }
        return new ByzantineEngine(engine, k, k.behaviour(new Node(engine, context)));
    }
}
