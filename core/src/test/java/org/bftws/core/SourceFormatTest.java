package org.bftws.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The one source format of every module (the repository's {@code .editorconfig}), checked over the whole
 * tree's Java sources: spaces only, no trailing whitespace, LF line ends and a final newline; leading spaces a
 * multiple of the module's indent, 2 in core and sim and 4 elsewhere (a block comment's {@code *} lines one
 * more; a text block's lines are its content and free).
 */
public class SourceFormatTest {
  private static final List<String> TWO_SPACE_MODULES = List.of("core", "sim");

  /** The module directories' parent: the repository root (Maven runs tests in the module's directory). */
  private static Path root() {
    Path here = Path.of("").toAbsolutePath();
    return Files.exists(here.resolve("../pom.xml")) && Files.isDirectory(here.resolve("../core"))
        ? here.getParent() : here;
  }

  @Test
  public void everyJavaSourceHasItsModulesFormat() throws IOException {
    Path root = root();
    List<String> problems = new ArrayList<>();
    int files = 0;
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.filter(SourceFormatTest::isSource).toList()) {
        files++;
        String module = root.relativize(p).getName(0).toString();
        int indent = TWO_SPACE_MODULES.contains(module) ? 2 : 4;
        for (String problem : problems(Files.readString(p, StandardCharsets.UTF_8), indent)) {
          problems.add(root.relativize(p) + ":" + problem);
        }
      }
    }
    assertTrue("found the sources under " + root, files > 100);
    assertEquals("format (.editorconfig): " + String.join("\n", problems.subList(0, Math.min(20, problems.size()))),
        0, problems.size());
  }

  @Test
  public void theCheckFindsEachKindOfProblem() {
    String text = "class A {\n   int a;\n\tint b;\n  int c; \n  /**\n   * doc\n   */\n  String s = \"\"\"\n"
        + "       free\n      \"\"\";\r\n  int d;";
    List<String> found = problems(text, 2);
    assertEquals(found.toString(), List.of("2: indent 3 is not a multiple of 2", "3: tab", "4: trailing whitespace",
        "10: CR line end", "11: no final newline"), found);
    assertEquals(List.of(), problems("class A {\n    int a;\n}\n", 4));
    assertEquals(List.of("2: indent 2 is not a multiple of 4"), problems("class A {\n  int a;\n}\n", 4));
  }

  private static boolean isSource(Path p) {
    String s = p.toString().replace('\\', '/');
    return s.endsWith(".java") && s.contains("/src/") && !s.contains("/target/") && !s.contains("/.git/");
  }

  /** What breaks the format in {@code text} with indent {@code indent}: "line: what". */
  static List<String> problems(String text, int indent) {
    List<String> out = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    boolean inComment = false;
    boolean inTextBlock = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int no = i + 1;
      if (i == lines.length - 1) {
        if (!line.isEmpty()) {
          out.add(no + ": no final newline");
        }
        break;
      }
      if (line.endsWith("\r")) {
        out.add(no + ": CR line end");
        line = line.substring(0, line.length() - 1);
      }
      String body = line.stripLeading();
      int lead = line.length() - body.length();
      if (line.substring(0, lead).indexOf('\t') >= 0) {
        out.add(no + ": tab");
      } else if (!body.isEmpty() && !inTextBlock) {
        int n = inComment && body.startsWith("*") ? lead - 1 : lead;
        if (n % indent != 0) {
          out.add(no + ": indent " + lead + " is not a multiple of " + indent);
        }
      }
      if (!body.isEmpty() && Character.isWhitespace(line.charAt(line.length() - 1))) {
        out.add(no + ": trailing whitespace");
      }
      inTextBlock ^= count(line, "\"\"\"") % 2 == 1;
      if (!inTextBlock) {
        int open = line.lastIndexOf("/*");
        int close = line.lastIndexOf("*/");
        if (open > close) {
          inComment = true;
        } else if (close >= 0) {
          inComment = false;
        }
      }
    }
    return out;
  }

  private static int count(String s, String part) {
    int n = 0;
    for (int at = s.indexOf(part); at >= 0; at = s.indexOf(part, at + part.length())) {
      n++;
    }
    return n;
  }
}
