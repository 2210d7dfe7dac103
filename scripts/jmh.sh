#!/usr/bin/env bash
# The uploader's own cost per upload (JMH): a batch of N to a storage that does nothing, through the uploader and as
# bare CompletableFutures on the same executor, on platform threads and on virtual threads (JDK 21+; JDK 25 here),
# supplied to the uploader or its own (own, own-virtual).
#
#   scripts/jmh.sh                      every batch size and executor, time and allocation (about 33 minutes)
#   scripts/jmh.sh -p batchSize=1,10000 any JMH option narrows or changes the run
#   scripts/jmh.sh ConcurrentBatches    another benchmark of the module: 64 threads each uploading a batch of 10 at once
#                                       (about 5 minutes); a first argument that is not an option names the benchmark
#
# Results: microbenchmarks/target/jmh-result.json (and the console). Divide a score by batchSize for the cost per
# upload; gc.alloc.rate.norm is bytes allocated per batch.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=${BOUNDED_UPLOAD_JMH_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
./mvnw -q -pl core,microbenchmarks -am package -DskipTests
benchmark=PerUploadOverhead
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then benchmark=$1; shift; fi
"$JAVA_HOME/bin/java" -jar microbenchmarks/target/microbenchmarks.jar "$benchmark" -prof gc \
  -rf json -rff microbenchmarks/target/jmh-result.json "$@"
