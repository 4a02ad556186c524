package org.bftws.core.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** Each kind of key parses its text, writes it back the same way, and names itself and its rule when refused. */
public class ConfigKeyTest {
  enum Colour { RED, DARK_BLUE }

  private static final ConfigKey<Colour> COLOUR =
      ConfigKey.choice("test.colour", ConfigScope.INSTANCE, Colour.class, Colour.RED);
  private static final ConfigKey<Integer> COUNT = ConfigKey.integer("test.count", ConfigScope.REPLICA, 3, 1, 9);
  private static final ConfigKey<URI> URL = ConfigKey.httpUrl("test.url", ConfigScope.GROUP);
  private static final ConfigKey<List<Integer>> EVENS = ConfigKey.list("test.evens", ConfigScope.CLIENT,
      ConfigKeyTest::even, String::valueOf, "even integers");

  private static Integer even(String text) {
    int v = Integer.parseInt(text);
    if (v % 2 != 0) {
      throw new ConfigKey.Refused("is odd");
    }
    return v;
  }

  @Test
  public void choicesAreWrittenInLowerCaseWithDashesAndMatchedInAnyCase() {
    assertEquals(Colour.DARK_BLUE, COLOUR.parse(" Dark-Blue "));
    assertEquals("dark-blue", COLOUR.text(Colour.DARK_BLUE));
    assertEquals("red", COLOUR.defaultText());
    ConfigException e = assertThrows(ConfigException.class, () -> COLOUR.parse("green"));
    assertEquals("test.colour", e.key());
    assertTrue(e.getMessage(), e.getMessage().contains("one of red|dark-blue"));
  }

  @Test
  public void integersKeepToTheirInclusiveRange() {
    assertEquals(1, (int) COUNT.parse("1"));
    assertEquals(9, (int) COUNT.parse("9"));
    ConfigException e = assertThrows(ConfigException.class, () -> COUNT.parse("10"));
    assertTrue(e.getMessage(), e.getMessage().contains("'10'") && e.getMessage().contains("between 1 and 9"));
    assertThrows(ConfigException.class, () -> COUNT.parse("three"));
    assertEquals(ConfigScope.REPLICA, COUNT.scope());
  }

  @Test
  public void booleansAreTrueOrFalseInAnyCase() {
    ConfigKey<Boolean> flag = ConfigKey.bool("test.flag", ConfigScope.GROUP, false);
    assertTrue(flag.parse("TRUE"));
    assertFalse(flag.parse("false"));
    assertThrows(ConfigException.class, () -> flag.parse("yes"));
  }

  @Test
  public void urlsNeedAnHttpSchemeAndAHostAndHaveNoDefault() {
    assertEquals(URI.create("https://h:8/a"), URL.parse("https://h:8/a"));
    assertNull(URL.defaultValue());
    assertEquals("none", URL.defaultText());
    assertTrue(assertThrows(ConfigException.class, () -> URL.parse("mailto:x@y")).getMessage()
        .contains("lacks an http(s) scheme or a host"));
    assertTrue(assertThrows(ConfigException.class, () -> URL.parse("http://bad host/")).getMessage()
        .contains("is not a URL"));
  }

  @Test
  public void aListNamesTheEntryItRefusesAndWhy() {
    assertEquals(List.of(2, 4, 6), EVENS.parse("2, 4\n6"));
    assertEquals("2 4", EVENS.text(List.of(2, 4)));
    ConfigException e = assertThrows(ConfigException.class, () -> EVENS.parse("2 3"));
    assertTrue(e.getMessage(), e.getMessage().contains("entry '3', which is odd"));
    assertTrue(e.getMessage(), e.getMessage().contains("even integers"));
    assertTrue(assertThrows(ConfigException.class, () -> EVENS.parse("2 x")).getMessage()
        .contains("invalid entry 'x'"));
  }

  @Test
  public void valuesReadGivenKeysAndFallBackToDefaults() {
    ConfigKey<Path> file = ConfigKey.path("test.file", ConfigScope.INSTANCE);
    ConfigValues v = ConfigValues.read(Map.of("test.count", "5", "test.url", "  ", "other", "x"),
        List.of(COUNT, URL, COLOUR, file));
    assertEquals(5, (int) v.get(COUNT));
    assertTrue(v.isSet(COUNT));
    assertFalse("a blank value is no value", v.isSet(URL));
    assertNull(v.get(URL));
    assertEquals(Colour.RED, v.get(COLOUR));
    assertEquals(7, (int) v.with(COUNT, 7).get(COUNT));
    assertThrows(ConfigException.class, () -> v.with(COUNT, 0));
  }
}
