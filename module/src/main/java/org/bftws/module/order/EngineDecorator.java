package org.bftws.module.order;

import java.util.ServiceLoader;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Signer;
import org.bftws.core.engine.Engine;
import org.bftws.module.config.Ordering;

/**
 * An extension point around a replica's ordering engine: an implementation registered as a {@link ServiceLoader}
 * service ({@code META-INF/services/org.bftws.module.order.EngineDecorator}) on the replica's class path gets
 * the engine {@link EngineOptions} built and returns the one the Total Order Manager steps. {@code bftws.mar}
 * and the module register none, so a deployed replica steps its engine as built; the test-only artifact
 * {@code bftws-byzantine} registers one that turns a replica Byzantine for the fault campaign
 * (docs/faults.md). The engine's contract ({@link Engine}) is all a decorator sees: what a replica receives,
 * sends and executes, never the module's internals.
 */
public interface EngineDecorator {
    /** What a decorator may know of the replica it wraps: its group, its id and key, its engine's ordering. */
    record Context(GroupConfig group, int id, Signer signer, Ordering ordering) {}

    /** The engine to step instead of {@code engine}: {@code engine} itself to leave it alone. */
    Engine decorate(Engine engine, Context context);

    /** {@code engine} passed through every registered decorator, in the class path's order. */
    static Engine applyAll(Engine engine, Context context) {
        Engine e = engine;
        for (EngineDecorator d : ServiceLoader.load(EngineDecorator.class, EngineDecorator.class.getClassLoader())) {
            Engine decorated = d.decorate(e, context);
            if (decorated != e) {
                Logger log = LogManager.getLogger(EngineDecorator.class);
                log.warn("replica {}: engine decorated by {}: {}", context.id(), d.getClass().getName(),
                        decorated.describe());
            }
            e = decorated;
        }
        return e;
    }
}
