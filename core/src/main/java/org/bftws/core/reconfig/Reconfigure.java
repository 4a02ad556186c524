package org.bftws.core.reconfig;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.crypto.Signer;

/**
 * A RECONFIGURE request's operation (docs/design/reconfiguration.md): add a replica (endpoint, key) under the
 * next stable id, remove one by id, or replace one by id with a new endpoint and key (the newcomer gets a new
 * id too), for one group and one epoch, signed by k of the group's {@link Administrators}. It is ordered like
 * any client request; {@link #apply} checks it where it executes, from the ordered history alone, so every
 * correct replica reaches the same verdict, and a refused one changes nothing.
 *
 * <p>Encoding: {@link #MAGIC}, then group id, epoch, action, id, endpoint, key and the administrators'
 * signatures (index, signature). The administrators sign everything but the signatures, after a domain tag.
 */
public final class Reconfigure {
  /** How a reconfiguration's operation bytes begin; nothing else in a RECONFIGURE slot is one. */
  public static final byte[] MAGIC = "BFTWS-RECONFIGURE/1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DOMAIN = "BFTWS-reconfigure-v1".getBytes(StandardCharsets.US_ASCII);

  /** What a reconfiguration does. */
  public enum Action {
    ADD, REMOVE, REPLACE;

    private static final Action[] ALL = values();
  }

  private final byte[] groupId;
  private final long epoch;
  private final Action action;
  private final int id;
  private final String endpoint;
  private final byte[] publicKey;
  private final TreeMap<Integer, byte[]> signatures;

  private Reconfigure(byte[] groupId, long epoch, Action action, int id, String endpoint, byte[] publicKey,
      Map<Integer, byte[]> signatures) {
    this.groupId = groupId.clone();
    this.epoch = epoch;
    this.action = action;
    this.id = id;
    this.endpoint = endpoint;
    this.publicKey = publicKey.clone();
    this.signatures = new TreeMap<>(signatures);
  }

  /** Add a replica at {@code endpoint} with Ed25519 key {@code publicKey}, unsigned. */
  public static Reconfigure add(byte[] groupId, long epoch, String endpoint, byte[] publicKey) {
    return new Reconfigure(groupId, epoch, Action.ADD, -1, endpoint, publicKey, Map.of());
  }

  /** Remove replica {@code id}, unsigned. */
  public static Reconfigure remove(byte[] groupId, long epoch, int id) {
    return new Reconfigure(groupId, epoch, Action.REMOVE, id, "", new byte[0], Map.of());
  }

  /** Replace replica {@code id} by one at {@code endpoint} with key {@code publicKey}, unsigned. */
  public static Reconfigure replace(byte[] groupId, long epoch, int id, String endpoint, byte[] publicKey) {
    return new Reconfigure(groupId, epoch, Action.REPLACE, id, endpoint, publicKey, Map.of());
  }

  /** This reconfiguration with administrator {@code admin}'s signature added. */
  public Reconfigure signedBy(int admin, Signer key) {
    TreeMap<Integer, byte[]> sigs = new TreeMap<>(signatures);
    sigs.put(admin, key.sign(signedPart()));
    return new Reconfigure(groupId, epoch, action, id, endpoint, publicKey, sigs);
  }

  public long epoch() {
    return epoch;
  }

  public Action action() {
    return action;
  }

  /** The id removed or replaced (−1 for an add). */
  public int id() {
    return id;
  }

  /** True when {@code operation} is a reconfiguration's (it starts with {@link #MAGIC}), well-formed or not. */
  public static boolean isReconfigure(byte[] operation) {
    return operation.length >= MAGIC.length && Arrays.equals(operation, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
  }

  /**
   * The membership after this reconfiguration, checked against the current one, the group's administrators
   * and its id.
   *
   * @throws ReconfigurationException saying why it is refused; nothing changes then
   */
  public Membership apply(Membership current, Administrators admins, byte[] group) {
    if (!Arrays.equals(group, groupId)) {
      throw new ReconfigurationException("reconfiguration for another group");
    }
    if (epoch != current.epoch()) {
      throw new ReconfigurationException("reconfiguration signed for epoch " + epoch + ", the group is in epoch "
          + current.epoch());
    }
    int valid = admins.validSigners(signedPart(), signatures);
    if (valid < admins.required()) {
      throw new ReconfigurationException("reconfiguration needs " + admins.required() + " of " + admins.count()
          + " administrator signatures, has " + valid + " valid");
    }
    List<Member> members = new ArrayList<>(current.members());
    int nextId = current.nextId();
    if (action != Action.ADD && current.byId(id) == null) {
      throw new ReconfigurationException("no member " + id + " to " + action.name().toLowerCase() + " in epoch "
          + current.epoch());
    }
    if (action != Action.REMOVE) {
      Member replaced = current.byId(id);
      if (current.hasKey(publicKey) && (replaced == null || !replaced.hasKey(publicKey))) {
        throw new ReconfigurationException("the new replica's key is another member's");
      }
      members.add(new Member(nextId++, endpoint, publicKey));
    }
    if (action != Action.ADD) {
      members.removeIf(m -> m.id() == id);
    }
    return new Membership(current.epoch() + 1, members, nextId);
  }

  private byte[] signedPart() {
    return body(new ByteWriter().raw(DOMAIN)).toBytes();
  }

  private ByteWriter body(ByteWriter w) {
    return w.bytes(groupId).i64(epoch).u8(action.ordinal()).i32(id).str(endpoint).bytes(publicKey);
  }

  /** The operation bytes of the request. */
  public byte[] encode() {
    ByteWriter w = body(new ByteWriter().raw(MAGIC)).i32(signatures.size());
    signatures.forEach((i, s) -> w.i32(i).bytes(s));
    return w.toBytes();
  }

  /**
   * Decodes a reconfiguration's operation bytes.
   *
   * @throws ReconfigurationException for bytes that are not a well-formed reconfiguration
   */
  public static Reconfigure decode(byte[] operation) {
    if (!isReconfigure(operation)) {
      throw new ReconfigurationException("not a reconfiguration");
    }
    try {
      ByteReader r = new ByteReader(operation);
      r.raw(MAGIC.length);
      byte[] group = r.bytes();
      long epoch = r.i64();
      int a = r.u8();
      if (a >= Action.ALL.length) {
        throw new DecodeException("unknown action " + a);
      }
      int id = r.i32();
      String endpoint = r.str();
      byte[] key = r.bytes();
      int count = r.count(Administrators.MAX);
      TreeMap<Integer, byte[]> sigs = new TreeMap<>();
      for (int k = 0; k < count; k++) {
        int admin = r.i32();
        if (sigs.put(admin, r.bytes()) != null) {
          throw new DecodeException("two signatures of administrator " + admin);
        }
      }
      r.end();
      return new Reconfigure(group, epoch, Action.ALL[a], id, endpoint, key, sigs);
    } catch (DecodeException e) {
      throw new ReconfigurationException("malformed reconfiguration: " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return action.name().toLowerCase() + (action == Action.ADD ? " " + endpoint : " " + id) + " in epoch " + epoch;
  }
}
