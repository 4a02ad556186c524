package org.bftws.module.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.Test;

/**
 * Every relative link of README.md and docs/**&#47;*.md names a file or directory of the repository, so the
 * documentation cannot point at a page that moved. Fragments (#...) are not checked; links with a scheme
 * (http:, https:, mailto:) and links inside fenced code blocks are skipped.
 */
public class DocumentationLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    public void everyRelativeLinkOfTheDocumentationResolves() throws IOException {
        Path root = root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            for (String target : relativeLinks(Files.readAllLines(page))) {
                checked++;
                if (!Files.exists(page.getParent().resolve(target).normalize())) {
                    broken.add(root.relativize(page) + " -> " + target);
                }
            }
        }
        assertTrue("broken links: " + broken, broken.isEmpty());
        assertTrue("no links found: the pattern no longer matches the pages", checked > 20);
    }

    @Test
    public void linksAreTakenOutsideCodeOnlyWithoutFragmentsOrSchemes() {
        List<String> lines = List.of("See [a](docs/a.md#part) and [b](b/) and [web](https://example.org/x).",
                "[same page](#anchor) [mail](mailto:x@example.org)", "```", "[code](not/a/link.md)", "```",
                "[c](../c.md)");
        assertEquals(List.of("docs/a.md", "b/", "../c.md"), relativeLinks(lines));
    }

    /** The relative targets of the Markdown links in {@code lines}, fragment removed, fenced code skipped. */
    static List<String> relativeLinks(List<String> lines) {
        List<String> targets = new ArrayList<>();
        boolean code = false;
        for (String line : lines) {
            if (line.trim().startsWith("```")) {
                code = !code;
                continue;
            }
            Matcher m = LINK.matcher(line);
            while (!code && m.find()) {
                String target = m.group(1);
                int hash = target.indexOf('#');
                target = hash < 0 ? target : target.substring(0, hash);
                if (!target.isEmpty() && !target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    targets.add(target);
                }
            }
        }
        return targets;
    }

    /** The repository root: the module's base directory's parent (Surefire sets basedir). */
    private static Path root() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        Path root = base.resolve("..").normalize();
        assertTrue("no README at " + root, Files.isRegularFile(root.resolve("README.md")));
        return root;
    }
}
