package dev.onebeat.testsupport;

/**
 * What every test database of a JVM starts with, instead of nothing: a module's tests register one
 * implementation in {@code META-INF/services/dev.onebeat.testsupport.DatabaseTemplate} of their test
 * resources, and {@link PostgresExtension} then prepares a template database once per JVM with it and
 * creates each test class's database as a copy ({@code CREATE DATABASE … TEMPLATE}). A copy takes a
 * few milliseconds where, for example, running a whole migration changelog takes a second.
 *
 * <p>Without a registered implementation every database is empty, as before. A class annotated
 * {@link EmptyDatabase} gets an empty database either way.
 */
public interface DatabaseTemplate {

    /**
     * Fills the template database. Called once per JVM, before the first test database is created;
     * every connection opened here must be closed on return, since PostgreSQL copies no database that
     * has a session.
     *
     * @param template the empty template database
     * @throws Exception if the template cannot be prepared; the test class that asked fails with it
     */
    void prepare(TestDatabase template) throws Exception;
}
