package org.bftws.core.message.hybrid;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.codec.ByteReader;
import org.bftws.core.codec.ByteWriter;

/**
 * What a replica proposes to the fallback's multi-valued agreement: n−f SWITCHes of the epoch from distinct
 * signers in ascending order (the engine checks that; here only the shape). Canonical: {@code u32(count) ||
 * bytes(switch)*}.
 */
public record FallbackVector(List<LaneSwitch> switches) {
  public FallbackVector {
    switches = List.copyOf(switches);
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
