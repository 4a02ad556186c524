package org.bftws.client.embedded;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The parent class loader a servlet container gives its web applications: the JDK and the container's own
 * classes (Tomcat, the servlet API), nothing else. Under it, a web application sees only what its own
 * {@code WEB-INF/lib} holds, as when installed in a stand-alone Tomcat; without it, an embedded Tomcat's
 * applications would also see this JVM's class path (Axis2, the sample services, ...), so the application
 * would load some classes twice and a test would miss a jar missing from WEB-INF/lib.
 */
final class ContainerClassLoader extends ClassLoader {
    /** Packages of the container: Tomcat's and the javax.servlet API it implements. */
    private static final List<String> CONTAINER_PACKAGES = List.of("javax.servlet.", "org.apache.catalina.",
            "org.apache.coyote.", "org.apache.tomcat.", "org.apache.juli.", "org.apache.naming.");

    private final ClassLoader container;

    /** {@code container}: the loader of Tomcat's classes. */
    ContainerClassLoader(ClassLoader container) {
        super("servlet-container", ClassLoader.getPlatformClassLoader());
        this.container = container;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (isContainerClass(name)) {
            return container.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
        return isContainerClass(name.replace('/', '.')) ? container.getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return isContainerClass(name.replace('/', '.')) ? container.getResources(name) : Collections.emptyEnumeration();
    }

    private static boolean isContainerClass(String name) {
        for (String p : CONTAINER_PACKAGES) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
