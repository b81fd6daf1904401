/**
 * Alerts from the missed-fire detector's events, through the relay's outbox: the webhook channel, and the check-ins
 * to the monitors each job may name (Healthchecks-style ping URLs, Sentry Crons). A delivery is an outbox row written
 * in the detector's transaction, so it goes out only once its event has committed, and the relay's retries with
 * backoff keep its key.
 */
package dev.onebeat.scheduler.operate.alert;
