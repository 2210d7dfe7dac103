#!/usr/bin/env bash
# Where the CPU and the allocations of one upload go, in steady state (docs/performance.md): scenario B's batch (1,344
# files of 256 KiB through a 50 ms proxy) by each strategy named, after a warm-up long enough for C2 to compile the
# per-request code, with async-profiler (tools.profiler:async-profiler, a Maven dependency of the benchmarks module)
# sampling the measured runs only. Prints a table per strategy; keeps the collapsed stacks in benchmarks/target/profile.
#
#   scripts/profile.sh                                   the pool and this library on each client, on versitygw
#   scripts/profile.sh LIBRARY_PLATFORM COMPLETABLE_FUTURE   the strategies named (StrategyKind names)
#   scripts/profile.sh COMPLETABLE_FUTURE_VIRTUAL        strategy 3 on a virtual thread per upload (50 at once): an anchor
#                                                        for LIBRARY_VIRTUAL, here only
#   scripts/profile.sh TRANSFER_MANAGER_CRT_BOUNDED      strategy 8 with 50 uploads started at once, the next by the
#                                                        thread that ends one (as a bounded caller would): an anchor
#                                                        for LIBRARY_NON_BLOCKING_CRT, here only
#   scripts/profile.sh LIBRARY_NON_BLOCKING_CRT:PLATFORM  a library strategy on another ExecutorType than its own
#   scripts/profile.sh LIBRARY_PLATFORM@41               a library strategy with 41 uploads in flight instead of B's 50
#   BOUNDED_UPLOAD_S3_SERVER=localstack scripts/profile.sh   on LocalStack
#   scripts/profile.sh --pair LIBRARY_NON_BLOCKING_CRT TRANSFER_MANAGER_CRT [rounds [B|M]]
#                                                        two strategies in one JVM, batches alternating, no profiler:
#                                                        the closest comparison of their CPU per upload (PairUploads),
#                                                        on scenario B's batch or on M's (mixed sizes), with the
#                                                        makespan ratio of every round and their median
#   scripts/profile.sh --pair LIBRARY_PLATFORM COMPLETABLE_FUTURE_FIXED 7 M     scenario M's pairs (docs/benchmarks.md):
#   scripts/profile.sh --pair LIBRARY_NON_BLOCKING COMPLETABLE_FUTURE_ASYNC 7 M  each mode against a plain pool of 32
#   PROFILE_WARM_UP=20000 PROFILE_RUNS=3                 uploads to warm up with, measured runs per kind of sample
#   PROFILE_OPTIONS=,threads                             more async-profiler options (here: stacks by thread)
#   BOUNDED_UPLOAD_S3_TLS=true scripts/profile.sh        over HTTPS (see scripts/benchmark.sh)
#
# Needs Linux (async-profiler; the JIT's CPU is read from /proc) and JDK 21+ (as scripts/benchmark.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

JDK=${BENCHMARK_JAVA_HOME:-}
if [ -z "$JDK" ]; then
  if [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]; then JDK=/usr/lib/jvm/temurin-25-jdk-amd64; else JDK=${JAVA_HOME:-}; fi
fi
JAVA=${JDK:+$JDK/bin/}java

./mvnw -q -pl benchmarks -am package -DskipTests

tls=${BOUNDED_UPLOAD_S3_TLS:-false}
if scripts/test-services.sh status && { [ "$tls" != true ] || scripts/test-services.sh start-tls >/dev/null 2>&1; }; then
  echo "[profile] the S3 servers and Toxiproxy already run: using them"
else
  if [ "$tls" = true ]; then scripts/test-services.sh start-tls; else scripts/test-services.sh start; fi
  trap 'scripts/test-services.sh stop' EXIT
fi
scheme=http; vg_port=${BOUNDED_UPLOAD_VERSITYGW_PORT:-7070}; tls_options=()
if [ "$tls" = true ]; then
  scheme=https; vg_port=${BOUNDED_UPLOAD_VERSITYGW_TLS_PORT:-7443}
  store="$(scripts/test-services.sh settings | sed -n 's/^cache=//p')/run/test-truststore.p12"
  tls_options=("-Djavax.net.ssl.trustStore=$store" -Djavax.net.ssl.trustStorePassword=changeit)
fi
server=${BOUNDED_UPLOAD_S3_SERVER:-versitygw}
case "$server" in
  localstack) endpoint=$scheme://127.0.0.1:${BOUNDED_UPLOAD_LOCALSTACK_PORT:-4566} ;;
  versitygw) endpoint=$scheme://127.0.0.1:$vg_port ;;
  *) echo "profile.sh: BOUNDED_UPLOAD_S3_SERVER must be localstack or versitygw" >&2; exit 1 ;;
esac
main=io.github.boundedupload.benchmarks.ProfileUploads
if [ "${1:-}" = --pair ]; then
  [ $# -ge 3 ] || { echo "profile.sh --pair A B [rounds [B|M]]" >&2; exit 1; }
  main=io.github.boundedupload.benchmarks.PairUploads
  runs=("$2 $3 ${4:-10} ${5:-B}")
else
  strategies=("$@")
  [ ${#strategies[@]} -gt 0 ] || strategies=(COMPLETABLE_FUTURE LIBRARY_PLATFORM LIBRARY_VIRTUAL TRANSFER_MANAGER
    LIBRARY_NON_BLOCKING TRANSFER_MANAGER_CRT LIBRARY_NON_BLOCKING_CRT)
  runs=()
  for strategy in "${strategies[@]}"; do runs+=("$strategy ${PROFILE_WARM_UP:-20000} ${PROFILE_RUNS:-3}"); done
fi
for run in "${runs[@]}"; do
  # The options of every measured JVM of scripts/benchmark.sh (BenchmarkMain.JVM_OPTIONS), and what Java 24+ asks.
  # shellcheck disable=SC2086 # $run is the main class's arguments, split on purpose
  BOUNDED_UPLOAD_S3_SERVER=$server BOUNDED_UPLOAD_S3_ENDPOINT=$endpoint \
    BOUNDED_UPLOAD_TOXIPROXY_URL=http://127.0.0.1:${BOUNDED_UPLOAD_TOXIPROXY_PORT:-8474} \
    "$JAVA" -Xms512m -Xmx512m -XX:+UseG1GC -XX:-UseDynamicNumberOfCompilerThreads \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn --sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED \
    "-Dprofile.options=${PROFILE_OPTIONS:-}" ${tls_options[@]+"${tls_options[@]}"} \
    -Dbench.data=benchmarks/target/bench-data -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)" \
    "$main" $run
done
