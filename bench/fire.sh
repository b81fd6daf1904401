#!/usr/bin/env bash
# The fire benchmark: N jobs (default 10,000) due on one instant, fired by R scheduler replicas
# (default 3) as separate JVMs on one PostgreSQL; then 1,000 jobs spread over a 10 s period; the
# replicas' start-up with the jobs; and raw Quartz firing as many one-shot triggers (batch 1 and
# 100) on the same server as the same-run baseline (BENCHMARKS.md).
#
#   bench/fire.sh
#   bench/fire.sh --jobs=1000 --mode=burst
#   ONEBEAT_BENCH_REPLICA_OPTS='-Xmx512m -XX:+UseSerialGC' bench/fire.sh --replicas=1
JAVA_OPTS="${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml" exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.FireBenchmark "$@"
