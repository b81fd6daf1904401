#!/usr/bin/env bash
# The worker benchmark: the in-database queue worker at 1, 4 and 16 threads, with and without the
# processed-key journal, beside a raw SKIP LOCKED claim-and-delete loop (BENCHMARKS.md).
#
#   bench/worker.sh
#   bench/worker.sh tasks=50000 threads=4 rounds=3
JAVA_OPTS="${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml" exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" worker-kit dev.onebeat.worker.bench.WorkerBenchmark "$@"
