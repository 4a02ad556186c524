package org.bftws.module.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.bftws.core.config.ConfigKey;
import org.junit.Test;

/**
 * The "Configuration reference" table of docs/configuration.md names exactly the declared keys ({@link BftwsParameters#DECLARED}:
 * the module's and core's), each once, with each key's declared default and readers, so the documentation
 * cannot drift from the code.
 */
public class ConfigReferenceTest {
    static final String HEADING = "## Configuration reference";

    @Test
    public void theReferenceTableNamesExactlyTheDeclaredKeys() throws IOException {
        List<String> documented = tableKeys(Files.readAllLines(reference()));
        Set<String> declared = new TreeSet<>(BftwsParameters.KEYS);
        Set<String> missing = new TreeSet<>(declared);
        missing.removeAll(documented);
        Set<String> undeclared = new TreeSet<>(documented);
        undeclared.removeAll(declared);
        assertTrue("declared but missing from docs/configuration.md's table: " + missing, missing.isEmpty());
        assertTrue("in docs/configuration.md's table but not declared: " + undeclared, undeclared.isEmpty());
        assertEquals("a key listed twice in " + documented, declared.size(), documented.size());
    }

    /** The default column starts with the declared default as written in axis2.xml ("none" for no default). */
    @Test
    public void eachRowShowsTheDeclaredDefaultAndReaders() throws IOException {
        Map<String, String[]> rows = new HashMap<>();
        for (String[] row : tableRows(Files.readAllLines(reference()))) {
            rows.put(key(row), row);
        }
        for (ConfigKey<?> k : BftwsParameters.DECLARED) {
            String[] row = rows.get(k.name());
            assertNotNull("no row for " + k.name(), row);
            assertEquals("default of " + k.name(), k.defaultText(), row[2].trim().split(" ")[0]);
            assertEquals("who reads " + k.name() + " (" + k.scope() + ")", k.scope().readers(), row[4].trim());
        }
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
        for (String[] row : tableRows(lines)) {
            keys.add(key(row));
        }
        return keys;
    }

    /** The cells of the first table after {@link #HEADING} (cell 1 is the key), header rows skipped. */
    static List<String[]> tableRows(List<String> lines) {
        List<String[]> rows = new ArrayList<>();
        int i = lines.indexOf(HEADING);
        if (i < 0) {
            return rows;
        }
        while (++i < lines.size() && !lines.get(i).startsWith("|")) {
            // the section's prose before its table
        }
        for (int row = 0; i < lines.size() && lines.get(i).startsWith("|"); i++, row++) {
            if (row >= 2) { // the header and its |---| line
                rows.add(lines.get(i).split("\\|"));
            }
        }
        return rows;
    }

    private static String key(String[] row) {
        return row[1].trim().replace("`", "");
    }

    /** ../docs/configuration.md from the module's base directory (Surefire sets basedir; else the working directory). */
    private static Path reference() {
        Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        Path reference = base.resolve("../docs/configuration.md").normalize();
        assertTrue("no configuration reference at " + reference, Files.isRegularFile(reference));
        return reference;
    }
}
