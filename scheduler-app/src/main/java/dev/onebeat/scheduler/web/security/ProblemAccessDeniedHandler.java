package dev.onebeat.scheduler.web.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.csrf.CsrfException;

/**
 * 403 for a signed-in caller the {@link AccessRules} refuse, as a problem detail naming the role the
 * request needs and the caller's; or for a request on a console session without its CSRF token.
 */
final class ProblemAccessDeniedHandler implements AccessDeniedHandler {

    private final ProblemResponses problems;

    ProblemAccessDeniedHandler(ProblemResponses problems) {
        this.problems = problems;
    }

    @Override
    public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        problems.write(request, response, HttpStatus.FORBIDDEN, denied instanceof CsrfException
                ? "CSRF token missing or wrong: a request on the console's session cookie needs it; "
                        + "API clients sign in with HTTP Basic or a bearer token instead"
                : needs(request) + callerRole().map(role -> "; signed in with role " + role).orElse(""));
    }

    private static String needs(HttpServletRequest request) {
        String target = request.getMethod() + " " + request.getRequestURI();
        return AccessRules.required(request)
                .map(role -> "role " + role + (role == Role.ADMIN ? "" : " or higher") + " needed for " + target)
                .orElse("access to " + target + " denied");
    }

    private static Optional<Role> callerRole() {
        Authentication caller = SecurityContextHolder.getContext().getAuthentication();
        if (caller == null) {
            return Optional.empty();
        }
        return caller.getAuthorities().stream()
                .map(GrantedAuthority::getAuthority)
                .filter(authority -> authority != null && authority.startsWith("ROLE_"))
                .flatMap(authority -> Role.named(authority.substring("ROLE_".length())).stream())
                .max(Enum::compareTo);
    }
}
