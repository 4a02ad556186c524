package org.bftws.module.random;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.bftws.core.codec.DecodeException;
import org.bftws.core.message.Request;
import org.bftws.core.replication.ConfidentialOperations;
import org.bftws.core.replication.RandomizedOperations;
import org.bftws.core.pbft.ReadOnlyOperations;
import org.bftws.module.api.ApplicationRequest;
import org.bftws.module.invoker.GroupServices;

/**
 * The module's answers to core's "is this request randomized?" (integrity paper §4: the primary checks it,
 * backups verify it) and "is it read-only?" (Castro-Liskov §5.1.3: a replica executes a read-only request
 * without ordering only after checking so): the request's application operation (its service and action,
 * resolved as the Total Order Invoker will) is declared {@code <bftws:Randomized/>} or {@code
 * <bftws:ReadOnly/>} in the service's WSDL ({@link RandomizedDeclarations}). Every replica deploys the same
 * services, so every correct replica answers alike. Requests that are not application requests, or name no
 * deployed operation, are neither (they will execute as a fault).
 *
 * <p>Called on the Total Order Manager's thread; the declarations of a service are read once and cached
 * (redeploying a service with other declarations needs a replica restart).
 */
public final class DeclaredOperations implements RandomizedOperations, ReadOnlyOperations, ConfidentialOperations {
    private static final Logger LOG = LogManager.getLogger(DeclaredOperations.class);

    private record Declarations(Map<String, Integer> randomized, Set<String> readOnly, Set<String> confidential) {
        static final Declarations NONE = new Declarations(Map.of(), Set.of(), Set.of());
    }

    private final GroupServices services;
    private final Map<String, Declarations> byService = new ConcurrentHashMap<>();

    public DeclaredOperations(GroupServices services) {
        this.services = services;
    }

    @Override
    public boolean isRandomized(Request request) {
        return bits(request) > 0;
    }

    /** How many bits the request's operation declares (1..256), or 0 if it is not randomized. */
    public int bits(Request request) {
        Operation op = resolve(request);
        Integer bits = op == null ? null : op.declarations().randomized().get(op.name());
        return bits == null ? 0 : bits;
    }

    @Override
    public boolean isReadOnly(Request request) {
        Operation op = resolve(request);
        // a sealed payload must be ordered before it can be opened, whatever else is declared
        return op != null && op.declarations().readOnly().contains(op.name())
                && !op.declarations().confidential().contains(op.name());
    }

    /** Whether the request's operation is declared {@code <bftws:Confidential/>} (SINTRA §2.6). */
    public boolean isConfidential(Request request) {
        Operation op = resolve(request);
        return op != null && op.declarations().confidential().contains(op.name());
    }

    /**
     * A confidential operation's payload, whatever the client marked: a cleartext payload then fails the
     * ciphertext check alike at every replica and is never executed. Service and action stay in clear.
     */
    @Override
    public byte[] ciphertext(Request request) {
        return !request.terminates() && isConfidential(request)
                ? ApplicationRequest.decode(request.operation()).payload() : null;
    }

    @Override
    public Request opened(Request r, byte[] plaintext) {
        byte[] op = ApplicationRequest.decode(r.operation()).opened(plaintext).encode();
        return new Request(r.client(), r.sequenceId(), r.messageNumber(), r.randomized(), op);
    }

    private record Operation(String name, Declarations declarations) {
    }

    /** The request's operation and its service's declarations, or null if it names none. */
    private Operation resolve(Request request) {
        try {
            ApplicationRequest q = ApplicationRequest.decode(request.operation());
            AxisService service = services.service(q.service());
            AxisOperation op = GroupServices.operation(service, q.action());
            return new Operation(op.getName().getLocalPart(), declarations(service));
        } catch (DecodeException | AxisFault e) {
            return null;
        }
    }

    private Declarations declarations(AxisService service) {
        return byService.computeIfAbsent(service.getName(), name -> {
            try {
                Declarations d = new Declarations(Map.copyOf(RandomizedDeclarations.of(service)),
                        RandomizedDeclarations.readOnly(service), RandomizedDeclarations.confidential(service));
                LOG.info("service {}: randomized operations {}, read-only operations {}, confidential operations {}",
                        name, d.randomized().keySet(), d.readOnly(), d.confidential());
                return d;
            } catch (AxisFault e) {
                // Alike on every replica (same archive): the service's operations are then neither.
                LOG.error("{}; its operations are treated as neither randomized nor read-only", e.getMessage());
                return Declarations.NONE;
            }
        });
    }
}
