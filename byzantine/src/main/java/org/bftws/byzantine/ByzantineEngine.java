package org.bftws.byzantine;

import java.util.List;

import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.KeySet;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Request;

/**
 * A correct engine whose output a {@link Behaviour} rewrites: everything it receives and executes goes to the
 * engine unchanged, everything it sends passes through the behaviour, and each tick adds the behaviour's own.
 */
final class ByzantineEngine implements Engine {
    private final Engine engine;
    private final Behaviour behaviour;
    private final Attack kind;

    ByzantineEngine(Engine engine, Attack kind, Behaviour behaviour) {
        this.engine = engine;
        this.kind = kind;
        this.behaviour = behaviour;
    }

    @Override
    public Ready receive(byte[] bytes) {
        behaviour.received(bytes);
        return out(engine.receive(bytes), List.of());
    }

    @Override
    public Ready tick() {
        Ready r = engine.tick();
        return out(r, behaviour.onTick());
    }

    @Override
    public Ready executed(long seq, List<byte[]> results) {
        return out(engine.executed(seq, results), List.of());
    }

    @Override
    public Ready executedReadOnly(Request request, byte[] result) {
        return out(engine.executedReadOnly(request, result), List.of());
    }

    @Override
    public Ready stateCaptured(long seq, byte[] appState) {
        return out(engine.stateCaptured(seq, appState), List.of());
    }

    @Override
    public Ready recover(List<Journal.Record> records) {
        return out(engine.recover(records), List.of());
    }

    @Override
    public Ready installKeys(long orderedAt, KeySet keys) {
        return out(engine.installKeys(orderedAt, keys), List.of());
    }

    @Override
    public Ready stateInstalled(long seq) {
        return out(engine.stateInstalled(seq), List.of());
    }

    private Ready out(Ready r, List<Ready.Outbound> extra) {
        List<Ready.Outbound> sent = behaviour.outgoing(r.messages);
        if (sent == r.messages && extra.isEmpty()) {
            return r;
        }
        Ready o = new Ready();
        o.messages.addAll(sent);
        o.messages.addAll(extra);
        o.effects.addAll(r.effects);
        o.events.addAll(r.events);
        o.persist.addAll(r.persist);
        return o;
    }

    @Override
    public int id() {
        return engine.id();
    }

    @Override
    public long lastExecuted() {
        return engine.lastExecuted();
    }

    @Override
    public long stableCheckpoint() {
        return engine.stableCheckpoint();
    }

    @Override
    public int pendingRequests() {
        return engine.pendingRequests();
    }

    @Override
    public int clientTableEntries() {
        return engine.clientTableEntries();
    }

    @Override
    public long view() {
        return engine.view();
    }

    @Override
    public boolean hasPrimary() {
        return engine.hasPrimary();
    }

    @Override
    public boolean isActive() {
        return engine.isActive();
    }

    @Override
    public int logSize() {
        return engine.logSize();
    }

    @Override
    public String describe() {
        return "Byzantine (" + kind.label() + ") " + engine.describe();
    }
}
