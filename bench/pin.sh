#!/usr/bin/env bash
# Runs a benchmark with PostgreSQL on CPUs of its own, as on a database host of its own: every process of the local
# PostgreSQL server (the postmaster, whose new sessions inherit its CPUs, and the sessions already open) is bound to
# ONEBEAT_BENCH_DB_CPUS (a comma-separated list, default 0); the benchmark's JVM, the child JVMs it starts (replicas, relay nodes, the Kafka
# broker) and a local RabbitMQ (beam.smp) to ONEBEAT_BENCH_APP_CPUS (default every other CPU). Every bound process is
# given all CPUs back when the benchmark ends, however it ends. Linux, taskset (util-linux), as root or as the owner of
# those processes.
#
#   bench/pin.sh bench/relay-kafka.sh --nodes=1
#   bench/pin.sh bench/relay.sh --nodes=1 --latency-samples=0
#   ONEBEAT_BENCH_DB_CPUS=0,1 ONEBEAT_BENCH_APP_CPUS=2,3 bench/pin.sh bench/fire.sh --mode=burst
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: pin.sh COMMAND [ARGS...]   (env ONEBEAT_BENCH_DB_CPUS=0, ONEBEAT_BENCH_APP_CPUS=the other CPUs)" >&2
    exit 2
fi
all="0-$(($(nproc --all) - 1))"
db_cpus="${ONEBEAT_BENCH_DB_CPUS:-0}"
if [ -n "${ONEBEAT_BENCH_APP_CPUS:-}" ]; then
    app_cpus="$ONEBEAT_BENCH_APP_CPUS"
elif [[ ! "$db_cpus" =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    echo "pin.sh: ONEBEAT_BENCH_DB_CPUS: '$db_cpus' is not a comma-separated list of CPU numbers" >&2
    exit 2
elif [ "$(nproc --all)" -lt 2 ]; then
    echo "pin.sh: one CPU here, nothing to divide" >&2
    exit 2
else
    app_cpus="$(seq 0 $(($(nproc --all) - 1)) | grep -vxF -f <(echo "$db_cpus" | tr ',' '\n') | paste -sd, -)"
fi

bind() { # CPUS PROCESS-NAME: every thread of every process of that name
    local cpus="$1" pid
    for pid in $(pgrep -x "$2" || true); do
        taskset -a -p -c "$cpus" "$pid" > /dev/null 2>&1 || true
    done
}
unbind() {
    bind "$all" postgres
    bind "$all" beam.smp
    echo "pin.sh: PostgreSQL and RabbitMQ on CPUs $all again" >&2
}
trap unbind EXIT

if [ -z "$(pgrep -x postgres || true)" ]; then
    echo "pin.sh: no local PostgreSQL process to bind" >&2
    exit 2
fi
bind "$db_cpus" postgres
bind "$app_cpus" beam.smp
echo "pin.sh: PostgreSQL on CPUs $db_cpus; the benchmark, its child JVMs and RabbitMQ on CPUs $app_cpus" >&2
taskset -c "$app_cpus" "$@"
