package org.bftws.client.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;

/**
 * An Axis2 repository directory: {@code axis2.xml}, {@code modules/*.mar}, {@code services/*.aar}. Replicas
 * and clients each need one (docs/design/architecture.md); a test or a script assembles it from the artifacts the Maven
 * build produced, instead of depending on an Axis2 distribution.
 *
 * <p>Axis2 derives a module's name from its file name, so {@code bftws.mar} must keep that name.
 */
public final class Axis2Repository {
    /** Name of the configuration file inside the repository. */
    public static final String AXIS2_XML = "axis2.xml";

    private final Path root;
    private final Path axis2Xml;

    private Axis2Repository(Path root, Path axis2Xml) {
        this.root = root;
        this.axis2Xml = axis2Xml;
    }

    /** Starts a repository in {@code root}, which is created if missing. */
    public static Builder at(Path root) {
        return new Builder(root);
    }

    /** Opens an existing repository directory. */
    public static Axis2Repository existing(Path root) {
        if (!Files.isRegularFile(root.resolve(AXIS2_XML))) {
            throw new IllegalArgumentException("no " + AXIS2_XML + " in " + root);
        }
        return new Axis2Repository(root, root.resolve(AXIS2_XML));
    }

    public Path root() {
        return root;
    }

    public Path axis2Xml() {
        return axis2Xml;
    }

    /**
     * Deploys the repository into a new Axis2 ConfigurationContext (modules are initialised, so a bad
     * bftws.* parameter fails here). Uses the file system configurator, as docs/design/dependencies.md prescribes.
     */
    public ConfigurationContext createConfigurationContext() throws AxisFault {
        return ConfigurationContextFactory.createConfigurationContextFromFileSystem(root.toString(),
                axis2Xml().toString());
    }

    /** Copies files into place; each method may be called any number of times. */
    public static final class Builder {
        private final Path root;
        private Path axis2Xml;
        private String axis2XmlName = AXIS2_XML;

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
        }

        /** The axis2.xml to use (e.g. conf/axis2-replica.xml); it is copied as {@value #AXIS2_XML}, see {@link #axis2XmlAt}. */
        public Builder axis2Xml(Path source) {
            this.axis2Xml = source;
            return this;
        }

        /**
         * Where axis2.xml goes, relative to the root: {@value #AXIS2_XML} by default; {@code conf/axis2.xml}
         * in a web application's WEB-INF, where Axis2's servlet looks for it first.
         */
        public Builder axis2XmlAt(String relativePath) {
            this.axis2XmlName = relativePath;
            return this;
        }

        /** A module archive, copied under its own file name into modules/. */
        public Builder module(Path mar) throws IOException {
            return copyInto("modules", mar);
        }

        /** A service archive, copied under its own file name into services/. */
        public Builder service(Path aar) throws IOException {
            return copyInto("services", aar);
        }

        /** Writes axis2.xml and returns the repository. */
        public Axis2Repository build() throws IOException {
            if (axis2Xml == null) {
                throw new IllegalStateException("axis2Xml(...) was not given");
            }
            Path target = root.resolve(axis2XmlName);
            Files.createDirectories(target.getParent());
            Files.copy(axis2Xml, target, StandardCopyOption.REPLACE_EXISTING);
            return new Axis2Repository(root, target);
        }

        private Builder copyInto(String dir, Path archive) throws IOException {
            if (!Files.isRegularFile(archive)) {
                throw new IOException("no such archive: " + archive);
            }
            Path target = root.resolve(dir);
            Files.createDirectories(target);
            Files.copy(archive, target.resolve(archive.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            return this;
        }
    }
}
