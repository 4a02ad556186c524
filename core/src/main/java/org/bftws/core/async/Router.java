package org.bftws.core.async;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bftws.core.codec.DecodeException;

/**
 * One replica's instances by protocol id (SINTRA §3: protocols are identified by their {@code pid}).
 * Parents create children with {@link #register}; the router hands each authenticated message to the
 * instance of its id.
 *
 * <p>A message can arrive before its instance exists (a peer started the round first): it is buffered
 * until {@link #register}, then handed over through the context's local queue. The buffer is bounded per
 * sender, so a Byzantine peer inventing ids can fill only its own share: at most {@link
 * #MAX_BUFFERED_PER_SENDER} messages and {@link #MAX_BUFFERED_BYTES_PER_SENDER} payload bytes per sender,
 * hence at most n times that in all. Beyond it, messages are dropped (a correct peer's message may be among
 * them; its sender resends it on a stalled tick, {@link Context#retransmit}). Messages for a {@link #close}d instance, or one under a {@link #closeBelow} bound,
 * are dropped. Closing tells the context, which forgets what it kept of the closed instances.
 */
public final class Router {
  /** Enough for every message of several rounds ahead of a slow replica at the group sizes we run. */
  public static final int MAX_BUFFERED_PER_SENDER = 1024;
  public static final int MAX_BUFFERED_BYTES_PER_SENDER = 8 << 20;

  private final Context ctx;
  private final Map<Pid, Protocol> instances = new HashMap<>();
  private final Set<Pid> closed = new HashSet<>();
  /** Per parent: its numbered children below this bound are closed ({@link #closeBelow}). */
  private final Map<Pid, Long> floors = new HashMap<>();
  private final Map<Pid, List<Buffered>> buffered = new HashMap<>();
  private final int[] bufferedCount;
  private final long[] bufferedBytes;
  private long dropped;

  private record Buffered(int sender, AsyncMessage message) {}

  Router(Context ctx) {
    this.ctx = ctx;
    this.bufferedCount = new int[ctx.n()];
    this.bufferedBytes = new long[ctx.n()];
  }

  /**
   * Adds an instance; messages already buffered for its id are delivered after the current step's
   * handler returns (never inside this call).
   *
   * @throws IllegalStateException an instance with this id exists or existed (our own bug, not a peer's)
   */
  public <P extends Protocol> P register(P instance) {
    Pid pid = instance.pid();
    if (instances.containsKey(pid) || isClosed(pid)) {
      throw new IllegalStateException("instance " + pid + " already created");
    }
    instances.put(pid, instance);
    List<Buffered> early = buffered.remove(pid);
    if (early != null) {
      for (Buffered b : early) {
        release(b);
        ctx.requeue(b.sender(), b.message());
      }
    }
    return instance;
  }

  /**
   * Ends the numbered children {@code parent/k} for every k &lt; {@code bound} and every instance below them
   * (the channel's delivered rounds with their agreements, broadcasts and binary agreements): all are
   * removed, their buffered messages released, and later messages for any id under them dropped. Only the
   * bound is remembered, one number per parent, so a long-lived channel's closed rounds take no memory.
   */
  public void closeBelow(Pid parent, long bound) {
    floors.merge(parent, bound, Math::max);
    instances.keySet().removeIf(this::isClosed);
    for (var it = buffered.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (isClosed(e.getKey())) {
        e.getValue().forEach(this::release);
        it.remove();
      }
    }
    ctx.forgetClosed();
  }

  /** Instances registered now. */
  public int instances() {
    return instances.size();
  }

  /** The instance with this id, or null. */
  public Protocol get(Pid pid) {
    return instances.get(pid);
  }

  /** Ends an instance: it is removed and its later messages are dropped (SINTRA §3.2 {@code abort}). */
  public void close(Pid pid) {
    instances.remove(pid);
    closed.add(pid);
    List<Buffered> early = buffered.remove(pid);
    if (early != null) {
      early.forEach(this::release);
    }
    ctx.forgetClosed();
  }

  /** Messages waiting for their instance. */
  public int buffered() {
    int total = 0;
    for (int c : bufferedCount) {
      total += c;
    }
    return total;
  }

  /** Messages dropped because a sender's buffer was full. */
  public long dropped() {
    return dropped;
  }

  /** Hands a message to its instance or buffers it; false when it was dropped (closed, or buffer full). */
  boolean route(int sender, AsyncMessage m) {
    Protocol p = instances.get(m.pid());
    if (p == null) {
      return !isClosed(m.pid()) && buffer(sender, m);
    }
    try {
      p.onMessage(sender, m.type(), m.payload());
    } catch (DecodeException e) {
      ctx.evidence(sender, m.pid() + ": malformed type " + m.type() + ": " + e.getMessage());
    }
    return true;
  }

  /** Whether {@code pid} was closed, itself or under a {@link #closeBelow} bound. */
  boolean isClosed(Pid pid) {
    if (closed.contains(pid)) {
      return true;
    }
    if (floors.isEmpty()) {
      return false;
    }
    for (Pid p = pid, parent = p.parent(); parent != null; p = parent, parent = p.parent()) {
      Long floor = floors.get(parent);
      if (floor != null) {
        long k = number(p);
        if (k >= 0 && k < floor) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code pid} is {@code parent/k}, or an instance below it, for some k &lt; {@code bound}. */
  static boolean under(Pid pid, Pid parent, long bound) {
    for (Pid p = pid, up = p.parent(); up != null; p = up, up = p.parent()) {
      if (up.equals(parent)) {
        long k = number(p);
        return k >= 0 && k < bound;
      }
    }
    return false;
  }

  /** The last segment of {@code pid} as a number, or −1 if it is not one. */
  private static long number(Pid pid) {
    String s = pid.toString();
    String last = s.substring(s.lastIndexOf('/') + 1);
    if (last.isEmpty() || last.length() > 18) {
      return -1;
    }
    for (int i = 0; i < last.length(); i++) {
      if (last.charAt(i) < '0' || last.charAt(i) > '9') {
        return -1;
      }
    }
    return Long.parseLong(last);
  }

  private boolean buffer(int sender, AsyncMessage m) {
    if (bufferedCount[sender] >= MAX_BUFFERED_PER_SENDER
        || bufferedBytes[sender] + m.payload().length > MAX_BUFFERED_BYTES_PER_SENDER) {
      dropped++;
      return false;
    }
    bufferedCount[sender]++;
    bufferedBytes[sender] += m.payload().length;
    buffered.computeIfAbsent(m.pid(), k -> new ArrayList<>()).add(new Buffered(sender, m));
    return true;
  }

  private void release(Buffered b) {
    bufferedCount[b.sender()]--;
    bufferedBytes[b.sender()] -= b.message().payload().length;
  }
}
