package io.github.boundedupload.jdbc;

/** {@link PauseScenarios} against LocalStack, in a JVM of its own (beside {@link PauseVersitygwIT}). */
class PauseLocalStackIT extends PauseScenarios {

    static {
        selectServer("localstack");
    }
}
