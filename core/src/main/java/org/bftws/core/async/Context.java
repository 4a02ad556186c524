package org.bftws.core.async;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Authenticators;
import org.bftws.core.crypto.Signer;
import org.bftws.core.crypto.Verifier;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Signed;
import org.bftws.core.replication.CoinConfig;
import org.bftws.core.engine.Envelopes;
import org.bftws.core.engine.Event;
import org.bftws.core.engine.Journal;
import org.bftws.core.engine.Ready;

/**
 * One replica's runtime for its asynchronous protocol instances, stepped as every engine is ({@code
 * engine.Engine}): bytes in ({@link #receive}) or a local input ({@link #input}), a {@link Ready} out
 * (messages as encoded {@link Signed} envelopes of kind {@link Kind#ASYNC}, and {@link Event.Evidence}).
 * No threads, clocks or randomness.
 *
 * <p>Self-delivery: SINTRA's protocols count their own messages ("send to all parties"), so {@link
 * #multicast} reaches this replica too, through a local queue drained after the current handler returns;
 * handlers are never re-entered. Links are point-to-point authenticated (SINTRA §2) by each envelope's
 * Ed25519 signature, as PBFT's messages are. An engine may name instances whose envelopes also carry an
 * authenticator ({@link #authenticateByMac}, Castro-Liskov TOCS 2002 §3.2): a receiver accepts those by its MAC
 * and verifies the signature only when the MAC does not check, as PBFT's prepares and commits; what such an
 * instance needs to transfer to a third party it signs separately ({@link #sign}).
 *
 * <p>Lossy links. SINTRA assumes reliable links; HTTP POSTs to a replica that is down are lost. So the
 * context keeps the envelopes it sent and {@link #retransmit} sends them again (the engine calls it on a
 * tick on which it made no progress). Retransmission decides nothing: a resent envelope is the same signed
 * bytes, and a receiver drops it unseen if it took it already ({@link #receive} remembers, per open
 * instance, the authentic envelopes it handed on) or closed its instance. What was sent for an instance is
 * kept after the instance closes here, since a peer may still be in it, until the engine lets it go
 * ({@link #forgetSent}: the channel's rounds at its stable checkpoint); what was received is forgotten as
 * the router closes instances.
 *
 * <p>Journal (restart with state, docs/journal.md "The asynchronous engine"). A journaled context ({@link
 * #journaled}) records each message that commits this replica ({@link Protocol#slot}) in a {@link
 * Journal.Type#SIGNED} record of the step that sends it, so the embedding holds it before it leaves. Restarted,
 * {@link #recover} holds those messages as <em>promises</em>: a sender's own broadcast starts from its promised
 * payload ({@link Protocol#promisedPayload}), and whatever an instance of the new run sends in a promised slot, what leaves (and what this replica counts of its own) is the promised
 * message, so it never says in a slot something other than what it said there before the crash (SINTRA §2: a
 * party that did would be corrupted).
 */
public final class Context {
  private final int n;
  private final int f;
  private final int id;
  private final Signer signer;
  private final Verifier verifier;
  private final Router router;
  private final CoinConfig coin;
  private final ArrayDeque<Local> local = new ArrayDeque<>();
  /** Per open instance: the envelopes this replica sent for it, to resend ({@link #retransmit}). */
  private final Map<Pid, List<Ready.Outbound>> sent = new LinkedHashMap<>();
  /**
   * Per open instance: (sender, signature) of the authentic envelopes handed on, to drop resent copies; at most
   * {@link #REMEMBERED_PER_SENDER} times n of them per instance ({@link #remember}).
   */
  private final Map<Pid, Set<ByteBuffer>> seen = new HashMap<>();
  /**
   * Envelopes an instance remembers per replica of the group: far above what correct replicas send in one
   * instance (a lane slot's PROPOSE, PREPARE and COMMIT, a few agreement rounds' votes), so that a faulty peer
   * sending ever new authentic envelopes (new payloads, or junk signatures on envelopes accepted by their MAC,
   * each a new key) cannot grow the set while the instance is open.
   */
  static final int REMEMBERED_PER_SENDER = 32;
  /** Long-lived instances whose envelopes are not remembered in {@link #seen} ({@link #unremembered}). */
  private final Set<Pid> unremembered = new HashSet<>();
  /** (peer, top-level instance) pairs answered in this retransmission interval ({@link #answerLaggard}). */
  private final Set<Answered> answered = new HashSet<>();
  /**
   * (sender, signature) of envelopes for ended instances received in this interval and the one before: a
   * second copy marks a peer resending because it is stalled, not one that is merely slower than the rest.
   */
  private final Set<ByteBuffer> late = new HashSet<>();
  private final Set<ByteBuffer> latePrevious = new HashSet<>();
  /** Per slot of a committing message, what this replica sent there before its restart ({@link #recover}). */
  private final Map<Slot, Promise> promised = new HashMap<>();
  /** With a journal: the journal's seq for an instance (the channel's round); null without one. */
  private ToLongFunction<Pid> journalSeq;
  /** With a journal: the instances whose records are {@link Journal.Type#VIEW_SIGNED} (seq: their view). */
  private Predicate<Pid> byView = pid -> false;
  /** With MAC authentication: this replica's authenticators, and the instances whose envelopes carry one. */
  private Authenticators macs;
  private Predicate<Pid> byMac = pid -> false;
  private Ready out = new Ready();

  private record Slot(Pid pid, int type, ByteBuffer key) {}

  /** A committing message as sent (destination, message, envelope), and as journaled with its slot key. */
  private record Promise(int to, AsyncMessage message, byte[] envelope) {
    byte[] encode(byte[] slot) {
      return new ByteWriter(envelope.length + slot.length + 16).i32(to).bytes(slot).bytes(envelope).toBytes();
    }
  }

  private record Answered(int peer, Pid top) {}

  private record Local(int sender, AsyncMessage message) {}

  /** A context without threshold-coin material: for protocols that toss no coin (e.g. broadcasts). */
  public Context(int n, int f, int id, Signer signer, Verifier verifier) {
    this(n, f, id, signer, verifier, null);
  }

  /**
   * A context whose randomized protocols (binary agreement, SINTRA §2.3) toss {@code coin}: the dealt
   * (n, k, f) threshold coin of the group, with this replica's key share (index = id + 1). The group id of
   * {@link CoinConfig} is not used here: every coin names its instance through {@link Pid#bind}.
   */
  public Context(int n, int f, int id, Signer signer, Verifier verifier, CoinConfig coin) {
    if (n < 3 * f + 1 || f < 0) {
      throw new IllegalArgumentException("n=" + n + " cannot tolerate f=" + f + " (n > 3f)");
    }
    if (id < 0 || id >= n) {
      throw new IllegalArgumentException("replica id " + id + " outside 0.." + (n - 1));
    }
    this.n = n;
    this.f = f;
    this.id = id;
    this.signer = signer;
    this.verifier = verifier;
    if (coin != null && (coin.group().params().n() != n || coin.share().index() != id + 1)) {
      throw new IllegalArgumentException("coin key share " + coin.share().index() + " of a group of "
          + coin.group().params().n() + " does not fit replica " + id + " of " + n);
    }
    this.coin = coin;
    this.router = new Router(this);
  }

  public int n() {
    return n;
  }

  /** The number of corrupted parties tolerated (SINTRA's t). */
  public int f() {
    return f;
  }

  public int id() {
    return id;
  }

  public Router router() {
    return router;
  }

  /**
   * The threshold coin (SINTRA §2.1): a share of the value on {@code pid.bind("coin", ...)} is released by
   * {@code coin().scheme().share(coin().group(), coin().share(), ...)}; k shares combine to it.
   *
   * @throws IllegalStateException this context was built without coin material
   */
  public CoinConfig coin() {
    if (coin == null) {
      throw new IllegalStateException("replica " + id + " has no threshold-coin material");
    }
    return coin;
  }

  /**
   * Envelopes of the instances {@code which} names leave with an authenticator and are accepted by it
   * (Castro-Liskov TOCS 2002 §3.2); a receiver whose entry does not check verifies the signature instead. Only
   * for instances whose envelopes no one shows to a third party: their signatures are then never read.
   * Before the first step, alike on every replica.
   */
  public void authenticateByMac(Authenticators authenticators, Predicate<Pid> which) {
    if (authenticators.replicas() != n) {
      throw new IllegalArgumentException("authenticators for " + authenticators.replicas() + " replicas, the group has " + n);
    }
    this.macs = authenticators;
    this.byMac = which;
  }

  // ---------------------------------------------------------------- inputs

  /** An envelope from a peer, as received (this method authenticates it). */
  public Ready receive(byte[] bytes) {
    Signed s = Envelopes.open(bytes, this::fromPeer, kind -> "not an asynchronous-protocol message from a peer: " + kind,
        this::evidence);
    if (s == null) {
      return flush();
    }
    AsyncMessage m = null;
    DecodeException malformed = null;
    try {
      m = AsyncMessage.decode(s.body());
    } catch (DecodeException e) {
      malformed = e;
    }
    ByteBuffer key = m == null ? null : seenKey(s);
    if (m != null && router.isClosed(m.pid())) {
      if (!late.add(key) || latePrevious.contains(key)) {
        answerLaggard(s, m.pid()); // a resent copy: the peer is stalled in an instance ended here
      }
      return flush(); // for an instance ended here: nothing to hand on
    }
    if (m != null && seen.getOrDefault(m.pid(), Set.of()).contains(key)) {
      return flush(); // a resent copy of an envelope handed on before
    }
    if (!authentic(s, m)) {
      evidence(s.sender(), "bad signature");
      return flush();
    }
    if (m == null) {
      evidence(s.sender(), "malformed message: " + malformed.getMessage());
      return flush();
    }
    if (router.route(s.sender(), m) && !unremembered.contains(m.pid())) {
      remember(m.pid(), key);
    }
    return drain();
  }

  /**
   * Remembers an envelope handed on to {@code pid}, up to the instance's bound; past it, a resent copy is
   * authenticated and handed on again, which every instance tolerates (a faulty peer can send new copies anyway).
   */
  private void remember(Pid pid, ByteBuffer key) {
    Set<ByteBuffer> keys = seen.computeIfAbsent(pid, k -> new HashSet<>());
    if (keys.size() < REMEMBERED_PER_SENDER * n) {
      keys.add(key);
    }
  }

  /** By its authenticator for an instance that takes one ({@link #authenticateByMac}), else by its signature. */
  private boolean authentic(Signed s, AsyncMessage m) {
    if (macs != null && m != null && byMac.test(m.pid()) && macs.check(s.sender(), s.digest(), s.authenticator())) {
      return true;
    }
    return s.verify(verifier);
  }

  /** Only peers speak the asynchronous protocol (SINTRA §2): not clients, nor this replica to itself. */
  private boolean fromPeer(Signed s) {
    return s.kind() == Kind.ASYNC && s.sender() >= 0 && s.sender() < n && s.sender() != id;
  }

  /**
   * Sends again every envelope this replica kept (peers drop copies they already took, or of instances
   * they ended). For the engine's stalled ticks: what a peer that was down missed, it gets now.
   */
  public Ready retransmit() {
    for (List<Ready.Outbound> msgs : sent.values()) {
      out.messages.addAll(msgs);
    }
    return flush();
  }

  /**
   * Starts a new retransmission interval: a peer still in an instance ended here is answered again
   * ({@link #receive}) at most once per interval and top-level instance.
   */
  public void newInterval() {
    answered.clear();
    latePrevious.clear();
    latePrevious.addAll(late);
    late.clear();
  }

  /**
   * Whether this replica sent something for an instance still open here: it takes part in one that has
   * not ended (for the engine: a round it joined and has not delivered).
   */
  public boolean takingPart() {
    for (Pid pid : sent.keySet()) {
      if (!router.isClosed(pid)) {
        return true;
      }
    }
    return false;
  }

  /** Forgets what was sent for {@code parent/k}, and the instances below it, for every k &lt; {@code bound}. */
  public void forgetSent(Pid parent, long bound) {
    sent.keySet().removeIf(pid -> Router.under(pid, parent, bound));
    late.clear(); // bounded even without ticks; a stalled peer's next copies are counted afresh
    latePrevious.clear();
  }

  /** Forgets what was sent for the instance {@code pid} itself (requests that were answered or are moot). */
  public void forgetSent(Pid pid) {
    sent.remove(pid);
  }

  /**
   * Envelopes received for the instance {@code pid} are not remembered to drop resent copies: for a
   * long-lived instance of requests and answers that are never resent as the same bytes (each request is
   * sent anew, each answer once), where handling a copy twice does no harm and remembering would grow with
   * every envelope a peer chooses to send.
   */
  public void unremembered(Pid pid) {
    unremembered.add(pid);
  }

  /** Envelopes remembered to drop resent copies, over the open instances. */
  public int remembered() {
    int total = 0;
    for (Set<ByteBuffer> keys : seen.values()) {
      total += keys.size();
    }
    return total;
  }

  /** Envelopes kept for {@link #retransmit}. */
  public int resendLog() {
    int total = 0;
    for (List<Ready.Outbound> msgs : sent.values()) {
      total += msgs.size();
    }
    return total;
  }

  /**
   * A local input: {@code action} calls into instances (e.g. {@code router().register(...)} then a
   * broadcast's {@code send}); what they send, and what this replica sends itself, is processed before
   * the step returns.
   */
  public Ready input(Runnable action) {
    action.run();
    return drain();
  }

  // ---------------------------------------------------------------- for protocols

  /** Sends to every replica, this one included (delivered to itself after the current handler). */
  public void multicast(Pid pid, int type, byte[] payload) {
    multicast(pid, type, payload, null);
  }

  /** {@link #multicast} of a message that commits this replica in {@code slot} (null: in none). */
  public void multicast(Pid pid, int type, byte[] payload, byte[] slot) {
    Promise p = committed(Ready.ALL_REPLICAS, new AsyncMessage(pid, type, payload), slot);
    emit(pid, new Ready.Outbound(p.to(), wire(pid, p.envelope())));
    local.add(new Local(id, p.message()));
  }

  public void send(int to, Pid pid, int type, byte[] payload) {
    send(to, pid, type, payload, null);
  }

  /** {@link #send} of a message that commits this replica in {@code slot} (null: in none). */
  public void send(int to, Pid pid, int type, byte[] payload, byte[] slot) {
    AsyncMessage m = new AsyncMessage(pid, type, payload);
    if (to == id) {
      local.add(new Local(id, m));
      return;
    }
    Promise p = committed(to, m, slot);
    emit(pid, new Ready.Outbound(p.to(), wire(pid, p.envelope())));
  }

  // ---------------------------------------------------------------- journal

  /**
   * Records from now on every committing message in {@link Ready#persist} ({@link Journal.Type#SIGNED}, seq
   * {@code seqOf} its instance, body: destination, slot key, envelope); before the first step.
   */
  public void journaled(ToLongFunction<Pid> seqOf) {
    journaled(seqOf, pid -> false);
  }

  /**
   * {@link #journaled(ToLongFunction)}, the committing messages of the instances {@code byView} names in
   * {@link Journal.Type#VIEW_SIGNED} records ({@code seqOf}: their view), the others' in {@link
   * Journal.Type#SIGNED} ones.
   */
  public void journaled(ToLongFunction<Pid> seqOf, Predicate<Pid> byView) {
    this.journalSeq = seqOf;
    this.byView = byView;
  }

  /** A compacted journal read back: the stable checkpoint's record (null if none) and the committing messages'. */
  public record Recovered(Journal.Record stable, List<Journal.Record> signed) {}

  /**
   * An engine's journal, compacted ({@link Journal#compact}) and split into its stable checkpoint and its
   * committing messages, for {@link #recover}. With {@code views} (an engine {@link #journaled} by view too)
   * {@link Journal.Type#VIEW_SIGNED} records are committing messages and {@link Journal.Type#VIEW} ones are read
   * by compaction only; without, both are refused.
   *
   * @throws IllegalArgumentException a record of a type {@code engine} never writes
   */
  public static Recovered read(List<Journal.Record> records, String engine, boolean views) {
    Journal.Record stable = null;
    List<Journal.Record> signed = new ArrayList<>();
    for (Journal.Record r : Journal.compact(records)) {
      switch (r.type()) {
        case STABLE -> stable = r;
        case SIGNED -> signed.add(r);
        case VIEW_SIGNED -> signed.add(written(r, views, engine));
        case VIEW -> written(r, views, engine);
        default -> written(r, false, engine);
      }
    }
    return new Recovered(stable, signed);
  }

  private static Journal.Record written(Journal.Record r, boolean written, String engine) {
    if (!written) {
      throw new IllegalArgumentException("journal: a " + r.type() + " record, which " + engine + " never writes");
    }
    return r;
  }

  /**
   * After a restart: the committing messages this replica sent before it (its journal's {@link
   * Journal.Type#SIGNED} records, oldest first) are held as promises, sent again when their instance sends in
   * their slot. (Not at once: an instance that has not sent yet takes answers to them, such as a consistent
   * broadcast's signature shares, for a peer's fault.) A damaged journal is refused with an {@link
   * IllegalArgumentException} whose message starts "journal:", so the replica does not start on it: a record
   * that does not decode, an envelope this replica did not sign, a record whose seq is not its instance's
   * (compaction would keep or drop it wrongly), or two different messages for one slot (a replica that sent
   * both would be Byzantine, SINTRA §2, and which one to keep cannot be told).
   *
   * @throws IllegalStateException this context is not {@link #journaled}
   */
  public void recover(List<Journal.Record> records) {
    if (journalSeq == null) {
      throw new IllegalStateException("recover() needs a journaled context");
    }
    Map<Slot, Promise> read = new HashMap<>();
    for (Journal.Record record : records) {
      Journaled j = Journaled.decode(record.body());
      Signed s = j.envelope();
      AsyncMessage m;
      try {
        m = AsyncMessage.decode(s.body());
      } catch (DecodeException e) {
        throw new IllegalArgumentException("journal: a signed record that does not decode: " + e.getMessage(), e);
      }
      if (s.kind() != Kind.ASYNC || s.sender() != id || !s.verify(verifier) || j.to() == id
          || j.to() < Ready.ALL_REPLICAS || j.to() >= n) {
        throw new IllegalArgumentException("journal: a signed record that is not replica " + id + "'s own message");
      }
      if (record.type() != typeOf(m.pid())) {
        throw new IllegalArgumentException("journal: a " + record.type() + " record of " + m.pid());
      }
      if (record.seq() != journalSeq.applyAsLong(m.pid())) {
        throw new IllegalArgumentException("journal: a signed record of " + m.pid() + " at seq " + record.seq()
            + ", not its round " + journalSeq.applyAsLong(m.pid()));
      }
      Promise p = new Promise(j.to(), m, s.encode());
      Promise before = read.putIfAbsent(new Slot(m.pid(), m.type(), ByteBuffer.wrap(j.slot())), p);
      if (before != null && (before.to() != p.to() || !Arrays.equals(before.message().payload(), m.payload()))) {
        throw new IllegalArgumentException("journal: two different messages of " + m.pid() + " type " + m.type()
            + " in one slot");
      }
    }
    promised.putAll(read);
  }

  /** The payload this replica sent in a slot before its restart, or null if none is promised. */
  public byte[] promisedPayload(Pid pid, int type, byte[] slot) {
    Promise p = promised.get(new Slot(pid, type, ByteBuffer.wrap(slot)));
    return p == null ? null : p.message().payload();
  }

  private Journal.Type typeOf(Pid pid) {
    return byView.test(pid) ? Journal.Type.VIEW_SIGNED : Journal.Type.SIGNED;
  }

  /** A {@link Journal.Type#SIGNED} record's body read back: destination, slot key, envelope as signed. */
  record Journaled(int to, byte[] slot, Signed envelope) {
    static Journaled decode(byte[] body) {
      try {
        ByteReader r = new ByteReader(body);
        Journaled j = new Journaled(r.i32(), r.bytes(), Signed.decode(r.bytes()));
        r.end();
        return j;
      } catch (DecodeException e) {
        throw new IllegalArgumentException("journal: a signed record that does not decode: " + e.getMessage(), e);
      }
    }
  }

  /**
   * Promised slots held ({@link #recover}): until their instance closes here, even below a stable checkpoint
   * that this replica knows and has not installed yet (it may still act in those rounds meanwhile).
   */
  public int promises() {
    return promised.size();
  }

  /**
   * What leaves for {@code m}: in a promised slot the promise, whatever {@code m} says; otherwise {@code m},
   * journaled first if it commits this replica.
   */
  private Promise committed(int to, AsyncMessage m, byte[] slot) {
    if (slot == null) {
      return new Promise(to, m, envelope(m));
    }
    Promise before = promised.get(new Slot(m.pid(), m.type(), ByteBuffer.wrap(slot)));
    if (before != null) {
      return before;
    }
    Promise p = new Promise(to, m, envelope(m));
    if (journalSeq != null) {
      out.persist.add(new Journal.Record(typeOf(m.pid()), journalSeq.applyAsLong(m.pid()), p.encode(slot)));
    }
    return p;
  }

  /**
   * An answer to a peer's request, not kept for {@link #retransmit}: a requester that lost it resends its
   * request, so answers (which may be large) need not sit in the resend log.
   */
  public void reply(int to, Pid pid, int type, byte[] payload) {
    if (to != id) {
      out.messages.add(new Ready.Outbound(to, envelope(new AsyncMessage(pid, type, payload))));
    }
  }

  /** Something a peer sent that a correct peer would not have: recorded, never fatal. */
  public void evidence(int node, String what) {
    out.events.add(new Event.Evidence(node, what));
  }

  /** This replica's Ed25519 signature, for transferable proofs (e.g. a multi-signature, SINTRA §2.1). */
  public byte[] sign(byte[] data) {
    return signer.sign(data);
  }

  public boolean verify(int node, byte[] data, byte[] signature) {
    return verifier.verify(node, data, signature);
  }

  /** Hands a message that the router released (its instance now exists) to the local queue. */
  void requeue(int sender, AsyncMessage m) {
    local.add(new Local(sender, m));
  }

  /** The router closed instances: what was received for them is not needed to drop copies any more. */
  void forgetClosed() {
    seen.keySet().removeIf(router::isClosed);
    promised.keySet().removeIf(slot -> router.isClosed(slot.pid())); // nothing is sent there any more
  }

  // ---------------------------------------------------------------- internals

  private void emit(Pid pid, Ready.Outbound o) {
    out.messages.add(o);
    sent.computeIfAbsent(pid, k -> new ArrayList<>()).add(o);
  }

  /**
   * A peer resent an envelope for an instance ended here: it is stalled in it, and what it lacks may be
   * exactly what this replica sent there (lost on the way, or sent before the peer restarted). Peers resend only while they
   * take part in an open instance, so once the others have all moved on, only this answer can bring the
   * laggard through: everything this replica sent under the same top-level instance (for the channel, the
   * round), to that peer alone. A peer merely slower than the rest sends each envelope once and gets no
   * answer; the laggard's own resends pace it, and at most one answer per peer, top-level instance and
   * interval ({@link #newInterval}) bounds it; the envelope is authenticated first, so nobody else can
   * direct these answers at a replica.
   */
  private void answerLaggard(Signed s, Pid pid) {
    Pid top = top(pid);
    Answered a = new Answered(s.sender(), top);
    if (answered.contains(a)) {
      return;
    }
    List<Ready.Outbound> answer = sentWithin(top, s.sender());
    if (answer.isEmpty()) {
      return;
    }
    if (!s.verify(verifier)) {
      evidence(s.sender(), "bad signature");
      return;
    }
    answered.add(a);
    out.messages.addAll(answer);
  }

  /**
   * Everything this replica sent under {@code top} (and the instances below it) that went to all or to
   * {@code peer}, addressed to {@code peer} alone: not what went to a third party.
   */
  private List<Ready.Outbound> sentWithin(Pid top, int peer) {
    List<Ready.Outbound> answer = new ArrayList<>();
    for (Map.Entry<Pid, List<Ready.Outbound>> e : sent.entrySet()) {
      if (within(e.getKey(), top)) {
        for (Ready.Outbound o : e.getValue()) {
          if (o.to() == Ready.ALL_REPLICAS || o.to() == peer) {
            answer.add(new Ready.Outbound(peer, o.bytes()));
          }
        }
      }
    }
    return answer;
  }

  /**
   * For a peer that reported itself behind, in a round this replica closed ({@code AsyncReplica}'s status
   * asks): what this replica sent in that round's instance {@code top}, to that peer alone, as a laggard's
   * resent copy is answered ({@link #answerLaggard}), and from the same budget: at most once per peer,
   * top-level instance and interval, whichever of the two asked. Sends nothing if it kept nothing for
   * {@code top}.
   */
  public Ready resendTo(int peer, Pid top) {
    Answered a = new Answered(peer, top);
    List<Ready.Outbound> answer = answered.contains(a) ? List.of() : sentWithin(top, peer);
    if (!answer.isEmpty()) {
      answered.add(a);
      out.messages.addAll(answer);
    }
    return flush();
  }

  /** The instance of {@code pid} just below its root (the channel's round), or the root itself. */
  private static Pid top(Pid pid) {
    Pid p = pid;
    while (p.parent() != null && p.parent().parent() != null) {
      p = p.parent();
    }
    return p;
  }

  private static boolean within(Pid pid, Pid top) {
    for (Pid p = pid; p != null; p = p.parent()) {
      if (p.equals(top)) {
        return true;
      }
    }
    return false;
  }

  private static ByteBuffer seenKey(Signed s) {
    byte[] sig = s.signature();
    return ByteBuffer.allocate(4 + sig.length).putInt(s.sender()).put(sig).flip();
  }

  /** The envelope as it leaves: with an authenticator for an instance that takes one. */
  private byte[] wire(Pid pid, byte[] envelope) {
    if (macs == null || !byMac.test(pid)) {
      return envelope;
    }
    Signed s = Signed.decode(envelope);
    return Signed.wire(s, macs.authenticator(s.digest()));
  }

  private byte[] envelope(AsyncMessage m) {
    return Signed.sign(Kind.ASYNC, id, m.encode(), signer).encode();
  }

  private Ready drain() {
    for (Local l = local.poll(); l != null; l = local.poll()) {
      router.route(l.sender(), l.message());
    }
    return flush();
  }

  private Ready flush() {
    Ready r = out;
    out = new Ready();
    return r;
  }
}
