package org.bftws.samples.register;

import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;

/**
 * The fault campaign's negative control (docs/faults.md): a register that is deliberately wrong, each write
 * and successful cas storing one more than asked. Deployed on f+1 replicas ({@code register-faulty.aar}, built
 * from test sources and never shipped, in place of {@code register.aar}), the group's replies stop being
 * linearizable, which the campaign's checker must report.
 *
 * <p>No lambdas and no string {@code +}: Axis2 1.7 parses service bytecode (docs/design/dependencies.md).
 */
public class FaultyRegisterService extends RegisterService {
    private static final QName VALUE = new QName(NAMESPACE, "value");

    @Override
    public synchronized OMElement write(OMElement request) throws AxisFault {
        return super.write(oneMore(request));
    }

    @Override
    public synchronized OMElement cas(OMElement request) throws AxisFault {
        return super.cas(oneMore(request));
    }

    /** A copy of {@code request} whose value is one more (text that is not a number left as it is). */
    private static OMElement oneMore(OMElement request) {
        OMElement copy = request.cloneOMElement();
        Iterator<?> values = copy.getChildrenWithName(VALUE);
        while (values.hasNext()) {
            OMElement v = (OMElement) values.next();
            try {
                v.setText(Long.toString(Long.parseLong(v.getText()) + 1));
            } catch (NumberFormatException e) {
                // the register refuses it as it is
            }
        }
        return copy;
    }
}
