package org.bftws.core.replication;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.config.GroupConfig;
import org.bftws.core.engine.CoinProof;
import org.bftws.core.engine.Effect;
import org.bftws.core.engine.Ready;
import org.bftws.core.message.Kind;
import org.bftws.core.message.Request;
import org.bftws.core.message.SequenceOwner;
import org.bftws.core.message.Signed;
import org.bftws.core.testkit.TestKeys;
import org.junit.Test;

/** Each rule of the execution every engine shares ({@link ExecutionPipeline}), on its own. */
public class ExecutionPipelineTest {
  private static final int CLIENT = 4;
  private static final byte[] DIGEST = {7, 7, 7};

  private final GroupConfig cfg = GroupConfig.defaults();
  private final TestKeys keys = TestKeys.seeded(cfg.n() + 1, 1);
  private final ClientRequests requests = new ClientRequests(cfg, 0, keys.signer(0), keys.verifier(),
      RandomizedOperations.AS_FLAGGED);
  private final String sequence = SequenceOwner.bind(CLIENT, "0b6f3a70-1111-4222-9333-444455556666");
  private Ready out = new Ready();
  /** Requests the engine was told were ordered, in order. */
  private final List<Long> ordered = new ArrayList<>();
  /** Message numbers whose ciphertext the engine refuses to open. */
  private final List<Long> refused = new ArrayList<>();

  private final ExecutionPipeline.Hooks hooks = new ExecutionPipeline.Hooks() {
    @Override
    public void ordered(Request q) {
      ordered.add(q.messageNumber());
    }

    @Override
    public Request opened(long seq, int i, Request q) {
      return refused.contains(q.messageNumber()) ? null : q;
    }

    @Override
    public byte[] random(long seq, int i) {
      return new byte[] {(byte) seq, (byte) i};
    }

    @Override
    public CoinProof proof(long seq, int i) {
      return CoinProof.NONE;
    }
  };

  private final ExecutionPipeline pipeline = new ExecutionPipeline(requests, () -> out, hooks, true);

  private Signed request(long number) {
    Request q = new Request(CLIENT, sequence, number, false, ("op" + number).getBytes(StandardCharsets.UTF_8));
    return Signed.sign(Kind.REQUEST, CLIENT, q.encode(), keys.signer(CLIENT));
  }

  private Signed terminate() {
    return Signed.sign(Kind.REQUEST, CLIENT, Request.terminate(CLIENT, sequence).encode(), keys.signer(CLIENT));
  }

  private List<Effect.Execute> executes() {
    return out.effects.stream().filter(e -> e instanceof Effect.Execute).map(e -> (Effect.Execute) e).toList();
  }

  private static List<byte[]> results(int count) {
    List<byte[]> r = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      r.add(new byte[] {(byte) i});
    }
    return r;
  }

  @Test
  public void anOrderedBatchRunsAsOneExecuteWithItsRandomNumbers() {
    assertTrue(pipeline.execute(3, 1, DIGEST, List.of(request(1), request(2))));
    List<Effect.Execute> ex = executes();
    assertEquals(1, ex.size());
    assertEquals(3, ex.get(0).seq());
    assertEquals(1, ex.get(0).view());
    assertArrayEquals(DIGEST, ex.get(0).batchDigest());
    assertEquals(List.of(1L, 2L), ex.get(0).requests().stream().map(Request::messageNumber).toList());
    assertArrayEquals(new byte[] {3, 1}, ex.get(0).randoms().get(1));
    assertEquals(1, pipeline.awaitingResults());
    assertEquals("the engine hears of every ordered request", List.of(1L, 2L), ordered);
  }

  @Test
  public void aDuplicateIsSkipped() {
    pipeline.execute(1, 0, DIGEST, List.of(request(1), request(1)));
    assertEquals("the second copy does not run", 1, executes().get(0).requests().size());
    out = new Ready();
    assertFalse("nothing ran or terminated", pipeline.execute(2, 0, DIGEST, List.of(request(1))));
    assertTrue(out.effects.isEmpty());
    assertEquals("skipped copies were ordered all the same", List.of(1L, 1L, 1L), ordered);
  }

  @Test
  public void aTerminateAnswersTheClientAndRunsNothing() {
    assertTrue(pipeline.execute(1, 0, DIGEST, List.of(terminate())));
    assertTrue("a terminate is no execution", executes().isEmpty());
    assertEquals("its empty reply goes to the client", List.of(CLIENT),
        out.messages.stream().map(Ready.Outbound::to).toList());
    assertTrue(requests.terminated(sequence));
    out = new Ready();
    assertFalse("the sequence is closed", pipeline.execute(2, 0, DIGEST, List.of(request(5))));
  }

  @Test
  public void aRefusedCiphertextIsSkippedAndNotRecorded() {
    refused.add(2L);
    pipeline.execute(1, 0, DIGEST, List.of(request(1), request(2)));
    assertEquals(List.of(1L), executes().get(0).requests().stream().map(Request::messageNumber).toList());
    assertTrue("the refused request never entered the client table", requests.wouldRun(
        Request.decode(request(2).body())));
  }

  @Test
  public void anAgreementOnlyReplicaOrdersButExecutesNothing() {
    requests.neverReply();
    ExecutionPipeline agreementOnly = new ExecutionPipeline(requests, () -> out, hooks, false);
    assertTrue(agreementOnly.execute(1, 0, DIGEST, List.of(request(1), terminate())));
    assertTrue(out.effects.isEmpty());
    assertTrue(out.messages.isEmpty());
    assertFalse("ordered all the same", requests.wouldRun(Request.decode(request(1).body())));
  }

  @Test
  public void resultsComeBackInOrderAndGoToTheClient() {
    pipeline.execute(1, 0, DIGEST, List.of(request(1)));
    pipeline.execute(2, 0, DIGEST, List.of(request(2)));
    assertThrows("not the head of the queue", IllegalStateException.class, () -> pipeline.executed(2, results(1)));
    assertThrows("one result per request", IllegalStateException.class, () -> pipeline.executed(1, results(2)));
    out = new Ready();
    pipeline.executed(1, results(1));
    assertEquals(List.of(CLIENT), out.messages.stream().map(Ready.Outbound::to).toList());
    assertEquals(1, pipeline.awaitingResults());
  }

  @Test
  public void aCheckpointBoundaryPausesExecutionUntilItsStateIsCaptured() {
    pipeline.execute(4, 0, DIGEST, List.of(request(1)));
    pipeline.capture(4);
    assertTrue(pipeline.paused());
    assertEquals(new Effect.CaptureState(4), out.effects.get(out.effects.size() - 1));
    assertThrows("the state follows the results handed out before it", IllegalStateException.class,
        () -> pipeline.stateCaptured(4));
    pipeline.executed(4, results(1));
    assertThrows("no capture awaited at 8", IllegalStateException.class, () -> pipeline.stateCaptured(8));
    assertTrue(pipeline.stateCaptured(4));
    assertFalse(pipeline.paused());
    assertEquals(-1, pipeline.pendingCapture());
  }

  @Test
  public void aResultSupersededByStateTransferIsDropped() {
    pipeline.execute(3, 0, DIGEST, List.of(request(1)));
    pipeline.installed(8, 3);
    assertEquals(0, pipeline.awaitingResults());
    out = new Ready();
    pipeline.executed(3, results(1));
    assertTrue("a moot result is not sent", out.messages.isEmpty());
    assertThrows("above the installed checkpoint a result must be awaited", IllegalStateException.class,
        () -> pipeline.executed(9, results(1)));
  }

  @Test
  public void aCapturePendingWhenStateIsInstalledIsMoot() {
    pipeline.capture(4);
    pipeline.installed(8, 4);
    assertFalse("execution goes on from the installed state", pipeline.paused());
    assertFalse("the late state is dropped", pipeline.stateCaptured(4));
  }

  @Test
  public void theInstalledBoundCoversWhatWasHandedOutAboveTheCheckpoint() {
    pipeline.execute(10, 0, DIGEST, List.of(request(1)));
    pipeline.installed(8, 10); // an engine ahead of the checkpoint it installed
    pipeline.executed(10, results(1));
    assertTrue("dropped: handed out before the installation", out.messages.isEmpty());
  }
}
