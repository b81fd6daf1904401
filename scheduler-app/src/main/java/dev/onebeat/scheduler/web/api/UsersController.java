package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.web.security.Accounts;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/users}: the configured users and tokens with their roles, without secrets; admins only. */
@RestController
class UsersController {

    private final Accounts accounts;

    UsersController(Accounts accounts) {
        this.accounts = accounts;
    }

    @GetMapping("/api/users")
    Accounts users() {
        return accounts;
    }
}
