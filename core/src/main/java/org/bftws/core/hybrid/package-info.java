/**
 * Hybrid ordering (docs/design/hybrid.md): {@link org.bftws.core.hybrid.HybridReplica}, an engine in the
 * {@code engine.Engine} contract whose epochs ({@link org.bftws.core.hybrid.Epoch}) run a leader-based fast lane,
 * PBFT's normal case over a hash chain (Castro-Liskov §4.2; Bolt, Lu et al. CCS 2022 §4), and fall back to
 * SINTRA's multi-valued agreement (§2.4) to agree on where the lane stopped (the Transformer, ibid. §5); the
 * fast lane's batches are served to peers that lack them by {@link org.bftws.core.hybrid.Blocks}. Composes the
 * asynchronous scaffold ({@code async.Context}, {@code async.Router}) and protocols; imports nothing of
 * {@code pbft}.
 */
package org.bftws.core.hybrid;
