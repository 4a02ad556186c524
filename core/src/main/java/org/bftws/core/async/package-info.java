/**
 * SINTRA's asynchronous protocols (Cachin-Poritz, "Secure Intrusion-tolerant Replication on the Internet", 2002, §2) as pure deterministic state machines, in
 * the manner of every ordering engine ({@code engine.Engine}): bytes or a local input in, an {@code
 * engine.Ready} out; no threads, clocks or randomness. Nothing here imports {@code pbft}.
 *
 * <ul>
 *   <li>{@link org.bftws.core.async.Pid}: the hierarchical protocol id of an instance ({@code
 *       "abc/7/mvba/cb/2"}); it is inside every signed message body, and {@link
 *       org.bftws.core.async.Pid#bind} gives the bytes every threshold share or coin of the instance signs.
 *   <li>{@link org.bftws.core.async.AsyncMessage}: the body of a {@code Kind.ASYNC} envelope, (pid, type,
 *       payload); the type codes belong to the protocol of the instance.
 *   <li>{@link org.bftws.core.async.Context}: one replica's runtime. {@code receive(bytes)} authenticates
 *       and routes a peer's envelope; {@code input(action)} runs a local input; both drain the local queue
 *       (a replica's messages to itself) and return the step's {@code Ready}.
 *   <li>{@link org.bftws.core.async.Router}: instances by id; buffers (bounded per sender) messages for
 *       instances not yet created.
 *   <li>{@link org.bftws.core.async.Protocol}: the base of every instance. A parent creates a child with
 *       {@code ctx.router().register(new Child(ctx, pid.child(...), ..., output -> ...))}; the child calls
 *       that callback synchronously when it outputs.
 *   <li>{@link org.bftws.core.async.ReliableBroadcast}: Bracha-Toueg reliable broadcast (SINTRA §2.2).
 *   <li>{@link org.bftws.core.async.ConsistentBroadcast}: Reiter's echo broadcast (SINTRA §2.2),
 *       verifiable: it delivers a transferable certificate; correct parties echo only externally valid
 *       payloads, FINAL names the payload by digest and a party without it fetches it. The certificate is a {@link
 *       org.bftws.core.async.QuorumSignatures}: a {@link org.bftws.core.async.MultiSignature} (SINTRA's
 *       default) or a {@link org.bftws.core.async.ThresholdSignatures} (Shoup's RSA), SINTRA §2.1. Its
 *       external validity is a {@link org.bftws.core.async.Validity}, which may answer "not yet" (the
 *       payload names data still on its way): the SEND is then judged again on {@code recheck()}.
 *   <li>{@link org.bftws.core.async.BinaryAgreement}: Cachin-Kursawe-Shoup ABBA (SINTRA §2.3) with
 *       justified votes (multi-signatures) and the threshold coin of {@code Context.coin()} on {@code
 *       pid.bind("coin", round)}; {@link org.bftws.core.async.ValidatedBinaryAgreement}: its validated and
 *       optionally biased form (Cachin-Kursawe-Petzold-Shoup, CRYPTO 2001), on the same engine.
 *   <li>{@link org.bftws.core.async.MultiValuedAgreement} (SINTRA §2.4): proposals by consistent
 *       broadcast, then candidates in a pid-derived order, each decided by a biased validated binary
 *       agreement whose validation is the candidate's digest and certificate, not its value (CKPS 2001 §5).
 *   <li>{@link org.bftws.core.async.AtomicBroadcast} (SINTRA §2.5): the channel; rounds of signed
 *       proposals, a vector of n−f of them (by digest) decided by multi-valued agreement, delivered in a fixed
 *       order once this party holds the proposals it names.
 *   <li>{@link org.bftws.core.async.AsyncReplica}: an ordering engine on the channel ({@code
 *       engine.Engine}, the contract PBFT's {@code pbft.Replica} also implements), sharing with PBFT the
 *       client checks, client table and replies ({@code replication.ClientRequests}), checkpoints and state
 *       transfer ({@code replication.Checkpoints}), threshold coins for randomized requests ({@code
 *       replication.Coins}) and execution ({@code replication.ExecutionPipeline}); it resends its messages of open
 *       instances on ticks without progress ({@link org.bftws.core.async.Context#retransmit}).
 * </ul>
 */
package org.bftws.core.async;
