/**
 * Reconfiguration: the group's membership as replicated state (docs/design/reconfiguration.md). A {@link
 * org.bftws.core.reconfig.Membership} is one epoch (its members with stable ids, endpoints and keys; n, f and the
 * quorum); a {@link org.bftws.core.reconfig.Reconfigure} request signed by k of the group's {@link
 * org.bftws.core.reconfig.Administrators} adds, removes or replaces one member; {@link
 * org.bftws.core.reconfig.EpochChange} decides, from the ordered history alone, where the next epoch starts
 * (the first stable checkpoint at or above the seq that executed it); a {@link
 * org.bftws.core.reconfig.MembershipCertificate} carries an epoch signed by a quorum of the one before, and
 * {@link org.bftws.core.reconfig.EpochSigning} binds every replica signature to its epoch so that nothing of an
 * old epoch counts in a new one. Pure and deterministic, like the rest of core.
 */
package org.bftws.core.reconfig;
