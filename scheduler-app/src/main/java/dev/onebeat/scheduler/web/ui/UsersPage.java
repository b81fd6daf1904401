package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.web.security.Accounts;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** {@code GET /ui/users}: who may sign in and with which role, as configured; admins only. */
@Controller
class UsersPage {

    private final Accounts accounts;

    UsersPage(Accounts accounts) {
        this.accounts = accounts;
    }

    @GetMapping("/ui/users")
    String users(Model model) {
        model.addAttribute("page", "users");
        model.addAttribute("accounts", accounts);
        return "users";
    }
}
