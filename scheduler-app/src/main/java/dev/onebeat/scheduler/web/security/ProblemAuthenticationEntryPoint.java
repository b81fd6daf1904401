package dev.onebeat.scheduler.web.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.AuthenticationEntryPoint;

/**
 * 401 for a request without valid credentials: {@code WWW-Authenticate: Basic realm="onebeat"} and a
 * problem detail saying how to sign in. Wrong credentials are told apart from none, without saying
 * whether the user exists.
 */
final class ProblemAuthenticationEntryPoint implements AuthenticationEntryPoint {

    static final String REALM = "onebeat";
    static final String HOW_TO_SIGN_IN = "sign in with HTTP Basic or a bearer token";

    private final ProblemResponses problems;

    ProblemAuthenticationEntryPoint(ProblemResponses problems) {
        this.problems = problems;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException failure)
            throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, "Basic realm=\"" + REALM + "\"");
        problems.write(request, response, HttpStatus.UNAUTHORIZED, failure instanceof BadCredentialsException
                ? "user name or password not accepted; " + HOW_TO_SIGN_IN : HOW_TO_SIGN_IN);
    }
}
