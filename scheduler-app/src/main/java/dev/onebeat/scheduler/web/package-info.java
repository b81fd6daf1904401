/**
 * The web layer: the REST API ({@code api}), the console ({@code ui}) and who may use them
 * ({@code security}). It calls the operate and engine layers; nothing below calls it.
 */
package dev.onebeat.scheduler.web;
