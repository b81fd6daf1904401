package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.operate.admin.CalendarAdmin;
import dev.onebeat.scheduler.web.security.Grants;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * {@code GET /ui/calendars}: every calendar, of configuration and of the admin API, with what it holds and the jobs
 * that name it. Calendars are made and changed in configuration or through the admin API; the page shows them.
 */
@Controller
class CalendarsPage {

    private final CalendarAdmin calendars;

    CalendarsPage(CalendarAdmin calendars) {
        this.calendars = calendars;
    }

    @GetMapping("/ui/calendars")
    String calendars(Model model) {
        model.addAttribute("page", "calendars");
        model.addAttribute("calendars", calendars.list(Grants.current().scope(null)));
        return "calendars";
    }
}
