package org.bftws.core.pbft;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.Signed;
import org.bftws.core.voter.ClientCore;
import org.junit.Test;

/**
 * Client node ids start at the client base, bftws.maxReplicas (docs/design/reconfiguration.md): ids from n up
 * to it are kept for replicas a grown epoch adds, so a request signed by such a node is no client's.
 */
public class ClientBaseTest {
  private static final GroupConfig BASE_7 = GroupConfig.builder().maxReplicas(7).build();

  @Test
  public void aClientNumberedFromTheBaseIsOrderedAndAnswered() {
    Cluster c = new Cluster(BASE_7, 1);
    ClientCore client = c.client();
    assertEquals(7, client.id());
    c.handleClient(client, client.invoke("inc".getBytes(StandardCharsets.UTF_8), false));
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, List.of("inc"), c.operations(i));
    }
    assertEquals("the client's voted reply", 1, c.delivered.size());
  }

  @Test
  public void aRequestSignedByANodeBelowTheBaseIsNotOrdered() {
    Cluster c = new Cluster(BASE_7, 1);
    int kept = 5;
    Request q = new Request(kept, "urn:uuid:kept", 1, false, "inc".getBytes(StandardCharsets.UTF_8));
    Signed s = Signed.sign(Kind.REQUEST, kept, q.encode(), c.signers.get(kept));
    for (int i = 0; i < c.n; i++) {
      c.inject(kept, i, s.encode());
    }
    c.deliverAll();
    for (int i = 0; i < c.n; i++) {
      assertEquals("replica " + i, List.of(), c.operations(i));
    }
  }

  @Test
  public void aClientBelowTheBaseIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new ClientCore(BASE_7, 4, "urn:uuid:x", null, null));
    assertTrue(e.getMessage(), e.getMessage().contains("bftws.maxReplicas"));
  }
}
