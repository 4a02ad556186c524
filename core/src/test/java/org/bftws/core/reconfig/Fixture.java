package org.bftws.core.reconfig;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bftws.core.testkit.TestKeys;

/**
 * Keys and memberships of the reconfiguration tests: replica keys are nodes 0..19 of one seeded {@link TestKeys}
 * (a member with stable id i holds key i), the three administrators' keys another seed's nodes 0..2.
 */
final class Fixture {
  static final byte[] GROUP = "urn:bftws:test-group".getBytes(StandardCharsets.US_ASCII);
  static final TestKeys REPLICAS = TestKeys.seeded(20, 7);
  static final TestKeys ADMINS = TestKeys.seeded(3, 99);

  private Fixture() {}

  static byte[] key(int node) {
    return REPLICAS.publicKey(node).getEncoded();
  }

  static String endpoint(int id) {
    return "http://127.0.0.1:" + (9000 + id) + "/axis2/services/Counter";
  }

  /** Epoch 0 of {@code n} replicas, ids and keys 0..n−1. */
  static Membership initial(int n) {
    List<String> endpoints = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      endpoints.add(endpoint(i));
      keys.add(key(i));
    }
    return Membership.initial(endpoints, keys);
  }

  /** The administrators: {@code k} of the three. */
  static Administrators admins(int k) {
    return new Administrators(List.of(ADMINS.publicKey(0).getEncoded(), ADMINS.publicKey(1).getEncoded(),
        ADMINS.publicKey(2).getEncoded()), k);
  }

  /** {@code r} signed by administrators {@code who}. */
  static Reconfigure signed(Reconfigure r, int... who) {
    for (int a : who) {
      r = r.signedBy(a, ADMINS.signer(a));
    }
    return r;
  }

  /** Adding the replica holding key {@code node} to {@code m}, signed by administrator 0. */
  static Reconfigure add(Membership m, int node) {
    return signed(Reconfigure.add(GROUP, m.epoch(), endpoint(node), key(node)), 0);
  }

  /** The certificate of {@code next} signed by the first {@code signers} members of {@code previous}. */
  static MembershipCertificate certify(Membership previous, Membership next, int signers) {
    Map<Integer, byte[]> sigs = new TreeMap<>();
    for (int i = 0; i < signers; i++) {
      sigs.put(i, MembershipCertificate.sign(next, REPLICAS.signer(keyHolder(previous.member(i)))));
    }
    return new MembershipCertificate(next, sigs);
  }

  /** The node of {@link #REPLICAS} whose key member {@code m} holds. */
  static int keyHolder(Member m) {
    for (int node = 0; node < REPLICAS.count(); node++) {
      if (m.hasKey(key(node))) {
        return node;
      }
    }
    throw new IllegalArgumentException(m + " holds no test key");
  }
}
