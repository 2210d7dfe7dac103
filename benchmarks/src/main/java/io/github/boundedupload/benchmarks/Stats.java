package io.github.boundedupload.benchmarks;

import java.util.Arrays;

/** Percentiles and medians. Changes when how a percentile or a median is computed changes. */
final class Stats {

    private Stats() {
    }

    /** The nearest-rank percentile of sorted values; 0 when there are none. */
    static double percentile(double[] sorted, double percent) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(percent / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The median (the mean of the two middle values for an even count). */
    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
