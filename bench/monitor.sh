#!/usr/bin/env bash
# The missed-fire detector's cost per check with many jobs, and the retention job's delete rate, each beside a raw
# statement of the same work in the same run (BENCHMARKS.md).
#
#   bench/monitor.sh
#   bench/monitor.sh --jobs=20000 --rounds=10
#   bench/monitor.sh --jobs=100 --rounds=1 --retention-jobs=1000000 --retention-fires=4
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.MonitorBenchmark "$@"
