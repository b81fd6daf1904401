/**
 * Real PostgreSQL for integration tests.
 *
 * <p>{@link dev.onebeat.testsupport.PostgresExtension} gives each test class that registers it a
 * database of its own, created before the class runs and dropped after it, on a server shared by
 * the whole JVM. The server comes from the first source that applies: an existing server named by
 * the {@code ONEBEAT_TEST_JDBC_URL} environment variable, a Testcontainers container when Docker is
 * reachable, or an embedded PostgreSQL started from bundled binaries. A module whose tests all need
 * the same tables registers a {@link dev.onebeat.testsupport.DatabaseTemplate}: the JVM fills a
 * template database once and each test database is a copy of it.
 */
package dev.onebeat.testsupport;
