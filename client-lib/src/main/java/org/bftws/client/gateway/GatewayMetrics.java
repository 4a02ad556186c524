package org.bftws.client.gateway;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

import org.bftws.module.metrics.Histogram;
import org.bftws.module.metrics.PrometheusText;

/**
 * The gateway's {@code GET /metrics} in Prometheus's text format: calls per service and outcome, the latency of
 * the calls answered with a voted reply, and the sequence pool. Keyed by the services the gateway was started
 * with and a fixed set of outcomes only, so callers cannot grow it.
 */
public final class GatewayMetrics {
    static final String PATH = "/metrics";
    static final String CONTENT_TYPE = PrometheusText.CONTENT_TYPE;

    /** How a call ended. */
    public enum Outcome {
        /** The voted reply was returned. */
        OK,
        /** A SOAP fault: the group's refusal, or no f+1 matching replies in time. */
        FAULT,
        /** Refused: no sequence free in time. */
        BUSY,
        /** The caller's request was no SOAP request the gateway takes. */
        BAD_REQUEST;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Map<String, Map<Outcome, LongAdder>> calls = new TreeMap<>();
    private final Map<String, Histogram> latency = new TreeMap<>();
    private final SequencePool pool;

    GatewayMetrics(Set<String> services, SequencePool pool) {
        this.pool = pool;
        for (String s : services) {
            Map<Outcome, LongAdder> byOutcome = new LinkedHashMap<>();
            for (Outcome o : Outcome.values()) {
                byOutcome.put(o, new LongAdder());
            }
            calls.put(s, byOutcome);
            latency.put(s, new Histogram());
        }
    }

    void outcome(String service, Outcome outcome, long startNanos) {
        calls.get(service).get(outcome).increment();
        if (outcome == Outcome.OK) {
            latency.get(service).observeNanos(System.nanoTime() - startNanos);
        }
    }

    /** Calls of {@code service} that ended with {@code outcome}. */
    public long calls(String service, Outcome outcome) {
        return calls.get(service).get(outcome).sum();
    }

    String text() {
        PrometheusText t = new PrometheusText(Map.of());
        t.family("bftws_gateway_calls_total", "Calls through the gateway by service and outcome (ok, fault, busy,"
                + " bad_request).", "counter");
        calls.forEach((service, byOutcome) -> byOutcome.forEach((o, n) -> {
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("service", service);
            labels.put("outcome", o.label());
            t.sample("bftws_gateway_calls_total", labels, n.sum());
        }));
        t.histograms("bftws_gateway_call_duration_seconds", "Time from a caller's request to its voted reply.",
                "service", latency);
        t.gauge("bftws_gateway_sequences", "The pool's bound: calls with the group at once.", pool.capacity());
        t.gauge("bftws_gateway_sequences_open", "Sequences open with the group, idle or in use.", pool.open());
        t.gauge("bftws_gateway_sequences_in_use", "Sequences in use by a call now.", pool.inUse());
        return t.toString();
    }
}
