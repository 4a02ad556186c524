package org.bftws.module;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** Lines a remote party can trigger, through a real Log4j logger, on a clock the test moves. */
public class RateLimitedLogTest {
    private static final long INTERVAL_MS = 1_000;
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private Logger logger;
    private AbstractAppender appender;
    private RateLimitedLog log;

    @Before
    public void capture() {
        logger = (Logger) LogManager.getLogger(RateLimitedLogTest.class.getName() + ".captured");
        appender = new AbstractAppender("captured", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(event.getMessage().getFormattedMessage());
            }
        };
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.INFO);
        log = new RateLimitedLog(logger, INTERVAL_MS, nanos::get);
    }

    @After
    public void release() {
        logger.removeAppender(appender);
        appender.stop();
    }

    @Test
    public void aFloodOfOneCauseIsOneLinePerIntervalWithItsCount() {
        for (int i = 1; i <= 1000; i++) {
            log.warn("oversized body", "refused body {}", i);
        }
        assertEquals(List.of("refused body 1"), lines);
        nanos.addAndGet(INTERVAL_MS * 1_000_000L);
        assertTrue(log.warn("oversized body", "refused body {}", 1001));
        assertEquals("refused body 1001 (and 999 more of this cause left out)", lines.get(1));
        assertFalse(log.warn("oversized body", "refused body {}", 1002));
        assertEquals(2, lines.size());
    }

    @Test
    public void eachCauseHasItsOwnInterval() {
        log.warn("a", "first a");
        log.info("b", "first b");
        log.warn("a", "second a");
        assertEquals(List.of("first a", "first b"), lines);
    }

    @Test
    public void causesBeyondTheBoundShareOneWindow() {
        for (int i = 0; i < RateLimitedLog.MAX_CAUSES + 100; i++) {
            log.warn("cause " + i, "line {}", i);
        }
        assertEquals(RateLimitedLog.MAX_CAUSES + 1, lines.size());
    }
}
