#!/usr/bin/env bash
# Runs a benchmark with PostgreSQL on CPUs of its own, as on a database host of its own: every process of the local
# PostgreSQL server (the postmaster, whose new sessions inherit its CPUs, and the sessions already open) is bound to
# ONEBEAT_BENCH_DB_CPUS (a comma-separated list, default 0); the benchmark's JVM, the child JVMs it starts (replicas,
# relay nodes, the Kafka broker) and a local RabbitMQ (beam.smp) to ONEBEAT_BENCH_APP_CPUS (default every other online
# CPU). Each bound process gets back the CPUs it had when the benchmark ends, however it ends (a session PostgreSQL
# forked meanwhile gets its postmaster's). Linux, taskset (util-linux), as root or as the owner of those processes.
#
# A JVM bound to one CPU sees one processor: it picks the serial collector and fewer compiler threads, as on a
# one-CPU host. Add -XX:ActiveProcessorCount=N to the JVMs' options to keep the choices of N CPUs.
#
#   bench/pin.sh bench/relay-kafka.sh --nodes=1
#   bench/pin.sh bench/relay.sh --nodes=1 --latency-samples=0
#   ONEBEAT_BENCH_DB_CPUS=0,1 ONEBEAT_BENCH_APP_CPUS=2,3 bench/pin.sh bench/fire.sh --mode=burst
set -euo pipefail

fail() {
    echo "pin.sh: $*" >&2
    exit 2
}
[ "$#" -gt 0 ] || fail "usage: pin.sh COMMAND [ARGS...]   (env ONEBEAT_BENCH_DB_CPUS=0, ONEBEAT_BENCH_APP_CPUS=the others)"

online="$(taskset -c -p $$ | sed 's/.*: //')"  # this shell's CPUs, as a list with ranges
expand() { # "0,2-3" -> one CPU number a line
    local part
    for part in ${1//,/ }; do
        if [[ "$part" == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
    done
}
usable="$(expand "$online")"
check() { # NAME VALUE: a comma-separated list of CPUs this shell may use
    [[ "$2" =~ ^[0-9]+(,[0-9]+)*$ ]] || fail "$1: '$2' is not a comma-separated list of CPU numbers"
    local cpu
    for cpu in ${2//,/ }; do
        grep -qxF "$cpu" <<< "$usable" || fail "$1: CPU $cpu is not one of this machine's usable CPUs ($online)"
    done
}
db_cpus="${ONEBEAT_BENCH_DB_CPUS:-0}"
check ONEBEAT_BENCH_DB_CPUS "$db_cpus"
if [ -n "${ONEBEAT_BENCH_APP_CPUS:-}" ]; then
    app_cpus="$ONEBEAT_BENCH_APP_CPUS"
else
    app_cpus="$(grep -vxF -f <(tr ',' '\n' <<< "$db_cpus") <<< "$usable" | paste -sd, - || true)"
    [ -n "$app_cpus" ] || fail "ONEBEAT_BENCH_DB_CPUS=$db_cpus leaves no CPU for the benchmark (usable: $online)"
fi
check ONEBEAT_BENCH_APP_CPUS "$app_cpus"
shared="$(grep -xF -f <(tr ',' '\n' <<< "$db_cpus") <(tr ',' '\n' <<< "$app_cpus") | paste -sd, - || true)"
[ -z "$shared" ] || fail "CPUs $shared are in both ONEBEAT_BENCH_DB_CPUS and ONEBEAT_BENCH_APP_CPUS"

postmaster="$(pgrep -xo postgres || true)"
[ -n "$postmaster" ] || fail "no local PostgreSQL process to bind"
saved="$(mktemp)"  # "PID CPU-LIST" of every process bound, as it was
restore() {
    local pid cpus
    while read -r pid cpus; do
        # a process that has exited meanwhile has nothing to restore
        if ! taskset -a -c -p "$cpus" "$pid" > /dev/null 2>&1 && kill -0 "$pid" 2> /dev/null; then
            echo "pin.sh: could not give process $pid its CPUs $cpus back" >&2
        fi
    done < "$saved"
    # sessions forked while bound took the postmaster's CPUs: give them its CPUs again
    local home
    home="$(taskset -c -p "$postmaster" 2> /dev/null | sed 's/.*: //' || true)"
    if [ -n "$home" ]; then
        for pid in $(pgrep -x postgres || true); do
            taskset -a -c -p "$home" "$pid" > /dev/null 2>&1 || true
        done
    fi
    rm -f "$saved"
    echo "pin.sh: PostgreSQL and RabbitMQ given their CPUs back" >&2
}
trap restore EXIT
bind() { # CPUS PROCESS-NAME: every thread of every process of that name; an error unless the process is gone
    local cpus="$1" pid before
    for pid in $(pgrep -x "$2" || true); do
        before="$(taskset -c -p "$pid" 2> /dev/null | sed 's/.*: //')" || continue
        echo "$pid $before" >> "$saved"
        if ! taskset -a -c -p "$cpus" "$pid" > /dev/null 2>&1 && kill -0 "$pid" 2> /dev/null; then
            fail "could not bind $2 process $pid to CPUs $cpus (run as root or as its owner)"
        fi
    done
}
bind "$db_cpus" postgres
bind "$app_cpus" beam.smp
[ "$(expand "$(taskset -c -p "$postmaster" | sed 's/.*: //')" | sort -n)" = "$(expand "$db_cpus" | sort -n)" ] \
    || fail "PostgreSQL is not on CPUs $db_cpus after binding"
echo "pin.sh: PostgreSQL on CPUs $db_cpus; the benchmark, its child JVMs and RabbitMQ on CPUs $app_cpus" >&2
taskset -c "$app_cpus" "$@"
