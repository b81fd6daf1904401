/** At most one notification of a kind per subject per window, decided by one atomic statement. */
package dev.onebeat.worker.throttle;
