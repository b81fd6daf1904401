/** The demo profile: a small table and a fan-out job over it, on by default with the embedded database. */
package dev.onebeat.scheduler.boot.demo;
