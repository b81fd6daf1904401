package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.calendar.CalendarsProperties;
import dev.onebeat.scheduler.engine.registry.JobDefinitionException;
import dev.onebeat.scheduler.operate.admin.CalendarAdmin;
import dev.onebeat.scheduler.operate.admin.UnknownCalendarException;
import java.util.List;
import java.util.Locale;
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
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

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
    private final ObjectReader definitions;

    CalendarsController(CalendarAdmin calendars, JsonMapper json) {
        this.calendars = calendars;
        this.definitions = json.rebuild().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
                .readerFor(CalendarsProperties.Definition.class);
    }

    @GetMapping
    List<CalendarAdmin.CalendarView> list() {
        return calendars.list();
    }

    @GetMapping("/{name}")
    CalendarAdmin.CalendarView show(@PathVariable String name) {
        return calendars.find(name).orElseThrow(() -> new UnknownCalendarException(name));
    }

    @PutMapping("/{name}")
    ResponseEntity<CalendarAdmin.CalendarView> save(@PathVariable String name, @RequestBody JsonNode body) {
        boolean created = calendars.save(name, definition(body));
        return ResponseEntity.status(created ? HttpStatus.CREATED : HttpStatus.OK).body(show(name));
    }

    @DeleteMapping("/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(@PathVariable String name) {
        calendars.delete(name);
    }

    private CalendarsProperties.Definition definition(JsonNode body) {
        if (body == null || !body.isObject()) {
            String got = body == null || body.isMissingNode() ? "nothing"
                    : body.getNodeType().name().toLowerCase(Locale.ROOT);
            throw new JobDefinitionException("request body: expected a JSON object with the fields of a calendar, got "
                    + got);
        }
        try {
            return definitions.readValue(body);
        } catch (JacksonException e) {
            throw new JobDefinitionException(JsonProblems.describe(e, body), e);
        }
    }
}
