package org.bftws.client.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import javax.servlet.ServletConfig;
import javax.servlet.ServletException;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.transport.http.AxisServlet;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;

/**
 * An Axis2 web application in an embedded servlet container: Tomcat 9 (javax.servlet, as Axis2 1.7 needs)
 * with Axis2's {@link AxisServlet} mapped at {@value #SERVLET_MAPPING} in the context {@value #CONTEXT_PATH},
 * so services answer at {@code http://127.0.0.1:PORT/axis2/services/NAME} as in the Axis2 WAR and as with
 * {@link EmbeddedAxis2Server}. The servlet reads its repository from the web application directory the way
 * it does in any WAR: {@code WEB-INF/conf/axis2.xml}, {@code WEB-INF/modules/}, {@code WEB-INF/services/}
 * (see {@link #webApplication}).
 *
 * <p>The root context answers the GET paths registered for the application's Axis2 instance
 * ({@link org.bftws.module.http.HttpRoutes}, such as {@code /metrics}), through {@link HttpRoutesServlet}.
 *
 * <p>The connector binds 127.0.0.1 only. {@link #start} returns once the servlet initialised Axis2 (the
 * modules included, so a bad {@code bftws.*} parameter fails it) and the port accepts connections.
 */
public final class TomcatAxis2Server implements Axis2Server {
    /** The web application's context path: the {@code /axis2} of {@code /axis2/services/NAME}. */
    public static final String CONTEXT_PATH = "/axis2";
    /** AxisServlet's mapping, as in the Axis2 WAR's web.xml. */
    public static final String SERVLET_MAPPING = "/services/*";
    /** The servlet transport's listener; the servlet container, not Axis2, owns the socket. */
    static final String SERVLET_LISTENER = "<transportReceiver name=\"http\""
            + " class=\"org.apache.axis2.transport.http.AxisServletListener\"/>";
    private static final Pattern HTTP_RECEIVER = Pattern.compile(
            "<transportReceiver\\s+name=\"http\"[^>]*?(/>|>.*?</transportReceiver>)", Pattern.DOTALL);
    private static final String SERVLET_NAME = "AxisServlet";
    private static final String ROUTES_SERVLET_NAME = "HttpRoutes";
    /** Where AxisServlet looks for axis2.xml first, relative to WEB-INF. */
    private static final String WEB_INF_AXIS2_XML = "conf/axis2.xml";

    private final Tomcat tomcat;
    private final StandardContext webapp;
    private final int port;

    private TomcatAxis2Server(Tomcat tomcat, StandardContext webapp, int port) {
        this.tomcat = tomcat;
        this.webapp = webapp;
        this.port = port;
    }

    /**
     * Lays out a web application's repository under {@code webappDir}: {@code axis2Xml} as
     * {@code WEB-INF/conf/axis2.xml} with its HTTP transport receiver replaced by the servlet's
     * ({@link #servletTransport}); add modules and services to the returned builder.
     */
    public static Axis2Repository.Builder webApplication(Path webappDir, Path axis2Xml) throws IOException {
        Path webInf = webappDir.resolve("WEB-INF");
        Path servletXml = webInf.resolve(WEB_INF_AXIS2_XML);
        Files.createDirectories(servletXml.getParent());
        Files.writeString(servletXml, servletTransport(Files.readString(axis2Xml)));
        return Axis2Repository.at(webInf).axis2XmlAt(WEB_INF_AXIS2_XML).axis2Xml(servletXml);
    }

    /**
     * {@code axis2Xml} with its HTTP transport receiver replaced by (or, if it has none, given)
     * {@code AxisServletListener}. Under the servlet
     * a standalone receiver such as SimpleHTTPServer would be started by the servlet's listener manager and
     * open a second socket of its own (port 8080 in conf/axis2-replica.xml).
     */
    public static String servletTransport(String axis2Xml) {
        Matcher m = HTTP_RECEIVER.matcher(axis2Xml);
        if (m.find()) {
            return axis2Xml.substring(0, m.start()) + SERVLET_LISTENER + axis2Xml.substring(m.end());
        }
        int at = axis2Xml.indexOf("<phaseOrder"); // a client's axis2.xml may declare no receiver at all
        if (at < 0) {
            throw new IllegalArgumentException("axis2.xml has neither an http transportReceiver nor a <phaseOrder>");
        }
        return axis2Xml.substring(0, at) + SERVLET_LISTENER + "\n    " + axis2Xml.substring(at);
    }

    /**
     * Serves the web application in {@code webappDir} (laid out by {@link #webApplication}) on 127.0.0.1:{@code
     * port} (0: the operating system picks); Tomcat's own files go under {@code baseDir}. AxisServlet, Axis2 and
     * bftws come from this class's class path: the application has no WEB-INF/lib of its own.
     *
     * @throws IOException if Tomcat or the servlet (Axis2, its modules) fails to start; nothing keeps running
     */
    public static TomcatAxis2Server start(Path webappDir, int port, Path baseDir) throws IOException {
        RecordingAxisServlet servlet = new RecordingAxisServlet();
        return start(webappDir, port, baseDir, servlet, () -> servlet.failure);
    }

    /**
     * As {@link #start}, but as an installed Axis2 web application is run: AxisServlet is loaded by name through
     * the application's own class loader, whose parent holds only the JDK and the container
     * ({@link ContainerClassLoader}), so Axis2, Sandesha2, bftws and everything they need must come from the
     * application's {@code WEB-INF/lib}. {@link #context()} is then null: the Axis2 context's
     * classes are the application's, not this caller's.
     */
    public static TomcatAxis2Server startInstalled(Path webappDir, int port, Path baseDir) throws IOException {
        return start(webappDir, port, baseDir, null, () -> null);
    }

    private static TomcatAxis2Server start(Path webappDir, int port, Path baseDir, AxisServlet servlet,
            Supplier<ServletException> servletFailure) throws IOException {
        Tomcat tomcat = new Tomcat();
        tomcat.setSilent(true);
        tomcat.setBaseDir(baseDir.toAbsolutePath().toString());
        Connector connector = new Connector();
        connector.setPort(port);
        connector.setProperty("address", EmbeddedAxis2Server.LOOPBACK);
        tomcat.setConnector(connector);
        StandardContext webapp = (StandardContext) tomcat.addContext(CONTEXT_PATH, webappDir.toAbsolutePath().toString());
        // Leak hunting after a redeploy is moot for a stopped embedded server, and on Java 17 it only logs
        // that it lacks --add-opens.
        webapp.setClearReferencesObjectStreamClassCaches(false);
        webapp.setClearReferencesRmiTargets(false);
        webapp.setClearReferencesThreadLocals(false);
        if (servlet == null) {
            webapp.setParentClassLoader(new ContainerClassLoader(Tomcat.class.getClassLoader()));
        }
        Wrapper wrapper = servlet == null ? Tomcat.addServlet(webapp, SERVLET_NAME, AxisServlet.class.getName())
                : Tomcat.addServlet(webapp, SERVLET_NAME, servlet);
        wrapper.setLoadOnStartup(1); // initialise Axis2 (and start the replica) now, not on the first request
        webapp.addServletMappingDecoded(SERVLET_MAPPING, SERVLET_NAME);
        addRoutesContext(tomcat, baseDir, webapp);
        try {
            tomcat.start();
            if (servletFailure.get() != null) {
                throw new IOException("AxisServlet failed to start: " + rootMessage(servletFailure.get()),
                        servletFailure.get());
            }
            if (servlet == null) {
                wrapper.deallocate(wrapper.allocate()); // a failed load-on-startup is retried here, and thrown
            }
            if (webapp.getState() != LifecycleState.STARTED || connector.getLocalPort() <= 0) {
                throw new IOException("Tomcat did not start the web application " + CONTEXT_PATH + " on port " + port);
            }
            return new TomcatAxis2Server(tomcat, webapp, connector.getLocalPort());
        } catch (ServletException e) {
            stopQuietly(tomcat);
            throw new IOException("AxisServlet failed to start: " + rootMessage(e), e);
        } catch (LifecycleException | IOException | RuntimeException e) {
            stopQuietly(tomcat);
            throw e instanceof IOException io ? io : new IOException("Tomcat failed to start: " + e, e);
        }
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String serviceUrl(String serviceName) {
        return "http://" + EmbeddedAxis2Server.LOOPBACK + ":" + port + CONTEXT_PATH + "/services/" + serviceName;
    }

    /**
     * The servlet's Axis2 context, published as a servlet context attribute by AxisServlet; null when Axis2
     * runs from the application's WEB-INF/lib ({@link #startInstalled}).
     */
    @Override
    public ConfigurationContext context() {
        return axis2Context(webapp);
    }

    private static ConfigurationContext axis2Context(StandardContext webapp) {
        Object context = webapp.getServletContext().getAttribute(AxisServlet.CONFIGURATION_CONTEXT);
        return context instanceof ConfigurationContext c ? c : null;
    }

    /**
     * The root context: the GET paths registered for the application's Axis2 instance ({@code /metrics}, ...) on
     * the same port as with {@link EmbeddedAxis2Server}; 404 for anything else outside {@value #CONTEXT_PATH}.
     */
    private static void addRoutesContext(Tomcat tomcat, Path baseDir, StandardContext webapp) throws IOException {
        Path docBase = Files.createDirectories(baseDir.resolve("root"));
        Context root = tomcat.addContext("", docBase.toAbsolutePath().toString());
        Tomcat.addServlet(root, ROUTES_SERVLET_NAME, new HttpRoutesServlet(() -> axis2Context(webapp)));
        root.addServletMappingDecoded("/", ROUTES_SERVLET_NAME);
    }

    /** Stops Tomcat; AxisServlet's destroy terminates the Axis2 context, which shuts the modules down. */
    @Override
    public void close() throws AxisFault {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new AxisFault("stopping Tomcat: " + e.getMessage(), e);
        }
    }

    private static void stopQuietly(Tomcat tomcat) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException | RuntimeException e) {
            // already failing; the start-up failure is the one to report
        }
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }

    /**
     * AxisServlet that keeps its initialisation failure: Tomcat only logs it, and the caller needs the message
     * (a wrong {@code bftws.*} value names its key there).
     */
    private static final class RecordingAxisServlet extends AxisServlet {
        private static final long serialVersionUID = 1L;
        private transient volatile ServletException failure;

        @Override
        public void init(ServletConfig config) throws ServletException {
            try {
                super.init(config);
            } catch (ServletException e) {
                failure = e;
                throw e;
            }
        }
    }
}
