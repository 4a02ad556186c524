package org.bftws.core.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which client keys belong to one replicated client (BFT-WS §3.4): the 3p+1 replicas of a middle tier, each
 * signing its nested requests with its own client key, form one client of this group. Its members share
 * sequences, which are bound ({@link org.bftws.core.message.SequenceOwner}) to the group's principal, its
 * lowest member id; a request of a member is ordered only once p+1 identical copies from distinct members
 * arrived ({@link RequestFilter}), p = ⌊(members − 1) / 3⌋ (the paper's "maximum faults tolerated by the
 * replicated client"). Any other client is a group of one with p = 0. The same on every replica of a group.
 */
public final class ReplicatedClients {
  private static final ReplicatedClients NONE = new ReplicatedClients(Map.of());

  /** Member id → the sorted members of its replicated client. */
  private final Map<Integer, List<Integer>> groupOf;

  private ReplicatedClients(Map<Integer, List<Integer>> groupOf) {
    this.groupOf = groupOf;
  }

  /** No replicated client: every client stands alone. */
  public static ReplicatedClients none() {
    return NONE;
  }

  /**
   * Replicated clients of these members; the groups must be disjoint and non-empty.
   *
   * @throws IllegalArgumentException if they are not, or an id is negative
   */
  public static ReplicatedClients of(List<? extends Collection<Integer>> groups) {
    Map<Integer, List<Integer>> groupOf = new TreeMap<>();
    for (Collection<Integer> g : groups) {
      List<Integer> members = List.copyOf(new TreeSet<>(g));
      if (members.isEmpty() || members.get(0) < 0) {
        throw new IllegalArgumentException("a replicated client needs members with ids >= 0, got " + g);
      }
      for (int m : members) {
        if (groupOf.putIfAbsent(m, members) != null) {
          throw new IllegalArgumentException("client " + m + " is in two replicated clients");
        }
      }
    }
    return new ReplicatedClients(Map.copyOf(groupOf));
  }

  /**
   * Parses {@code "4-7"} or {@code "4,5,6,7;8-11"}: groups separated by ';', each a ','-separated list of
   * client ids and inclusive ranges. Blank or {@code none}: {@link #none()}.
   *
   * @throws IllegalArgumentException if the text is malformed or the groups overlap
   */
  public static ReplicatedClients parse(String text) {
    if (text == null || text.isBlank() || text.strip().equals("none")) {
      return none();
    }
    List<List<Integer>> groups = new ArrayList<>();
    for (String group : text.split(";")) {
      List<Integer> members = new ArrayList<>();
      for (String part : group.split(",")) {
        String p = part.strip();
        int dash = p.indexOf('-');
        int from = number(dash < 0 ? p : p.substring(0, dash));
        int to = dash < 0 ? from : number(p.substring(dash + 1));
        if (to < from || to - from > 1024) {
          throw new IllegalArgumentException("bad client range " + p);
        }
        for (int id = from; id <= to; id++) {
          members.add(id);
        }
      }
      groups.add(members);
    }
    return of(groups);
  }

  private static int number(String s) {
    if (!s.strip().matches("[0-9]{1,9}")) {
      throw new IllegalArgumentException("not a client id: '" + s + "'");
    }
    return Integer.parseInt(s.strip());
  }

  /** True when {@code client} is a member of a replicated client. */
  public boolean isMember(int client) {
    return groupOf.containsKey(client);
  }

  /** The members of {@code client}'s replicated client, sorted; just {@code client} if it stands alone. */
  public List<Integer> members(int client) {
    List<Integer> g = groupOf.get(client);
    return g == null ? List.of(client) : g;
  }

  /** Whom {@code client}'s sequences belong to: its replicated client's lowest member id, else itself. */
  public int principal(int client) {
    return members(client).get(0);
  }

  /** p+1: how many distinct members must send identical copies before a request of theirs is ordered. */
  public int copiesNeeded(int client) {
    return (members(client).size() - 1) / 3 + 1;
  }

  /** True when there is no replicated client. */
  public boolean isEmpty() {
    return groupOf.isEmpty();
  }

  /** The groups as {@link #parse} reads them: {@code 4,5,6,7;8,9}, or {@code none}. */
  public String toText() {
    if (groupOf.isEmpty()) {
      return "none";
    }
    StringBuilder sb = new StringBuilder();
    groupOf.values().stream().distinct().sorted((a, b) -> Integer.compare(a.get(0), b.get(0))).forEach(g -> {
      sb.append(sb.length() == 0 ? "" : ";");
      g.forEach(m -> sb.append(m.equals(g.get(0)) ? "" : ",").append(m));
    });
    return sb.toString();
  }

  @Override
  public String toString() {
    return toText();
  }
}
