#!/usr/bin/env bash
# The start-up benchmark: cold starts of the packaged jar as a user launches it (extracted, java -jar),
# each a new JVM: on an empty database, restarts with no job, the first start storing 10,000 new
# runtime jobs and restarts with them; with the running java, the same with Liquibase run at every start
# (the baseline of the applied-changelog skip), then with a JDK 24+ and an AOT cache
# trained beforehand when one is found (BENCHMARKS.md). About 5 minutes with the defaults.
#
#   bench/startup.sh
#   bench/startup.sh --rounds=5 --aot-java=/opt/jdk-25/bin/java
#   bench/startup.sh --no-aot
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.StartUpBenchmark "$@"
