package io.github.boundedupload.jdbc;

/** {@link OrphanScenarios} against versitygw, in a JVM of its own (beside {@link OrphansOnLocalStackIT}). */
class OrphansOnVersitygwIT extends OrphanScenarios {

    static {
        selectServer("versitygw");
    }
}
