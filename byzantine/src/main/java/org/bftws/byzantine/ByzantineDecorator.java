package org.bftws.byzantine;

import org.bftws.core.engine.Engine;
import org.bftws.module.config.Ordering;
import org.bftws.module.order.EngineDecorator;

/**
 * Makes a replica Byzantine when its JVM is started with {@code -Dbftws.byzantine=KIND} ({@link Attack}: equivocate,
 * slow-primary (PBFT's primary or the hybrid engine's leader), wrong-reply, forge, replay, flood, selective,
 * conflict) and this artifact on its class path; without the property the replica is left correct. A system
 * property, not an {@code axis2.xml} parameter: only this test-only artifact reads it, and {@code bftws.mar} never
 * contains it (docs/faults.md).
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
        boolean async = context.ordering() == Ordering.ASYNC;
        if (async && k.needsLeader() || context.ordering() != Ordering.PBFT && k.needsPbft()) {
            throw new IllegalArgumentException(PROPERTY + "=" + k.label() + " acts as PBFT's primary; the"
                    + (async ? " asynchronous engine (bftws.ordering=async) has none" : " hybrid engine"
                    + " (bftws.ordering=hybrid) sends no pre-prepares"));
        }
        if (!async && k.needsAsynchronous()) {
            throw new IllegalArgumentException(PROPERTY + "=" + k.label() + " attacks the asynchronous engine's"
                    + " broadcasts and coins: it needs bftws.ordering=async");
        }
        return new ByzantineEngine(engine, k, k.behaviour(new Node(engine, context)));
    }
}
