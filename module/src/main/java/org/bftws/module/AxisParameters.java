package org.bftws.module;

import java.util.HashMap;
import java.util.Map;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.AxisConfiguration;

/** Turns the {@code <parameter>}s of axis2.xml into the plain text map {@code BftwsParameters} reads. */
final class AxisParameters {
    private AxisParameters() {
    }

    static Map<String, String> asMap(AxisConfiguration axisConfig) {
        Map<String, String> map = new HashMap<>();
        for (Parameter p : axisConfig.getParameters()) {
            map.put(p.getName(), text(p.getValue()));
        }
        return map;
    }

    /** Simple parameters arrive as String; one with child elements arrives as its element. */
    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof OMElement) {
            return ((OMElement) value).getText();
        }
        return value.toString();
    }
}
