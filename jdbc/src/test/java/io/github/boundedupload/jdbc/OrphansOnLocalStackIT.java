package io.github.boundedupload.jdbc;

/** {@link OrphanScenarios} against LocalStack, in a JVM of its own (beside {@link OrphansOnVersitygwIT}). */
class OrphansOnLocalStackIT extends OrphanScenarios {

    static {
        selectServer("localstack");
    }
}
