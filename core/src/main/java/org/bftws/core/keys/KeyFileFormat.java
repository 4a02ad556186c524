package org.bftws.core.keys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The "name = value" text format shared by all key files (see package documentation). */
final class KeyFileFormat {
  static final String FILE = "(file)";

  private KeyFileFormat() {}

  /** The fields of one file, with accessors that report the file and field on error. */
  static final class Fields {
    private final Path file;
    private final Map<String, String> values;
    private final Set<String> used = new TreeSet<>();

    Fields(Path file, Map<String, String> values) {
      this.file = file;
      this.values = values;
    }

    Path file() {
      return file;
    }

    boolean has(String name) {
      return values.containsKey(name);
    }

    String string(String name) throws KeyFileException {
      String v = values.get(name);
      if (v == null) {
        throw new KeyFileException(file, name, "missing");
      }
      used.add(name);
      return v;
    }

    int integer(String name, int min, int max) throws KeyFileException {
      String v = string(name);
      try {
        int i = Integer.parseInt(v);
        if (i >= min && i <= max) {
          return i;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new KeyFileException(file, name, "expected an integer in " + min + ".." + max + ", got '" + v + "'");
    }

    byte[] base64(String name) throws KeyFileException {
      try {
        return Base64.getDecoder().decode(string(name));
      } catch (IllegalArgumentException e) {
        throw new KeyFileException(file, name, "not base64");
      }
    }

    void expect(String name, String value) throws KeyFileException {
      if (!string(name).equals(value)) {
        throw new KeyFileException(file, name, "expected '" + value + "', got '" + values.get(name) + "'");
      }
    }

    /** Rejects fields nobody read: a stray "threshold.vk.5" in a 4-replica group is an error, not noise. */
    void noOthers() throws KeyFileException {
      for (String name : values.keySet()) {
        if (!used.contains(name)) {
          throw new KeyFileException(file, name, "unexpected field");
        }
      }
    }

    KeyFileException error(String name, String problem) {
      return new KeyFileException(file, name, problem);
    }
  }

  static Fields read(Path file) throws KeyFileException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KeyFileException(file, FILE, "cannot read: " + e.getMessage());
    }
    return parse(file, text);
  }

  /** The fields of a key file's {@code text}; {@code file} names it in errors. */
  static Fields parse(Path file, String text) throws KeyFileException {
    Map<String, String> values = new LinkedHashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new KeyFileException(file, "line " + (i + 1), "expected 'name = value'");
      }
      String name = line.substring(0, eq).strip();
      if (values.put(name, line.substring(eq + 1).strip()) != null) {
        throw new KeyFileException(file, name, "appears twice");
      }
    }
    return new Fields(file, values);
  }

  /** Builds the text of a key file. */
  static final class Builder {
    private final StringBuilder out = new StringBuilder();

    Builder comment(String text) {
      out.append("# ").append(text).append('\n');
      return this;
    }

    Builder field(String name, Object value) {
      out.append(name).append(" = ").append(value).append('\n');
      return this;
    }

    Builder base64(String name, byte[] value) {
      return field(name, Base64.getEncoder().encodeToString(value));
    }

    String text() {
      return out.toString();
    }
  }

  /**
   * Creates {@code file} (never overwriting) and writes {@code text}; private files get mode 0600 from their
   * creation on, so no other user can open them even for a moment.
   */
  static void create(Path file, String text, boolean secret) throws IOException {
    if (Files.exists(file)) {
      throw new FileAlreadyExistsException(file.toString());
    }
    boolean posix = file.toAbsolutePath().getParent().getFileSystem().supportedFileAttributeViews().contains("posix");
    if (posix) {
      String mode = secret ? "rw-------" : "rw-r--r--";
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
    } else {
      Files.createFile(file);
    }
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
