package dev.onebeat.scheduler.operate.admin;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/** Who makes a change: the authenticated user's name, or {@value #SYSTEM} when nobody is signed in. */
public final class Actor {

    public static final String SYSTEM = "system";

    private Actor() {
    }

    public static String current() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication == null || authentication.getName() == null ? SYSTEM : authentication.getName();
    }
}
