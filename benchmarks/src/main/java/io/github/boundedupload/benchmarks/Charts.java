package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The report's bar charts, drawn headless with XChart. Changes when how the report's charts are drawn changes. */
final class Charts {

    /** One series of bars: a name and one value per category. */
    record Series(String name, List<? extends Number> values) {
    }

    private Charts() {
    }

    /**
     * Writes a bar chart as {@code file} (PNG).
     *
     * @param logarithmic a logarithmic value axis, for values that span orders of magnitude
     */
    static void bars(Path file, String title, String valueAxis, List<String> categories, List<Series> series,
            boolean logarithmic) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(960).height(520).title(title)
                .yAxisTitle(valueAxis).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setXAxisLabelRotation(20);
        chart.getStyler().setYAxisLogarithmic(logarithmic);
        if (logarithmic) {
            chart.getStyler().setYAxisMin(series.stream().flatMap(one -> one.values().stream())
                    .mapToDouble(Number::doubleValue).min().orElse(1) / 2);
        }
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        for (Series one : series) {
            chart.addSeries(one.name(), categories, one.values());
        }
        String name = file.getFileName().toString().replaceFirst("\\.png$", "");
        BitmapEncoder.saveBitmap(chart, file.resolveSibling(name).toString(), BitmapFormat.PNG);
    }
}
