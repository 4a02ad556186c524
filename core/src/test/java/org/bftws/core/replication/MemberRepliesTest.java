package org.bftws.core.replication;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Request;
import org.bftws.core.message.RequestId;
import org.junit.Test;

/**
 * A replicated client's recent replies (kept for lagging members) stay bounded under short-lived shared
 * sequences: at most {@code bftws.maxRequestsAhead} per sequence, and none for a sequence the client table
 * pruned; a lagging member is still answered while its sequence is in the table.
 */
public class MemberRepliesTest {
  /** The shortest retention a group may set ({@code bftws.clientTableRetention}). */
  private static final int RETENTION = 64;
  /** The pruning interval the table derives from it: every retention / 16 ordered requests. */
  private static final long PRUNE_EVERY = RETENTION / 16;
  private static final int AHEAD = 4;
  private static final int MEMBER = 4;

  private final GroupConfig cfg = GroupConfig.builder().set(GroupConfig.MAX_REQUESTS_AHEAD, AHEAD)
      .set(GroupConfig.CLIENT_TABLE_RETENTION, RETENTION).build();
  private final ClientRequests requests = new ClientRequests(cfg, 0, data -> new byte[64],
      (node, data, sig) -> true, RandomizedOperations.AS_FLAGGED);
  private final ClientTable table = requests.table();

  {
    requests.replicatedClients(ReplicatedClients.parse("4-7"));
  }

  private long seq;

  private void run(Request q) {
    assertEquals(q.terminates() ? ClientRequests.Order.TERMINATE : ClientRequests.Order.RUN, requests.order(q));
    if (!q.terminates()) {
      requests.executed(new Effect.Execute(++seq, 0, new byte[32], List.of(q), List.of(ClientTable.EMPTY)),
          List.of(new byte[] {(byte) q.messageNumber()}), new Ready());
    }
  }

  @Test
  public void shortLivedSharedSequencesLeaveAtMostWhatTheClientTableHolds() {
    int sequences = 500;
    for (int c = 0; c < sequences; c++) {
      String id = ClientTableTest.sequence(MEMBER, 1_000 + c, c);
      for (long m = 1; m <= 2 * AHEAD; m++) {
        run(new Request(MEMBER, id, m, false, new byte[] {1}));
      }
      run(Request.terminate(MEMBER, id));
      assertTrue("at most the table's sequences: " + requests.memberReplySequences() + " > " + table.size(),
          requests.memberReplySequences() <= table.size());
    }
    long bound = (RETENTION + PRUNE_EVERY) / (2 * AHEAD + 1) + 2;
    assertTrue("bounded: " + requests.memberReplySequences(), requests.memberReplySequences() <= bound);
  }

  @Test
  public void aLaggingMemberIsAnsweredFromTheRecentRepliesOfALiveSequence() {
    String id = ClientTableTest.sequence(MEMBER, 1_000, 1);
    for (long m = 1; m <= 3 * AHEAD; m++) {
      run(new Request(MEMBER, id, m, false, new byte[] {1}));
    }
    Ready out = new Ready();
    long lagging = 3 * AHEAD - 1;
    assertTrue(requests.answeredFromCache(new Request(MEMBER + 1, id, lagging, false, new byte[] {1}), 0, out));
    assertEquals("one reply, to the lagging member", 1, out.messages.size());
    Ready tooOld = new Ready();
    assertTrue(requests.answeredFromCache(new Request(MEMBER + 1, id, 1, false, new byte[] {1}), 0, tooOld));
    assertEquals("beyond maxRequestsAhead replies: not kept", 0, tooOld.messages.size());
  }

  @Test
  public void atMostMaxRequestsAheadRepliesPerSequence() {
    MemberReplies replies = new MemberReplies(AHEAD);
    List<RequestId> ids = new ArrayList<>();
    for (long m = 1; m <= 10 * AHEAD; m++) {
      RequestId r = new RequestId("s", m);
      ids.add(r);
      replies.remember(r, new byte[] {(byte) m}, ClientTable.EMPTY);
      assertTrue(replies.size() <= AHEAD);
    }
    assertEquals(AHEAD, replies.size());
    assertEquals(10 * AHEAD, replies.get(ids.get(ids.size() - 1))[0][0]);
  }
}
