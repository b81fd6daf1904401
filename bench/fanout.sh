#!/usr/bin/env bash
# Builds onebeat and runs the fan-out benchmark (dev.onebeat.scheduler.bench.FanOutBenchmark) on a
# fresh database of the PostgreSQL server in ONEBEAT_BENCH_JDBC_URL (default: the local server,
# user postgres). Arguments go to the benchmark (--help lists them); JAVA_OPTS go to its JVM.
#
#   bench/fanout.sh
#   bench/fanout.sh --rounds=20 --batch-sizes=1000
#   ONEBEAT_BENCH_JDBC_URL='jdbc:postgresql://db:5432/postgres?user=bench&password=secret' bench/fanout.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# install, not package: the class path below names the sibling modules' jars in the local repository
./mvnw -B -q -DskipTests install

run_dir="$(mktemp -d)"
trap 'rm -rf "$run_dir"' EXIT
./mvnw -B -q -pl scheduler-app dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$run_dir/classpath"

# The project's own classes and jars are copied, so that a build running meanwhile in this tree
# (or installing into the local repository) cannot change them under the running benchmark.
mkdir "$run_dir/copies"
cp -r scheduler-app/target/classes "$run_dir/copies/classes"
cp -r scheduler-app/target/test-classes "$run_dir/copies/test-classes"
classpath="$run_dir/copies/test-classes:$run_dir/copies/classes"
# the plugin writes the file without a final newline, on which read would fail
IFS=: read -r -a entries < <(cat "$run_dir/classpath"; echo)
for entry in "${entries[@]}"; do
    case "$entry" in
        */dev/onebeat/*)
            cp "$entry" "$run_dir/copies/"
            entry="$run_dir/copies/$(basename "$entry")"
            ;;
    esac
    classpath="$classpath:$entry"
done

# not exec: the trap removes the copies once the benchmark ends
java ${JAVA_OPTS:-} -cp "$classpath" dev.onebeat.scheduler.bench.FanOutBenchmark "$@"
