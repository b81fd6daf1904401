/**
 * What starts the process and connects it: database connections ({@code database}), waiting for the
 * database at start-up ({@code startup}), migrations ({@code migration}), the embedded database
 * ({@code embedded}), the outbound network policy ({@code outbound}) and the demo ({@code demo}). It uses
 * no other layer.
 */
package dev.onebeat.scheduler.boot;
