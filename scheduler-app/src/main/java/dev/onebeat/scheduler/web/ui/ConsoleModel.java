package dev.onebeat.scheduler.web.ui;

import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.security.access.hierarchicalroles.NullRoleHierarchy;
import org.springframework.security.access.hierarchicalroles.RoleHierarchy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.ModelAndView;

/**
 * What every console page knows of the signed-in user: the name in the header, and which actions to
 * offer. The offer is a convenience; the URL rules of the security package decide what is allowed.
 */
// ahead of Boot's problem-details handler: console pages answer in HTML
@Order(Ordered.HIGHEST_PRECEDENCE)
@ControllerAdvice(basePackageClasses = ConsoleModel.class)
class ConsoleModel {

    private final RoleHierarchy roles;

    /** @param roles the security package's hierarchy; absent when there is no web security (no console either) */
    ConsoleModel(ObjectProvider<RoleHierarchy> roles) {
        this.roles = roles.getIfAvailable(NullRoleHierarchy::new);
    }

    /**
     * @param name the user name
     * @param operator may pause, resume, trigger, retry and discard
     * @param admin may create, change and delete jobs
     */
    record Me(String name, boolean operator, boolean admin) {
    }

    @ModelAttribute("me")
    Me me(Authentication authentication) {
        if (authentication == null) {
            return new Me("", false, false);
        }
        Set<String> granted = roles.getReachableGrantedAuthorities(authentication.getAuthorities()).stream()
                .map(GrantedAuthority::getAuthority)
                .collect(Collectors.toSet());
        return new Me(authentication.getName(), granted.contains("ROLE_OPERATOR"), granted.contains("ROLE_ADMIN"));
    }

    /** An unknown job or task, a bad filter: the error page with the reason, which names what was asked for. */
    @ExceptionHandler(ResponseStatusException.class)
    ModelAndView statusPage(ResponseStatusException e) {
        HttpStatus status = HttpStatus.valueOf(e.getStatusCode().value());
        ModelAndView page = new ModelAndView("error", status);
        page.addObject("status", status.value());
        page.addObject("error", status.getReasonPhrase());
        page.addObject("message", e.getReason());
        return page;
    }
}
