package org.bftws.core.testkit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.Test;

public class SchedulerTest {
  private static List<Integer> drain(Scheduler<Integer> s) {
    List<Integer> out = new ArrayList<>();
    for (Integer m = s.next(); m != null; m = s.next()) {
      out.add(m);
    }
    return out;
  }

  private static Scheduler<Integer> posted(Scheduler<Integer> s, int count) {
    for (int i = 0; i < count; i++) {
      s.post(i);
    }
    return s;
  }

  @Test
  public void fifoDeliversInTheOrderSent() {
    Scheduler<Integer> s = posted(Scheduler.fifo(), 5);
    assertEquals(5, s.size());
    assertEquals(List.of(0, 1, 2, 3, 4), drain(s));
    assertEquals(0, s.size());
    assertNull(s.next());
  }

  @Test
  public void seededDeliversEachMessageOnceInAnOrderTheSeedFixes() {
    List<Integer> first = drain(posted(Scheduler.seeded(new Random(7)), 50));
    List<Integer> again = drain(posted(Scheduler.seeded(new Random(7)), 50));
    List<Integer> sorted = new ArrayList<>(first);
    sorted.sort(null);
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      all.add(i);
    }
    assertEquals(all, sorted);
    assertEquals(first, again);
    assertNotEquals(all, first);
  }
}
