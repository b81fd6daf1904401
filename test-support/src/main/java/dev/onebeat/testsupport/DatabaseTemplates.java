package dev.onebeat.testsupport;

import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's template database, prepared on first use by the registered {@link DatabaseTemplate}, if
 * any. One per JVM, with a random name: JVMs sharing a server (an external one) each copy their own.
 */
final class DatabaseTemplates {

    /** The template PostgreSQL copies for an empty database. */
    static final String EMPTY = "template0";

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseTemplates.class);

    private static String prepared;

    private DatabaseTemplates() {
    }

    /**
     * The name of the database a new test database is copied from: {@value #EMPTY} when the class asks
     * for an empty one or no {@link DatabaseTemplate} is registered, else the JVM's prepared template.
     * A failed preparation is not remembered, so a later test class tries again and reports its own error.
     */
    static synchronized String forTestClass(PostgresServer server, Class<?> testClass) {
        if (testClass.isAnnotationPresent(EmptyDatabase.class)) {
            return EMPTY;
        }
        if (prepared == null) {
            List<DatabaseTemplate> templates = ServiceLoader.load(DatabaseTemplate.class).stream()
                    .map(ServiceLoader.Provider::get).toList();
            if (templates.isEmpty()) {
                return EMPTY;
            }
            prepared = prepare(server, templates);
        }
        return prepared;
    }

    /** Prepares a new template with {@code templates}, in order; dropped again if one fails. */
    static String prepare(PostgresServer server, List<DatabaseTemplate> templates) {
        long start = System.nanoTime();
        String name = DatabaseNames.forTemplate();
        TestDatabase template = DatabaseAdmin.create(server, name, EMPTY);
        try {
            for (DatabaseTemplate each : templates) {
                each.prepare(template);
            }
        } catch (Exception e) {
            DatabaseAdmin.drop(server, name);
            throw new IllegalStateException("could not prepare template database " + name + " with " + templates, e);
        }
        // an embedded or container server goes with the JVM; a shared server must not keep one per run
        Runtime.getRuntime().addShutdownHook(new Thread(() -> dropQuietly(server, name), "onebeat-template-drop"));
        LOG.info("template database prepared name={} templates={} durationMs={}", name, templates,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return name;
    }

    private static void dropQuietly(PostgresServer server, String name) {
        try {
            DatabaseAdmin.drop(server, name);
        } catch (RuntimeException e) {
            // the embedded server may already be stopping: its data directory goes with it
            LOG.debug("template database not dropped name={}", name, e);
        }
    }
}
