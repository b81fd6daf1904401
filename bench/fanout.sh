#!/usr/bin/env bash
# The fan-out benchmark: one fire to 10,000 entities beside a raw multi-row insert (BENCHMARKS.md).
#
#   bench/fanout.sh
#   bench/fanout.sh --rounds=20 --batch-sizes=1000
#   ONEBEAT_BENCH_JDBC_URL='jdbc:postgresql://db:5432/postgres?user=bench&password=secret' bench/fanout.sh
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.FanOutBenchmark "$@"
