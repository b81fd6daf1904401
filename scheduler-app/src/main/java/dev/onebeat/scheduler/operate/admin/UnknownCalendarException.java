package dev.onebeat.scheduler.operate.admin;

/** No calendar of that name was made through the admin API. */
public class UnknownCalendarException extends RuntimeException {

    public UnknownCalendarException(String name) {
        super("no calendar named '" + name + "' was made through the admin API");
    }
}
