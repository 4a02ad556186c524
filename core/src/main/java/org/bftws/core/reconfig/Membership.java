package org.bftws.core.reconfig;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.config.ConfigKey;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.crypto.Digests;

/**
 * One membership epoch (docs/design/reconfiguration.md): the epoch number, the members in ascending stable-id
 * order and the next stable id to hand out. n is the number of members, f = ⌊(n−1)/3⌋ and the quorum
 * ⌈(n+f+1)/2⌉ ({@link GroupConfig#quorum}); within the epoch, replica index i (the engine's 0..n−1, the primary of
 * view v being index v mod n, Castro-Liskov §4.1) is the i-th member. Epoch 0 is the group's configured
 * membership with ids 0..n−1, so index and id coincide until the first reconfiguration.
 */
public final class Membership {
  /** Fewest replicas: 3f+1 with f = 1 (Castro-Liskov §2). */
  public static final int MIN_REPLICAS = 4;
  /** Most replicas: n = 3·F_MAX+1 ({@link GroupConfig#F_MAX}). */
  public static final int MAX_REPLICAS = 3 * GroupConfig.F_MAX + 1;
  private static final byte[] DOMAIN = "BFTWS-membership-v1".getBytes(StandardCharsets.US_ASCII);

  private final long epoch;
  private final List<Member> members;
  private final int nextId;

  public Membership(long epoch, List<Member> members, int nextId) {
    if (epoch < 0) {
      throw new ReconfigurationException("a membership epoch is not negative, got " + epoch);
    }
    if (members.size() < MIN_REPLICAS || members.size() > MAX_REPLICAS) {
      throw new ReconfigurationException("a group has " + MIN_REPLICAS + " to " + MAX_REPLICAS + " replicas, not "
          + members.size());
    }
    List<Member> sorted = new ArrayList<>(members);
    sorted.sort(Comparator.comparingInt(Member::id));
    Set<Integer> ids = new HashSet<>();
    Set<String> keys = new HashSet<>();
    for (Member m : sorted) {
      if (!ids.add(m.id())) {
        throw new ReconfigurationException("member id " + m.id() + " appears twice");
      }
      if (!keys.add(Digests.hex(m.publicKey(), Member.KEY_BYTES))) {
        throw new ReconfigurationException("two members share the public key of member " + m.id());
      }
    }
    if (nextId <= sorted.get(sorted.size() - 1).id()) {
      throw new ReconfigurationException("the next id " + nextId + " must lie above every member's id");
    }
    this.epoch = epoch;
    this.members = List.copyOf(sorted);
    this.nextId = nextId;
  }

  /** Epoch 0: the configured replicas, whose ids are 0..n−1 in the given order (their keys and endpoints). */
  public static Membership initial(List<String> endpoints, List<byte[]> publicKeys) {
    if (endpoints.size() != publicKeys.size()) {
      throw new ReconfigurationException(endpoints.size() + " endpoints for " + publicKeys.size() + " keys");
    }
    List<Member> ms = new ArrayList<>();
    for (int i = 0; i < endpoints.size(); i++) {
      ms.add(new Member(i, endpoints.get(i), publicKeys.get(i)));
    }
    return new Membership(0, ms, ms.size());
  }

  public long epoch() {
    return epoch;
  }

  public List<Member> members() {
    return members;
  }

  public int nextId() {
    return nextId;
  }

  public int n() {
    return members.size();
  }

  public int f() {
    return (n() - 1) / 3;
  }

  /** ⌈(n+f+1)/2⌉, as {@link GroupConfig#quorum}: 2f+1 when n = 3f+1. */
  public int quorum() {
    return (n() + f() + 2) / 2;
  }

  /** The engine's index of stable id {@code id} in this epoch, or −1 when it is no member. */
  public int indexOf(int id) {
    for (int i = 0; i < members.size(); i++) {
      if (members.get(i).id() == id) {
        return i;
      }
    }
    return -1;
  }

  /** The member at engine index {@code index} (0..n−1). */
  public Member member(int index) {
    return members.get(index);
  }

  /** The member with stable id {@code id}, or null. */
  public Member byId(int id) {
    int i = indexOf(id);
    return i < 0 ? null : members.get(i);
  }

  /** True when some member has this public key. */
  public boolean hasKey(byte[] key) {
    return members.stream().anyMatch(m -> m.hasKey(key));
  }

  /**
   * The protocol configuration of this epoch: {@code base}'s keys with this epoch's f and n. Configurations II
   * and III are refused: their lists of executing replicas and execution nodes would have to follow the
   * membership (not built, docs/design/reconfiguration.md).
   */
  public GroupConfig config(GroupConfig base) {
    if (base.separatesExecution() || !base.executionNodes().isEmpty()) {
      throw new ReconfigurationException("reconfiguration needs every replica to execute (configuration I): "
          + GroupConfig.EXECUTING_REPLICAS.name() + " and " + GroupConfig.EXECUTION_NODES.name() + " are not yet"
          + " supported with it");
    }
    GroupConfig.Builder b = GroupConfig.builder();
    for (ConfigKey<Integer> k : GroupConfig.KEYS) {
      b.set(k, base.get(k));
    }
    for (ConfigKey<Boolean> k : GroupConfig.FLAGS) {
      b.set(k, base.flag(k));
    }
    return b.set(GroupConfig.F, f()).replicas(n()).build();
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(64 + members.size() * 96).i64(epoch).i32(nextId).i32(members.size());
    for (Member m : members) {
      m.encodeInto(w);
    }
    return w.toBytes();
  }

  /** Decodes a membership; {@link DecodeException} for bytes that are not one. */
  public static Membership decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    long epoch = r.i64();
    int nextId = r.i32();
    int count = r.count(MAX_REPLICAS);
    List<Member> ms = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      ms.add(Member.decodeFrom(r));
    }
    r.end();
    try {
      return new Membership(epoch, ms, nextId);
    } catch (ReconfigurationException e) {
      throw new DecodeException("not a membership: " + e.getMessage());
    }
  }

  /** SHA-256 over a domain tag and the encoding: what a {@link MembershipCertificate} signs. */
  public byte[] digest() {
    return Digests.sha256(DOMAIN, encode());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Membership m && m.epoch == epoch && m.nextId == nextId && m.members.equals(members);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(epoch) * 31 + members.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("epoch ").append(epoch).append(": n=").append(n()).append(" f=").append(f())
        .append(" quorum=").append(quorum()).append(" ids=");
    members.forEach(m -> sb.append(m.id()).append(m == members.get(members.size() - 1) ? "" : ","));
    return sb.toString();
  }
}
