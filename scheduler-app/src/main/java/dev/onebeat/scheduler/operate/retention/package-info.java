/**
 * The built-in retention job ({@code onebeat-retention}): a onebeat job like any other, so it fires once per instant
 * across the cluster and its deletes commit with its fire, that keeps the scheduler's own tables from growing
 * forever.
 */
package dev.onebeat.scheduler.operate.retention;
