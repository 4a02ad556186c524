package org.bftws.core.testkit;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Engine;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Request;

/**
 * The engine-level harnesses' one way to perform an engine's effects (docs/design/testing.md, "Engine-level
 * harnesses"): in the order the engine emitted them, each against the node's {@link Service}, and what the
 * engine answers (a {@link Ready} for the results, the captured state or the read-only result) goes to {@code
 * then}, which routes its messages and performs its effects in turn, after the effects emitted before them
 * (one engine instance per node while its effects are performed: a restart builds a new one afterwards). What a harness records or falsifies
 * (executions, lying nodes) lives in its {@link Service}; how it measures its calls into the engine (the
 * benches' CPU clock) in its {@link Calls}.
 */
public final class EffectPerformer {
  private EffectPerformer() {
  }

  /** A node's service as the harness runs it. */
  public interface Service {
    /** The results of an ordered batch, in request order. */
    List<byte[]> execute(Effect.Execute ex);

    /** The result of a request executed without ordering (Castro-Liskov §5.1.3). */
    default byte[] executeReadOnly(Request request) {
      throw new IllegalStateException("this node's service executes nothing read-only");
    }

    /** The state for a checkpoint ({@code get_state}). */
    byte[] state();

    /** Replaces the state by one a state transfer installs ({@code set_state}). */
    void install(byte[] state);
  }

  /** How a harness makes each call into the engine that answers an effect ({@code executed}, ...). */
  @FunctionalInterface
  public interface Calls {
    /** Calls straight through. */
    Calls DIRECT = Supplier::get;

    /** Makes {@code call} (e.g. timed on the thread's CPU clock) and returns its answer. */
    Ready call(Supplier<Ready> call);
  }

  /** The harness's service is a {@link HashChainApp}, as it runs it. */
  public static Service of(HashChainApp app) {
    return of(app, ex -> { });
  }

  /** The same, telling {@code executing} of each batch before it runs (what a harness records). */
  public static Service of(HashChainApp app, Consumer<Effect.Execute> executing) {
    return new Service() {
      @Override
      public List<byte[]> execute(Effect.Execute ex) {
        executing.accept(ex);
        return app.execute(ex);
      }

      @Override
      public byte[] state() {
        return app.getState();
      }

      @Override
      public void install(byte[] state) {
        app.setState(state);
      }
    };
  }

  /**
   * Per thread (the simulator runs seeds on several), the engines whose effects are being performed, with the
   * effects their answers emitted meanwhile: those wait for the earlier ones, as the module's one execution
   * thread takes effects in the order the engine emitted them across steps. Performed at once instead, the
   * batch that {@code executed(s)} releases would run before s+1, emitted earlier in the same list.
   */
  private static final ThreadLocal<Map<Engine, ArrayDeque<Runnable>>> PERFORMING =
      ThreadLocal.withInitial(IdentityHashMap::new);

  /** Performs {@code effects} of {@code engine} against {@code service}; each answer goes to {@code then}. */
  public static void perform(Engine engine, List<Effect> effects, Service service, Consumer<Ready> then) {
    perform(engine, effects, service, Calls.DIRECT, then);
  }

  /**
   * The same, each call into {@code engine} made through {@code calls}; the service runs outside them (the
   * application's work is not the engine's).
   */
  public static void perform(Engine engine, List<Effect> effects, Service service, Calls calls,
      Consumer<Ready> then) {
    Map<Engine, ArrayDeque<Runnable>> active = PERFORMING.get();
    ArrayDeque<Runnable> queue = active.get(engine);
    Runnable job = () -> performInOrder(engine, effects, service, calls, then);
    if (queue != null) {
      queue.add(job); // an answer's effects, while the engine's earlier ones are still being performed
      return;
    }
    queue = new ArrayDeque<>();
    queue.add(job);
    active.put(engine, queue);
    try {
      for (Runnable next = queue.poll(); next != null; next = queue.poll()) {
        next.run();
      }
    } finally {
      active.remove(engine);
    }
  }

  private static void performInOrder(Engine engine, List<Effect> effects, Service service, Calls calls,
      Consumer<Ready> then) {
    for (Effect e : effects) {
      if (e instanceof Effect.Execute ex) {
        List<byte[]> results = service.execute(ex);
        then.accept(calls.call(() -> engine.executed(ex.seq(), results)));
      } else if (e instanceof Effect.ExecuteReadOnly ro) {
        byte[] result = service.executeReadOnly(ro.request());
        then.accept(calls.call(() -> engine.executedReadOnly(ro.request(), result)));
      } else if (e instanceof Effect.CaptureState cs) {
        byte[] state = service.state();
        then.accept(calls.call(() -> engine.stateCaptured(cs.seq(), state)));
      } else if (e instanceof Effect.InstallState is) {
        service.install(is.appState()); // with any keys the state delivered (Engine#installKeys)
        then.accept(calls.call(() -> engine.stateInstalled(is.seq())));
      }
    }
  }
}
