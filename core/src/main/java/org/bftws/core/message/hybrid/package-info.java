/**
 * The hybrid engine's payloads ({@code hybrid.HybridReplica}, docs/design/hybrid.md): records with a
 * canonical encoding inside {@code async.AsyncMessage}s, as {@code message.async}'s are for SINTRA's
 * protocols. Decoding hostile bytes throws only {@link org.bftws.core.codec.DecodeException}.
 */
package org.bftws.core.message.hybrid;
