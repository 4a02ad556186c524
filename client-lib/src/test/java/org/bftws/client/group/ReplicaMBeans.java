package org.bftws.client.group;

import java.lang.management.ManagementFactory;
import java.net.URI;

import javax.management.JMException;
import javax.management.ObjectName;

import org.bftws.module.order.ReplicaStatus;

/** A launched group's replica status MBeans in this JVM, read as a JMX client reads them. */
final class ReplicaMBeans {
    private ReplicaMBeans() {
    }

    /** The status MBean of replica {@code r} of the launched group. */
    static ObjectName name(int r) {
        return ReplicaStatus.objectName(URI.create(GroupLauncher.GROUP_ENDPOINT), r);
    }

    /** Attribute {@code name} of replica {@code r}'s status MBean; a failed read fails the test. */
    static Object attribute(int r, String name) {
        try {
            return ManagementFactory.getPlatformMBeanServer().getAttribute(name(r), name);
        } catch (JMException e) {
            throw new AssertionError("replica " + r + "'s " + name, e);
        }
    }
}
