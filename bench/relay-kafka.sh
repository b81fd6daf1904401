#!/usr/bin/env bash
# The relay-to-Kafka benchmark: relay throughput to Kafka beside a raw KafkaProducer loop of the same
# records with the transport's producer settings, on the same broker (BENCHMARKS.md). Without
# ONEBEAT_BENCH_KAFKA it starts a single-node broker of its own for the run.
#
#   bench/relay-kafka.sh
#   bench/relay-kafka.sh --nodes=1 --concurrency=1 --batch-sizes=100,500,1000
#   ONEBEAT_BENCH_KAFKA=kafka1:9092 bench/relay-kafka.sh
#   JAVA_OPTS=-Donebeat.bench.on-publish=delete bench/relay-kafka.sh   # the relay deletes what it published
JAVA_OPTS="${JAVA_OPTS:-} -Dlogback.configurationFile=logback-bench.xml" exec "$(dirname "${BASH_SOURCE[0]}")/run.sh" scheduler-app dev.onebeat.scheduler.bench.RelayKafkaBenchmark "$@"
