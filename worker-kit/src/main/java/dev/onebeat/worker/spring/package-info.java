/**
 * Spring Boot auto-configuration of the worker kit, active when Spring Boot and a
 * {@link javax.sql.DataSource} are present; see {@link dev.onebeat.worker.spring.WorkerKitProperties}.
 */
package dev.onebeat.worker.spring;
