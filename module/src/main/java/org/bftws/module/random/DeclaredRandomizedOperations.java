package org.bftws.module.random;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Request;
import org.bftws.core.pbft.RandomizedOperations;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.invoker.GroupServices;

/**
 * The module's answer to core's "is this request randomized?" (integrity paper §4: the primary checks it,
 * backups verify it): the request's application operation (its service and action, resolved as the Total
 * Order Invoker will) is declared randomized in the service's WSDL ({@link RandomizedDeclarations}). Every
 * replica deploys the same services, so every correct replica answers alike. Requests that are not
 * application requests, or name no deployed operation, are not randomized (they will execute as a fault).
 *
 * <p>Called on the Total Order Manager's thread; the declarations of a service are read once and cached
 * (redeploying a service with other declarations needs a replica restart).
 */
public final class DeclaredRandomizedOperations implements RandomizedOperations {
    private static final Logger LOG = LogManager.getLogger(DeclaredRandomizedOperations.class);

    private final GroupServices services;
    private final Map<String, Map<String, Integer>> byService = new ConcurrentHashMap<>();

    public DeclaredRandomizedOperations(GroupServices services) {
        this.services = services;
    }

    @Override
    public boolean isRandomized(Request request) {
        return bits(request) > 0;
    }

    /** How many bits the request's operation declares (1..256), or 0 if it is not randomized. */
    public int bits(Request request) {
        try {
            ApplicationRequest q = ApplicationRequest.decode(request.operation());
            AxisService service = services.service(q.service());
            AxisOperation op = GroupServices.operation(service, q.action());
            Integer bits = declarations(service).get(op.getName().getLocalPart());
            return bits == null ? 0 : bits;
        } catch (DecodeException | AxisFault e) {
            return 0;
        }
    }

    private Map<String, Integer> declarations(AxisService service) {
        return byService.computeIfAbsent(service.getName(), name -> {
            try {
                Map<String, Integer> d = Map.copyOf(RandomizedDeclarations.of(service));
                LOG.info("service {}: randomized operations {}", name, d.keySet());
                return d;
            } catch (AxisFault e) {
                // Alike on every replica (same archive): the service's operations are then not randomized.
                LOG.error("{}; its operations are treated as not randomized", e.getMessage());
                return Map.of();
            }
        });
    }
}
