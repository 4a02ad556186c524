package org.bftws.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results' CSV dialect: a header line, then one line per row; fields never contain commas, quotes or
 * line breaks (writers replace commas with ';'), so no quoting is needed and any spreadsheet reads it.
 */
public final class Csv {
    private Csv() {
    }

    /** A row read back, by column name. */
    public record Row(Map<String, String> fields) {
        public String get(String column) {
            String v = fields.get(column);
            return v == null ? "" : v;
        }

        public double number(String column) {
            String v = get(column);
            return v.isEmpty() ? Double.NaN : Double.parseDouble(v);
        }
    }

    /** Reads a CSV written in this dialect; an absent file reads as no rows. */
    public static List<Row> read(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return rows;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return rows;
        }
        String[] header = lines.get(0).split(",", -1);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                m.put(header[i], i < f.length ? f[i] : "");
            }
            rows.add(new Row(m));
        }
        return rows;
    }

    /** One field: commas become ';', line breaks become spaces. */
    public static String field(Object value) {
        return String.valueOf(value).replace(',', ';').replace('\n', ' ').replace('\r', ' ');
    }

    /** Writes the header and the rows (each already a list of fields) to {@code file}, replacing it. */
    public static void write(Path file, List<String> header, List<List<String>> rows) throws IOException {
        StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
        for (List<String> row : rows) {
            List<String> clean = new ArrayList<>();
            for (String f : row) {
                clean.add(field(f));
            }
            sb.append(String.join(",", clean)).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }
}
