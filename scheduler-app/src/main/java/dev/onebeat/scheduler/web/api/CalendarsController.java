package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.operate.admin.CalendarAdmin;
import dev.onebeat.scheduler.operate.admin.UnknownCalendarException;
import dev.onebeat.scheduler.web.security.Grants;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/calendars} lists the calendars, {@code GET /api/calendars/{name}} shows one with the jobs that name
 * it; {@code PUT /api/calendars/{name}} creates (201) or replaces (200) one made through the API and
 * {@code DELETE /api/calendars/{name}} deletes it (an admin's, audited). The body has the fields of an
 * {@code onebeat.calendars.<name>} entry; an unknown field is a 400 naming it.
 */
@RestController
@RequestMapping("/api/calendars")
class CalendarsController {

    private final CalendarAdmin calendars;
    private final JobBodies bodies;

    CalendarsController(CalendarAdmin calendars, JobBodies bodies) {
        this.calendars = calendars;
        this.bodies = bodies;
    }

    @GetMapping
    List<CalendarAdmin.CalendarView> list() {
        return calendars.list(Grants.current().scope(null));
    }

    @GetMapping("/{name}")
    CalendarAdmin.CalendarView show(@PathVariable String name) {
        return calendars.find(name, Grants.current().scope(null)).orElseThrow(() -> new UnknownCalendarException(name));
    }

    @PutMapping("/{name}")
    ResponseEntity<CalendarAdmin.CalendarView> save(@PathVariable String name, @RequestBody JsonNode body) {
        boolean created = calendars.save(name, bodies.calendar(body));
        return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(show(name));
    }

    @DeleteMapping("/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(@PathVariable String name) {
        calendars.delete(name);
    }
}
