package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.operate.admin.AuditEntry;
import dev.onebeat.scheduler.operate.admin.AuditLog;
import dev.onebeat.scheduler.web.security.Grants;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** {@code GET /ui/audit}: every change made through the API or the console, newest first, by target and user. */
@Controller
class AuditPage {

    static final int PAGE_SIZE = 50;

    private final AuditLog audit;

    AuditPage(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping("/ui/audit")
    String audit(@RequestParam(required = false) String target, @RequestParam(required = false) String actor,
                 @RequestParam(required = false) String namespace, @RequestParam(defaultValue = "0") int page,
                 Model model) {
        int from = Pager.clamp(page);
        // one row more than shown tells whether there is a next page
        List<AuditEntry> rows = audit.page(JobForms.blankToNull(target), JobForms.blankToNull(actor),
                Grants.current().scope(namespace), PAGE_SIZE + 1, from * PAGE_SIZE);
        model.addAttribute("page", "audit");
        model.addAttribute("target", target == null ? "" : target);
        model.addAttribute("actor", actor == null ? "" : actor);
        model.addAttribute("namespace", namespace == null ? "" : namespace);
        model.addAttribute("entries", rows.subList(0, Math.min(PAGE_SIZE, rows.size())));
        model.addAttribute("pager", Pager.of(from, rows.size() > PAGE_SIZE));
        return "audit";
    }
}
