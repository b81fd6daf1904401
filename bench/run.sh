#!/usr/bin/env bash
# Builds onebeat and runs a benchmark main class from a module's test sources on a fresh database
# of the PostgreSQL server in ONEBEAT_BENCH_JDBC_URL (default: the local server, user postgres).
# Used by bench/fanout.sh, bench/relay.sh, bench/relay-kafka.sh and bench/worker.sh; JAVA_OPTS go to the benchmark's JVM.
#
#   bench/run.sh MODULE MAIN_CLASS [ARGS...]
set -euo pipefail

module="$1"
main_class="$2"
shift 2

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# install, not package: the class path below names the sibling modules' jars in the local repository
./mvnw -B -q -DskipTests install

run_dir="$(mktemp -d)"
trap 'rm -rf "$run_dir"' EXIT
./mvnw -B -q -pl "$module" dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$run_dir/classpath"

# The project's own classes and jars are copied, so that a build running meanwhile in this tree
# (or installing into the local repository) cannot change them under the running benchmark.
mkdir "$run_dir/copies"
cp -r "$module"/target/classes "$run_dir/copies/classes"
cp -r "$module"/target/test-classes "$run_dir/copies/test-classes"
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
java ${JAVA_OPTS:-} -cp "$classpath" "$main_class" "$@"
