package org.bftws.core.message.hybrid;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;
import org.bftws.core.crypto.Digests;

/**
 * What a replica proposes to the fallback's multi-valued agreement: n−f SWITCHes of the epoch from distinct
 * signers in ascending order (the engine checks that; here only the shape). Canonical: {@code u32(count) ||
 * bytes(switch)*}.
 */
public record FallbackVector(List<LaneSwitch> switches) {
  public FallbackVector {
    switches = List.copyOf(switches);
  }

  /** The SWITCHes' requests, each once (by digest), in the vector's order: the fallback's batch at h*+1. */
  public List<byte[]> requests() {
    Set<String> seen = new HashSet<>();
    List<byte[]> batch = new ArrayList<>();
    for (LaneSwitch sw : switches) {
      for (byte[] p : sw.batch()) {
        if (seen.add(Digests.hex(Digests.sha256(p), Digests.LENGTH))) {
          batch.add(p);
        }
      }
    }
    return batch;
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter().i32(switches.size());
    switches.forEach(s -> w.bytes(s.encode()));
    return w.toBytes();
  }

  public static FallbackVector decode(byte[] bytes, int n, int maxBatch) {
    ByteReader r = new ByteReader(bytes);
    int count = r.count(n);
    List<LaneSwitch> switches = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      switches.add(LaneSwitch.decode(r.bytes(), n, maxBatch));
    }
    r.end();
    return new FallbackVector(switches);
  }
}
