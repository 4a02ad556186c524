package org.bftws.module.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.Test;

/**
 * The README's "Configuration reference" table names exactly the declared keys ({@link BftwsParameters#KEYS}:
 * the module's and core's), each once, so the documentation cannot drift from the code.
 */
public class ConfigReferenceTest {
    static final String HEADING = "## Configuration reference";

    @Test
    public void theReadmeTableNamesExactlyTheDeclaredKeys() throws IOException {
        List<String> documented = tableKeys(Files.readAllLines(readme()));
        Set<String> declared = new TreeSet<>(BftwsParameters.KEYS);
        Set<String> missing = new TreeSet<>(declared);
        missing.removeAll(documented);
        Set<String> undeclared = new TreeSet<>(documented);
        undeclared.removeAll(declared);
        assertTrue("declared but missing from the README's table: " + missing, missing.isEmpty());
        assertTrue("in the README's table but not declared: " + undeclared, undeclared.isEmpty());
        assertEquals("a key listed twice in " + documented, declared.size(), documented.size());
    }

    @Test
    public void theTableIsReadFromItsOwnSectionOnly() {
        List<String> lines = List.of("| key | default |", "|---|---|", "| `bftws.elsewhere` | 1 |", "",
                HEADING, "", "text", "| key | default |", "|---|---|", "| `bftws.f` | 1 |", "| `bftws.role` | x |",
                "", "| `bftws.later` | 2 |");
        assertEquals(List.of("bftws.f", "bftws.role"), tableKeys(lines));
        assertFalse(tableKeys(List.of(HEADING, "no table")).iterator().hasNext());
    }

    /** The first column of the first table after {@link #HEADING}, back-quotes removed, header rows skipped. */
    static List<String> tableKeys(List<String> lines) {
        List<String> keys = new ArrayList<>();
        int i = lines.indexOf(HEADING);
        if (i < 0) {
            return keys;
        }
        while (++i < lines.size() && !lines.get(i).startsWith("|")) {
            // the section's prose before its table
        }
        for (int row = 0; i < lines.size() && lines.get(i).startsWith("|"); i++, row++) {
            if (row >= 2) { // the header and its |---| line
                keys.add(lines.get(i).split("\\|")[1].trim().replace("`", ""));
            }
        }
        return keys;
    }

    /** ../docs/configuration.md from the module's base directory (Surefire sets basedir; else the working directory). */
    private static Path readme() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        Path readme = base.resolve("../docs/configuration.md").normalize();
        assertTrue("no README at " + readme, Files.isRegularFile(readme));
        return readme;
    }
}
