package org.bftws.perf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;

/** PNG charts with XChart (pure Java, headless). */
final class Plots {
    private Plots() {
    }

    /** Grouped bars: one group per category, one bar per series; series must cover every category. */
    static void bars(Path png, String title, String xTitle, String yTitle, boolean logY, List<String> categories,
            Map<String, List<Double>> series) throws IOException {
        bars(png, title, xTitle, yTitle, logY, categories, series, LegendPosition.InsideNW);
    }

    /** As above, with the legend where it hides no bar (e.g. {@code OutsideE} when the first bars are tall). */
    static void bars(Path png, String title, String xTitle, String yTitle, boolean logY, List<String> categories,
            Map<String, List<Double>> series, LegendPosition legend) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(520).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(legend);
        chart.getStyler().setYAxisLogarithmic(logY);
        if (logY) {
            // XChart's bars start at the axis minimum, which must be positive on a log axis
            double min = series.values().stream().flatMap(List::stream).mapToDouble(Double::doubleValue)
                    .filter(d -> d > 0).min().orElse(1);
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
        }
        chart.getStyler().setXAxisLabelRotation(categories.size() > 6 ? 30 : 0);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            chart.addSeries(e.getKey(), categories, e.getValue());
        }
        save(chart, png);
    }

    /** Stacked bars: one bar per category, one segment per series (in order, bottom first). */
    static void stackedBars(Path png, String title, String xTitle, String yTitle, List<String> categories,
            Map<String, List<Double>> series) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(520).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
        chart.getStyler().setStacked(true);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            chart.addSeries(e.getKey(), categories, e.getValue());
        }
        save(chart, png);
    }

    /** Lines over a numeric x axis, one per series ({@code x} and {@code y} of equal length). */
    static void lines(Path png, String title, String xTitle, String yTitle, Map<String, double[][]> series)
            throws IOException {
        XYChart chart = new XYChartBuilder().width(900).height(520).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(LegendPosition.InsideNW);
        chart.getStyler().setYAxisMin(0.0);
        for (Map.Entry<String, double[][]> e : series.entrySet()) {
            chart.addSeries(e.getKey(), e.getValue()[0], e.getValue()[1]);
        }
        save(chart, png);
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path png) throws IOException {
        String name = png.toString();
        // BitmapEncoder appends the extension itself
        BitmapEncoder.saveBitmap(chart, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                BitmapFormat.PNG);
    }
}
