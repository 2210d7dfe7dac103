package io.github.boundedupload.jdbc;

/** {@link PauseScenarios} against versitygw, in a JVM of its own (beside {@link PauseLocalStackIT}). */
class PauseVersitygwIT extends PauseScenarios {

    static {
        selectServer("versitygw");
    }
}
