package org.bftws.core.keys;

import java.nio.file.Path;

/** A key file is missing, malformed or inconsistent; the message names the file and the field at fault. */
public class KeyFileException extends Exception {
  private final Path file;
  private final String field;

  public KeyFileException(Path file, String field, String problem) {
    super(file + ": field '" + field + "': " + problem);
    this.file = file;
    this.field = field;
  }

  public Path file() {
    return file;
  }

  /** The field at fault ("(file)" when the file as a whole cannot be read). */
  public String field() {
    return field;
  }
}
