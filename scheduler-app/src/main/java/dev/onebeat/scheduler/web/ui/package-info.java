/**
 * The admin console: server-rendered pages (Thymeleaf, no JavaScript build) over what the scheduler
 * already records.
 */
package dev.onebeat.scheduler.web.ui;
