package dev.tickwheel.bench.suite;

import java.math.BigDecimal;
import java.util.Locale;

/** How figures read in the table, the verdicts and the notes; a missing figure reads "-". */
final class Format {
    static final String MISSING = "-";

    private Format() {
    }

    /** @return the figure with three significant digits or so (12.3, 1.23, 0.123, 123), or "-" if missing */
    static String figure(Double v) {
        if (v == null) {
            return MISSING;
        }
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** @return "1.23x", or "-" for NaN (a figure it needs is missing) */
    static String ratio(double r) {
        return Double.isNaN(r) ? MISSING : String.format(Locale.ROOT, "%.2fx", r);
    }

    /** @return a target's threshold as written in the issue: 2, 48, 1.5 */
    static String limit(double limit) {
        return BigDecimal.valueOf(limit).stripTrailingZeros().toPlainString();
    }

    /** @return "1 producer", "2 producers" */
    static String producers(int n) {
        return n + (n == 1 ? " producer" : " producers");
    }
}
