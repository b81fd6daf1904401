#!/usr/bin/env bash
# The chaos run: 3 scheduler replicas as separate JVMs (the last one's clock 2 s ahead under libfaketime's
# `faketime`), a private PostgreSQL server started from the system's binaries, a private Redis broker the
# relay publishes every task to as Celery messages, a job due every second and a group of 20 jobs due every
# 2 s (fired in batches); for 4 minutes, faults at seeded random moments: kill -9 of a replica (launched
# again at once), pg_terminate_backend of every session, the broker killed and started again, PostgreSQL
# stopped and started again; then 40 s calm. Prints the seed, each fault, and a table: expected instants,
# committed, skipped by reason, failed, missed, none; fires written before their instant by the database's
# clock; duplicate commits (ledger); duplicate keys (outbox); unpublished; republished keys (counted on the
# broker, allowed); replicas that exited by themselves. Exits with 1 if a hard invariant broke (a duplicate
# commit, a duplicate outbox key, an instant without outcome, a task unpublished after the calm).
# About 7 minutes. Needs redis-server, faketime and PostgreSQL's binaries (initdb, pg_ctl).
#
#   bench/chaos.sh
#   bench/chaos.sh --seed=42 --duration=4m --calm=40s --replicas=3 --skew=2s \
#       --faults=replica-kill,sessions,broker,postgres-restart
#   ONEBEAT_BENCH_JDBC_URL='jdbc:postgresql://db:5432/postgres?user=postgres' bench/chaos.sh
#       (your own server: the run's database is created there, PostgreSQL is not restarted)
exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.ChaosBenchmark "$@"
