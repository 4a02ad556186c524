/**
 * Test utilities published as bftws-core's test-jar: seeded Ed25519 keys ({@link org.bftws.core.testkit.TestKeys}),
 * a seeded DRBG for dealing threshold keys ({@link org.bftws.core.testkit.TestRandom}) the hash-chain
 * service ({@link org.bftws.core.testkit.HashChainApp}) that core's in-memory cluster and the simulator both
 * replicate, and the one engine-level harness ({@link org.bftws.core.testkit.EngineHarness}) with its schedulers
 * ({@link org.bftws.core.testkit.Scheduler}) and performer of effects ({@link
 * org.bftws.core.testkit.EffectPerformer}). The other modules' tests use them with test scope; the simulator (a
 * tool, not in bftws.mar) with compile scope.
 */
package org.bftws.core.testkit;
