package org.bftws.client.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code GET /metrics} as Prometheus scrapes it, checked against the text exposition format (every sample's
 * family declared by HELP and TYPE before it, counters named {@code _total}, values numbers) and parsed into
 * series: the name and its own labels, without the constant {@code group} and {@code replica} labels.
 */
final class MetricsScrape {
    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (-?[0-9.]+(?:[eE][-+]?[0-9]+)?|[+-]Inf|NaN)");
    private static final Pattern CONSTANT = Pattern.compile("group=\"[^\"]*\",replica=\"[0-9]+\",?");
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Map<String, Double> series = new HashMap<>();

    private MetricsScrape(String text) {
        Map<String, String> types = new HashMap<>();
        Set<String> helped = new HashSet<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                helped.add(line.split(" ")[2]);
            } else if (line.startsWith("# TYPE ")) {
                String[] p = line.split(" ");
                assertEquals(line, null, types.put(p[2], p[3]));
                assertTrue(line, helped.contains(p[2]));
                assertTrue(line, !p[3].equals("counter") || p[2].endsWith("_total"));
            } else {
                Matcher m = SAMPLE.matcher(line);
                assertTrue("a sample line: " + line, m.matches());
                String name = m.group(1);
                String family = name.replaceAll("_(bucket|sum|count)$", "");
                assertTrue("declared before its samples: " + line, types.containsKey(name)
                        || "histogram".equals(types.get(family)));
                String labels = m.group(3) == null ? "" : CONSTANT.matcher(m.group(3)).replaceFirst("");
                series.put(labels.isEmpty() ? name : name + "{" + labels + "}", Double.parseDouble(
                        m.group(4).replace("+Inf", "Infinity").replace("-Inf", "-Infinity")));
            }
        }
    }

    /** Scrapes {@code url}, checking the status and content type Prometheus expects. */
    static MetricsScrape of(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(url, 200, r.statusCode());
        assertTrue(r.headers().toString(), r.headers().firstValue("Content-Type").orElse("")
                .startsWith("text/plain; version=0.0.4"));
        return new MetricsScrape(r.body());
    }

    /** {@code http://127.0.0.1:PORT/metrics}. */
    static String url(int port) {
        return "http://127.0.0.1:" + port + "/metrics";
    }

    /** The series' value; fails if it is not there. */
    double value(String key) {
        Double v = series.get(key);
        if (v == null) {
            throw new AssertionError("no series " + key + " in " + series.keySet());
        }
        return v;
    }

    boolean has(String key) {
        return series.containsKey(key);
    }
}
