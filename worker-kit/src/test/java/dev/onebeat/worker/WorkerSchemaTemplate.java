package dev.onebeat.worker;

import dev.onebeat.testsupport.DatabaseTemplate;
import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.TestDatabase;

/**
 * Migrates the JVM's template database once with {@link WorkerSchema}, so each test class's database is
 * a copy holding every onebeat table and {@link WorkerSchema#migrated} there only finds its changesets
 * applied. A class about the changelog on an empty database is {@link EmptyDatabase}. Registered in
 * {@code META-INF/services/dev.onebeat.testsupport.DatabaseTemplate}.
 */
public final class WorkerSchemaTemplate implements DatabaseTemplate {

    @Override
    public void prepare(TestDatabase template) {
        // unpooled: the connection is closed on return, and PostgreSQL copies no database with a session
        WorkerSchema.apply(template.dataSource());
    }

    @Override
    public String toString() {
        return "WorkerSchemaTemplate[db/onebeat/changelog-master.xml]";
    }
}
