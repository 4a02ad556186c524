package org.bftws.module.metrics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bftws.core.message.Signed;
import org.bftws.core.engine.Event;
import org.junit.Test;

/** The text exposition format as written, histograms' buckets, and what the ordering counters count. */
public class PrometheusTextTest {
    @Test
    public void familiesHaveHelpTypeAndLabelledEscapedSamples() {
        Map<String, String> constant = new LinkedHashMap<>();
        constant.put("group", "http://g/\"x\"\\y");
        constant.put("replica", "2");
        String text = new PrometheusText(constant)
                .counter("a_total", "A counter.", 3)
                .gauge("b", "A gauge.", 0.25)
                .labelled("c_total", "By kind.", "counter", "kind", Map.of("bad\nline", 7L))
                .toString();
        String labels = "group=\"http://g/\\\"x\\\"\\\\y\",replica=\"2\"";
        assertEquals("# HELP a_total A counter.\n# TYPE a_total counter\na_total{" + labels + "} 3\n"
                + "# HELP b A gauge.\n# TYPE b gauge\nb{" + labels + "} 0.25\n"
                + "# HELP c_total By kind.\n# TYPE c_total counter\nc_total{" + labels + ",kind=\"bad\\nline\"} 7\n",
                text);
    }

    @Test
    public void aHistogramsBucketsAreCumulativeAndEndInItsCount() {
        Histogram h = new Histogram();
        h.observeNanos(100_000); // 0.1 ms: first bucket
        h.observeNanos(1_000_000); // exactly 1 ms: the 0.001 bucket (le is inclusive)
        h.observeNanos(3_000_000_000L); // 3 s: the 5 s bucket
        h.observeNanos(60_000_000_000L); // above every bound
        String text = new PrometheusText(Map.of()).histograms("d_seconds", "D.", "phase", Map.of("x", h)).toString();
        assertTrue(text, text.contains("d_seconds_bucket{phase=\"x\",le=\"0.0005\"} 1\n"));
        assertTrue(text, text.contains("d_seconds_bucket{phase=\"x\",le=\"0.001\"} 2\n"));
        assertTrue(text, text.contains("d_seconds_bucket{phase=\"x\",le=\"2.5\"} 2\n"));
        assertTrue(text, text.contains("d_seconds_bucket{phase=\"x\",le=\"5\"} 3\n"));
        assertTrue(text, text.contains("d_seconds_bucket{phase=\"x\",le=\"10\"} 3\n"));
        assertTrue(text, text.contains("d_seconds_bucket{phase=\"x\",le=\"+Inf\"} 4\n"));
        assertTrue(text, text.contains("d_seconds_count{phase=\"x\"} 4\n"));
        assertTrue(text, text.contains("d_seconds_sum{phase=\"x\"} 63.0011\n"));
        assertEquals(1, text.lines().filter(l -> l.startsWith("# TYPE d_seconds histogram")).count());
    }

    @Test
    public void orderingMetricsCountCommittedRequestsAndTimeAgreementPerSequence() {
        OrderingMetrics m = new OrderingMetrics();
        List<Signed> two = List.of(signed(), signed());
        m.onEvent(new Event.PrePrepared(0, 1, new byte[32]), 1_000_000);
        m.onEvent(new Event.Committed(0, 1, new byte[32], two), 4_000_000);
        m.onEvent(new Event.Committed(0, 2, new byte[32], two), 9_000_000); // no pre-prepare seen: not timed
        m.onEvent(new Event.ViewChangeStarted(1), 0);
        m.onEvent(new Event.ViewEntered(1), 0);
        m.executed(2, 500_000);
        assertEquals(4, m.requestsOrdered());
        assertEquals(2, m.batchesCommitted());
        assertEquals(2, m.lastCommitted());
        assertEquals(1, m.viewChanges());
        assertEquals(1, m.viewsEntered());
        assertEquals(2, m.requestsExecuted());
        assertEquals(1, m.batchesExecuted());
        Histogram.Snapshot agreement = m.phases().get("agreement").snapshot();
        assertEquals(1, agreement.count());
        assertEquals(0.003, agreement.sumSeconds(), 1e-12);
    }

    @Test
    public void prePreparesNeverCommittedAreForgottenBeyondTheBound() {
        OrderingMetrics m = new OrderingMetrics();
        for (long seq = 1; seq <= OrderingMetrics.MAX_TRACKED + 10; seq++) {
            m.onEvent(new Event.PrePrepared(0, seq, new byte[32]), seq);
        }
        m.onEvent(new Event.Committed(0, 1, new byte[32], List.of()), 100); // seq 1 was forgotten
        m.onEvent(new Event.Committed(0, OrderingMetrics.MAX_TRACKED + 10, new byte[32], List.of()), 100_000);
        assertEquals(1, m.phases().get("agreement").snapshot().count());
    }

    private static Signed signed() {
        return Signed.sign(org.bftws.core.message.Kind.REQUEST, 4, new byte[0], d -> new byte[64]);
    }
}
