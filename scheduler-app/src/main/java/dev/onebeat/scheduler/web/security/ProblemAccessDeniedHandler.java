package dev.onebeat.scheduler.web.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
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
                : needs(request, denied) + signedInWith());
    }

    private static String needs(HttpServletRequest request, AccessDeniedException denied) {
        String target = request.getMethod() + " " + request.getRequestURI();
        if (denied instanceof NamespaceGuard.Denied) {
            return denied.getMessage() + " for " + target;
        }
        return AccessRules.required(request)
                .map(role -> "role " + role + (role == Role.ADMIN ? "" : " or higher") + " needed for " + target)
                .orElse("access to " + target + " denied");
    }

    /** @return what the caller holds: its role over the cluster and in each namespace, if any */
    private static String signedInWith() {
        Grants grants = Grants.current();
        StringBuilder text = new StringBuilder();
        if (grants.cluster() != null) {
            text.append("; signed in with role ").append(grants.cluster());
        }
        if (!grants.namespaces().isEmpty()) {
            text.append(grants.cluster() == null ? "; signed in with roles " : ", and ");
            text.append(grants.namespaces().entrySet().stream().map(entry -> entry.getValue() + " in namespace '"
                    + entry.getKey() + "'").collect(Collectors.joining(", ")));
        }
        return text.toString();
    }
}
