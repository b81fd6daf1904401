package dev.onebeat.scheduler.web.ui;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.WebAttributes;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The console's sign-in page ({@code GET /login}; Spring Security handles the form's post), offering
 * the configured OIDC providers too, and {@code /}, which leads to the console.
 */
@Controller
class LoginPage {

    private final ObjectProvider<ClientRegistrationRepository> oidc;

    LoginPage(ObjectProvider<ClientRegistrationRepository> oidc) {
        this.oidc = oidc;
    }

    /**
     * @param id registration id, the last segment of {@code /oauth2/authorization/{id}}
     * @param name what the button says
     */
    record Provider(String id, String name) {
    }

    /**
     * After a refused sign-in ({@code ?error}) the page names the cause: a wrong password, or the OIDC
     * provider's login not accepted (a refusal at the provider, an ID token with a bad signature or
     * nonce), with its OAuth2 error code, which Spring Security left in the session.
     */
    @GetMapping("/login")
    String login(Model model, HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        Object refusal = session == null ? null : session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION);
        if (refusal instanceof OAuth2AuthenticationException oidcRefusal) {
            model.addAttribute("oidcError", oidcRefusal.getError().getErrorCode());
        }
        List<Provider> providers = new ArrayList<>();
        if (oidc.getIfAvailable() instanceof Iterable<?> registrations) {
            for (Object registration : registrations) {
                ClientRegistration client = (ClientRegistration) registration;
                providers.add(new Provider(client.getRegistrationId(), client.getClientName()));
            }
        }
        model.addAttribute("providers", providers);
        return "login";
    }

    @GetMapping("/")
    String root() {
        return "redirect:/ui";
    }
}
