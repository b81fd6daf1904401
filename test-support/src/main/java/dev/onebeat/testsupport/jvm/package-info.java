/**
 * Child JVMs for tests: replicas to kill, brokers to restart, packaged jars to run as a user runs them.
 *
 * <p>Every test that starts a JVM does it through {@link dev.onebeat.testsupport.jvm.JavaLauncher}, so that the
 * children start with one set of fast-start options, on the test's own {@code java}, and each start is written down
 * (one line in {@code target/child-jvms.log}) for counting what a suite costs.
 */
package dev.onebeat.testsupport.jvm;
