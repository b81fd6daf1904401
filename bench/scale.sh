#!/usr/bin/env bash
# Replicas adding capacity: one large instant (default 100,000 jobs) fired by 1, 2 and 3 replica JVMs sharing it out
# (onebeat.fire.share.min-jobs=1000 here; off by default), and, as the same-run baseline, by the same replicas with
# sharing off (the replica that acquires the instant fires all of it). Each run is bench/fire.sh --mode=burst with
# three instants (the JIT of replicas that never fired before warms over the first two); this prints each run's
# output and, at the end, one line per instant and run.
#
#   bench/scale.sh                              # about 35 minutes
#   bench/scale.sh --jobs=10000 --replicas="1 3"
#   ONEBEAT_BENCH_REPLICA_CPU=0.3 bench/scale.sh   # each replica capped at 0.3 cores, as on a small host of its own
#                                                  # (a cgroup CPU quota, as root; PostgreSQL uncapped)
set -euo pipefail

jobs=100000
replica_counts="1 2 3"
for arg in "$@"; do
    case "$arg" in
        --jobs=*) jobs="${arg#--jobs=}" ;;
        --replicas=*) replica_counts="${arg#--replicas=}" ;;
        *) echo "usage: scale.sh [--jobs=100000] [--replicas=\"1 2 3\"]" >&2; exit 2 ;;
    esac
done

bench="$(dirname "${BASH_SOURCE[0]}")"
base_opts="${ONEBEAT_BENCH_REPLICA_OPTS:--Xmx1g}"
results="$(mktemp)"
run_log="$(mktemp)"
trap 'rm -f "$results" "$run_log"' EXIT

run() {
    local replicas="$1" share="$2" opts="$base_opts"
    if [ "$share" = on ]; then
        opts="$opts -Donebeat.fire.share.min-jobs=1000"
    else
        opts="$opts -Donebeat.fire.share.min-jobs=0"
    fi
    echo "=== $jobs jobs on one instant, $replicas replica(s), sharing $share ($(date -u +%H:%M:%S) UTC)"
    ONEBEAT_BENCH_REPLICA_OPTS="$opts" "$bench/fire.sh" --mode=burst --jobs="$jobs" --replicas="$replicas" \
        --raw-jobs=0 --instants=3 | tee "$run_log"
    sed -n '/^summary:/,$p' "$run_log" | grep 'burst of' | sed "s/^ */replicas=$replicas sharing=$share: /" >> "$results"
}

for replicas in $replica_counts; do
    run "$replicas" on
done
for replicas in $replica_counts; do
    if [ "$replicas" -gt 1 ]; then
        run "$replicas" off
    fi
done
echo
echo "scaling, $jobs jobs on one instant (the later instants of each run meet a warm JIT):"
cat "$results"
