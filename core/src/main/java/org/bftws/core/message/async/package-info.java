/**
 * The payloads of the asynchronous protocols' messages (SINTRA §2), as {@code message} holds PBFT's: each
 * record encodes the canonical bytes that follow the instance id and type code in an {@code
 * async.AsyncMessage} and decodes a peer's, malformed bytes giving {@link org.bftws.core.codec.DecodeException}
 * only. The type codes are the protocols' {@code Type} enums ({@code async.AsyncKind}); what a payload means
 * to its instance (signatures, digests, the round it belongs to) is checked by the protocol, not here.
 */
package org.bftws.core.message.async;
