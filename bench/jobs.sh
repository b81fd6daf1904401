#!/usr/bin/env bash
# The job listing benchmark: one replica holding 10,000 runtime jobs, its API and console pages that
# list, search and show jobs timed over HTTP, its start-up time and heap with those jobs (BENCHMARKS.md).
#
#   bench/jobs.sh
#   bench/jobs.sh --jobs=20000 --rounds=1000
#   ONEBEAT_BENCH_JDBC_URL='jdbc:postgresql://db:5432/postgres?user=bench&password=secret' bench/jobs.sh
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.JobsListBenchmark "$@"
