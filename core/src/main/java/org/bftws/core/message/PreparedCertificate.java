package org.bftws.core.message;

import java.util.List;

/**
 * P_m of a view change (Castro-Liskov §4.4): a signed pre-prepare and 2f matching signed prepares from
 * distinct backups, proving that a batch prepared at (v, n).
 */
public record PreparedCertificate(Signed prePrepare, List<Signed> prepares) {}
