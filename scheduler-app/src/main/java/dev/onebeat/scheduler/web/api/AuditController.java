package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.operate.admin.AuditEntry;
import dev.onebeat.scheduler.operate.admin.AuditLog;
import dev.onebeat.scheduler.web.security.Grants;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/audit}: changes made through the API, newest first. */
@RestController
class AuditController {

    private final AuditLog audit;

    AuditController(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping("/api/audit")
    List<AuditEntry> audit(@RequestParam(defaultValue = "50") @Min(1) @Max(500) int limit,
                           @RequestParam(defaultValue = "0") @Min(0) int offset,
                           @RequestParam(required = false) String target,
                           @RequestParam(required = false) String actor,
                           @RequestParam(required = false) String namespace) {
        return audit.page(target, actor, Grants.current().scope(namespace), limit, offset);
    }
}
