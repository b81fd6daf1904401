package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.web.security.Grants;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** The admin console's start page, server-rendered: {@code GET /ui}. */
@Controller
class DashboardController {

    private final Dashboard dashboard;

    DashboardController(Dashboard dashboard) {
        this.dashboard = dashboard;
    }

    @GetMapping({"/ui", "/ui/"})
    String dashboard(Model model) {
        model.addAttribute("view", dashboard.read(Grants.current().scope(null)));
        model.addAttribute("page", "dashboard");
        return "dashboard";
    }
}
