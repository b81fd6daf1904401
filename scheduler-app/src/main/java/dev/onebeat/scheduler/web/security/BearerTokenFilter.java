package dev.onebeat.scheduler.web.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code Authorization: Bearer <token>} against {@link ApiTokens} for this request
 * only (nothing is stored in a session). A token that is not configured answers 401 (a problem detail)
 * at once rather than falling through to anonymous access.
 */
final class BearerTokenFilter extends OncePerRequestFilter {

    private static final String BEARER = "Bearer ";

    private final ApiTokens tokens;
    private final ProblemResponses problems;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    BearerTokenFilter(ApiTokens tokens, ProblemResponses problems) {
        this.tokens = tokens;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            chain.doFilter(request, response);
            return;
        }
        Optional<Authentication> authentication = tokens.authenticate(header.substring(BEARER.length()).trim());
        if (authentication.isEmpty()) {
            contexts.clearContext();
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            problems.write(request, response, HttpStatus.UNAUTHORIZED, "unknown API token; "
                    + ProblemAuthenticationEntryPoint.HOW_TO_SIGN_IN);
            return;
        }
        SecurityContext context = contexts.createEmptyContext();
        context.setAuthentication(authentication.get());
        contexts.setContext(context);
        chain.doFilter(request, response);
    }
}
