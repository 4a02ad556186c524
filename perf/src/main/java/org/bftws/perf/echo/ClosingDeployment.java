package org.bftws.perf.echo;

/**
 * A running mode built in one step: {@link #start} hands a {@link Closer} to the mode's set-up, closes it if
 * the set-up fails half-way, and otherwise returns a deployment whose callers come from what the set-up
 * returned and whose {@code close} closes everything the set-up registered.
 */
final class ClosingDeployment implements EchoMode.Deployment {
    /** Makes one caller of a started mode. */
    interface Callers {
        EchoMode.Caller newCaller() throws Exception;
    }

    /** Starts a mode's servers, registering each with the closer; returns how to make callers. */
    interface SetUp {
        Callers start(Closer closer) throws Exception;
    }

    private final Closer closer;
    private final Callers callers;

    private ClosingDeployment(Closer closer, Callers callers) {
        this.closer = closer;
        this.callers = callers;
    }

    static EchoMode.Deployment start(SetUp setUp) throws Exception {
        Closer closer = new Closer();
        try {
            return new ClosingDeployment(closer, setUp.start(closer));
        } catch (Exception | Error e) {
            closer.close();
            throw e;
        }
    }

    @Override
    public EchoMode.Caller newCaller() throws Exception {
        return callers.newCaller();
    }

    @Override
    public void close() throws Exception {
        closer.close();
    }
}
