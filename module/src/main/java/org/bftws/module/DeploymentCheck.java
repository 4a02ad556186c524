package org.bftws.module;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.ListenerManager;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A replica whose service archive failed to deploy would run without that service: a faulty replica nobody
 * chose, counted against f. Axis2 deploys the services after the modules initialise, logs a failure and goes on
 * (its "faulty services"), so this check waits until Axis2 has started the configuration and then, if any
 * archive failed, stops the replica: its ordering and the Axis2 listeners, with an ERROR naming each archive
 * and the cause (and, for Axis2 1.7.9's bytecode reader, what to do).
 */
public final class DeploymentCheck {
    private static final Logger LOG = LogManager.getLogger(DeploymentCheck.class);
    /** How often the check looks whether Axis2 has finished deploying. */
    private static final long POLL_MILLIS = 50;
    /** Axis2 1.7.9's parameter-name reader on class files with invokedynamic constants. */
    static final String BYTECODE_READER_FAILURE = "unexpected bytes in file";
    public static final String BYTECODE_HINT = " (Axis2 1.7.9 reads a POJO service class's bytecode for its parameter names"
            + " and cannot read invokedynamic: compile the service class with javac -XDstringConcat=inline and keep"
            + " lambdas, method references and records out of it; other classes of"
            + " the archive may use them)";

    private DeploymentCheck() {
    }

    /** Starts the check for replica {@code id} on a daemon thread; it ends once Axis2 has started. */
    static void watch(ConfigurationContext cc, int id) {
        Thread t = new Thread(() -> await(cc, id), "bftws-deployment-check");
        t.setDaemon(true);
        t.start();
    }

    private static void await(ConfigurationContext cc, int id) {
        AxisConfiguration axis = cc.getAxisConfiguration();
        try {
            while (!axis.isStart()) {
                if (BftwsRuntime.replica(cc) == null) {
                    return; // shut down before Axis2 started: nothing to check, no thread left behind
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            return;
        }
        List<String> failures = failures(axis.getFaultyServices());
        if (failures.isEmpty()) {
            return;
        }
        for (String f : failures) {
            LOG.error("bftws replica {} stops: {}", id, f);
        }
        BftwsRuntime.stop(cc);
        ListenerManager listeners = cc.getListenerManager();
        if (listeners != null) {
            try {
                listeners.stop();
            } catch (AxisFault e) {
                LOG.warn("bftws replica {}: stopping the listeners: {}", id, e.getMessage());
            }
        }
    }

    /** One line per archive that failed: its file and the cause, without stack frames. */
    public static List<String> failures(Map<String, String> faulty) {
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(faulty).entrySet()) {
            String cause = cause(e.getValue());
            lines.add("service archive " + e.getKey() + " failed to deploy: " + cause
                    + (cause.contains(BYTECODE_READER_FAILURE) ? BYTECODE_HINT : ""));
        }
        return lines;
    }

    /** The exception lines of Axis2's "Error:" + stack trace text: the first one and each new "Caused by". */
    static String cause(String trace) {
        StringBuilder b = new StringBuilder();
        for (String line : trace.split("\\R")) {
            String t = line.trim();
            if (t.isEmpty() || t.equals("Error:") || t.startsWith("at ") || t.startsWith("...")) {
                continue;
            }
            if (b.length() > 0 && (!t.startsWith("Caused by:") || b.indexOf(message(t)) >= 0)) {
                continue; // stack frames, and causes that repeat what is said already
            }
            b.append(b.length() > 0 ? " / " : "").append(t);
        }
        return b.length() > 1000 ? b.substring(0, 1000) + "..." : b.toString();
    }

    /** The message of a {@code Caused by: CLASS: MESSAGE} line. */
    private static String message(String causedBy) {
        String rest = causedBy.substring("Caused by:".length()).trim();
        int colon = rest.indexOf(": ");
        return colon < 0 ? rest : rest.substring(colon + 2);
    }
}
