package org.bftws.perf;

import static org.junit.Assert.assertEquals;

import java.util.List;

import org.bftws.perf.echo.EchoPayload;
import org.junit.Test;

public class StatsTest {
    @Test
    public void nearestRankPercentilesAndMean() {
        long[] nanos = new long[100];
        for (int i = 0; i < 100; i++) {
            nanos[i] = (100 - i) * 1_000_000L; // 100 ms .. 1 ms, unsorted
        }
        Stats.Latency l = Stats.latency(nanos, 100);
        assertEquals(100, l.count());
        assertEquals(50.5, l.meanMs(), 1e-9);
        assertEquals(50.0, l.p50Ms(), 1e-9);
        assertEquals(99.0, l.p99Ms(), 1e-9);
        assertEquals(0, Stats.latency(nanos, 0).count());
    }

    @Test
    public void medianOfOddAndEvenCounts() {
        assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)), 0);
        assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 2.0, 3.0)), 0);
        assertEquals(Double.NaN, Stats.median(List.of()), 0);
    }

    @Test
    public void payloadSpecs() {
        assertEquals("100el", EchoPayload.parse("100").label());
        assertEquals(100, EchoPayload.parse("100").elements());
        assertEquals("1KB", EchoPayload.parse("1KB").label());
        assertEquals(1, EchoPayload.parse("1kb").elements());
        int bytes = EchoPayload.parse("1KB").requestBytes();
        assertEquals("the 1 KB request is about 1 KB", 1024, bytes, 64);
    }
}
