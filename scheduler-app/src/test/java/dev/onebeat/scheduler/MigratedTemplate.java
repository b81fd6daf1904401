package dev.onebeat.scheduler;

import dev.onebeat.scheduler.boot.migration.SerializedLiquibase;
import dev.onebeat.scheduler.boot.startup.DatabaseStartup;
import dev.onebeat.scheduler.boot.startup.StartupProperties;
import dev.onebeat.testsupport.DatabaseTemplate;
import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.TestDatabase;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * Migrates the JVM's template database once, as a replica's first start does, so that each test
 * class's database is a copy that already holds every table and records the changelog as applied: the
 * application then starts without running Liquibase, in the test JVM and in the replica JVMs alike. The
 * changelog is the application's, named as the application names it, so the copies' {@code databasechangelog}
 * rows are the ones a first start writes. A class about the first start on an empty database is {@link EmptyDatabase}.
 * Registered in {@code META-INF/services/dev.onebeat.testsupport.DatabaseTemplate}.
 */
public final class MigratedTemplate implements DatabaseTemplate {

    /** The changelog the application applies at start-up (see {@code MigrationConfiguration}). */
    static final String CHANGELOG = "classpath:db/onebeat/changelog-master.xml";

    @Override
    public void prepare(TestDatabase template) throws Exception {
        SerializedLiquibase liquibase = new SerializedLiquibase(new DatabaseStartup(StartupProperties.DEFAULTS), true);
        // unpooled: Liquibase closes its one connection, and PostgreSQL copies no database with a session
        liquibase.setDataSource(template.dataSource());
        liquibase.setChangeLog(CHANGELOG);
        liquibase.setResourceLoader(new DefaultResourceLoader());
        liquibase.afterPropertiesSet();
    }

    @Override
    public String toString() {
        return "MigratedTemplate[" + CHANGELOG + "]";
    }
}
