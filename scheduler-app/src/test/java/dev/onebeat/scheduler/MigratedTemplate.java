package dev.onebeat.scheduler;

import dev.onebeat.testsupport.DatabaseTemplate;
import dev.onebeat.testsupport.EmptyDatabase;
import dev.onebeat.testsupport.TestDatabase;
import liquibase.integration.spring.SpringLiquibase;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * Migrates the JVM's template database once, so that each test class's database is a copy that
 * already holds every table: the application's Liquibase then finds every changeset applied and only
 * validates, in the test JVM and in the replica JVMs alike. The changelog is the application's, named
 * as the application names it, so the copies' {@code databasechangelog} rows are the ones a first
 * start writes. A class about the first start on an empty database is {@link EmptyDatabase}.
 * Registered in {@code META-INF/services/dev.onebeat.testsupport.DatabaseTemplate}.
 */
public final class MigratedTemplate implements DatabaseTemplate {

    /** The changelog the application applies at start-up (see {@code MigrationConfiguration}). */
    static final String CHANGELOG = "classpath:db/onebeat/changelog-master.xml";

    @Override
    public void prepare(TestDatabase template) throws Exception {
        SpringLiquibase liquibase = new SpringLiquibase();
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
