/** What the kit counts, and a Micrometer binding for it. */
package dev.onebeat.worker.metrics;
