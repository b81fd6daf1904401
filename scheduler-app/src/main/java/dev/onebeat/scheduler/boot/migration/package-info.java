/** Applies the onebeat changelog at start-up, one replica at a time. */
package dev.onebeat.scheduler.boot.migration;
