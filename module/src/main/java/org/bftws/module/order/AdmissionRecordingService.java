package org.bftws.module.order;

import org.bftws.core.message.Request;

/**
 * The replicated service as the Total Order Manager sees it, telling {@link RequestAdmission} which
 * sequences the group ordered requests of: a replica that missed a CreateSequence (it was down) admits the
 * sequence's later requests once the group has agreed on one (paper §3.3.1.1: all replicas refer to the
 * sequence alike). Execution itself is unchanged.
 */
final class AdmissionRecordingService implements ReplicatedService {
    private final ReplicatedService service;
    private final RequestAdmission admission;

    AdmissionRecordingService(ReplicatedService service, RequestAdmission admission) {
        this.service = service;
        this.admission = admission;
    }

    @Override
    public byte[] execute(Request request, byte[] random) {
        admission.ordered(request.sequenceId());
        return service.execute(request, random);
    }

    @Override
    public byte[] getState() {
        return service.getState();
    }

    @Override
    public void setState(byte[] state) {
        service.setState(state);
    }
}
