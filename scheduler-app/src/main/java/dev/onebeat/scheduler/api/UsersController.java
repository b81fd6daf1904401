package dev.onebeat.scheduler.api;

import dev.onebeat.scheduler.security.Accounts;
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
