package io.github.boundedupload.benchmarks;

/**
 * One measured JVM: {@code Fork <A|B|C|D|E|F|M|calibration> <strategy> <full|quick> <run>}, or {@code Fork pair
 * <library strategy> <full|quick> <rounds>} ({@link PairUploads#run}), or {@code Fork pair-M ...}
 * ({@link PairUploads#runMixed}). Prints one result line per measured run
 * ({@link Line}); started by {@link BenchmarkMain}, every measurement with the same JVM options.
 * Changes when what one measured JVM runs, or its arguments, change.
 */
public final class Fork {

    private Fork() {
    }

    /**
     * Runs one scenario with one strategy, or the calibration.
     *
     * @param args scenario (or {@code pair}), strategy, scale and round (A to D) or run (scenario E measures one run
     *     per JVM) or rounds (a pair)
     * @throws Exception when the measurement fails; the harness reports it
     */
    public static void main(String[] args) throws Exception {
        // Before any HTTP client loads: scenario F's proxy forwards the Host header the client signed.
        System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
        Scale scale = Scale.named(args[2]);
        if (args[0].equals("calibration")) {
            Calibration.run(scale);
            return;
        }
        StrategyKind kind = StrategyKind.valueOf(args[1]);
        int run = Integer.parseInt(args[3]);
        if (args[0].equals(Report.PAIR_M)) {
            PairUploads.runMixed(kind, scale, run);
            System.exit(0);
        }
        if (args[0].equals(Report.PAIR)) {
            PairUploads.run(kind, Targets.cpuAnchor(kind), scale, run);
            System.exit(0);
        }
        switch (Scenario.valueOf(args[0])) {
            case A -> ScenarioA.run(kind, scale, run);
            case B -> ScenarioB.run(kind, scale, run);
            case C -> ScenarioC.run(kind, scale, run);
            case D -> ScenarioD.run(kind, scale, run);
            case E -> ScenarioE.run(kind, scale, run);
            case F -> ScenarioF.run(scale);
            case M -> ScenarioM.run(kind, scale, run);
        }
        System.exit(0); // some strategies leave non-daemon threads behind (the common pool's work, SDK pools)
    }
}
