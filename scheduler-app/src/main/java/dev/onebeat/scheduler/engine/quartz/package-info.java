/**
 * The bridge to Quartz, the clustered timer: one {@link dev.onebeat.scheduler.engine.quartz.TimetableTrigger}
 * per schedule of jobs defined by data and per job written in code, firing at the instants onebeat
 * computes; the Quartz jobs that hand each fire to the fire engine; and the start-up sync that keeps
 * the job catalog and those triggers in line with the registry.
 */
package dev.onebeat.scheduler.engine.quartz;
