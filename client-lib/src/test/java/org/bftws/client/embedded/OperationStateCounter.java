package org.bftws.client.embedded;

import org.apache.axiom.om.OMElement;

/**
 * The counter whose state checkpoints reach through its own service operations {@code get_state} (returns
 * {@code <c:state>total</c:state>}) and {@code set_state} (receives that element), as a WSDL would declare
 * them (paper §3.3.1.8).
 */
public class OperationStateCounter extends CounterBase {
    public OMElement get_state(OMElement request) {
        return element("state", total());
    }

    public OMElement set_state(OMElement state) {
        replaceTotal(Long.parseLong(state.getText().trim()));
        return element("state", total());
    }
}
