package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.engine.registry.Namespaces;
import dev.onebeat.scheduler.web.security.Grants;
import dev.onebeat.scheduler.web.security.Role;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
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

    private final Namespaces namespaces;

    ConsoleModel(Namespaces namespaces) {
        this.namespaces = namespaces;
    }

    /** @return the namespaces the lists' switcher offers: every one to a role over the cluster, else the user's */
    @ModelAttribute("namespaceChoices")
    List<String> namespaceChoices(Authentication authentication) {
        if (authentication == null) {
            return List.of();
        }
        Grants grants = Grants.of(authentication.getAuthorities());
        return grants.overCluster(Role.VIEWER) ? List.copyOf(namespaces.names())
                : List.copyOf(grants.namespaces().keySet());
    }

    /**
     * @param name the user name
     * @param operator may pause, resume, trigger, retry and discard, in some namespace at least
     * @param admin may create, change and delete jobs, in some namespace at least
     * @param grants the user's roles over the cluster and per namespace
     */
    record Me(String name, boolean operator, boolean admin, Grants grants) {

        /** @return whether the user may pause, resume, trigger, retry and discard in the namespace */
        public boolean operatorIn(String namespace) {
            return grants.in(namespace, Role.OPERATOR);
        }

        /** @return whether the user may create, change and delete jobs in the namespace */
        public boolean adminIn(String namespace) {
            return grants.in(namespace, Role.ADMIN);
        }

        /** @return whether the user sees the cluster's own pages (replicas, locks) */
        public boolean clusterViewer() {
            return grants.overCluster(Role.VIEWER);
        }

        /** @return whether the user sees who may sign in */
        public boolean clusterAdmin() {
            return grants.overCluster(Role.ADMIN);
        }

        /** @return the namespaces the switcher offers: those granted one by one; empty for a role over the cluster */
        public List<String> namespaces() {
            return List.copyOf(grants.namespaces().keySet());
        }

        /** @return the role shown beside the name: over the cluster, else per namespace */
        public String roles() {
            if (grants.cluster() != null) {
                return grants.cluster().toString();
            }
            return grants.namespaces().isEmpty() ? "no role" : grants.namespaces().entrySet().stream()
                    .map(entry -> entry.getKey() + ": " + entry.getValue()).collect(Collectors.joining(", "));
        }
    }

    @ModelAttribute("me")
    Me me(Authentication authentication) {
        if (authentication == null) {
            return new Me("", false, false, new Grants(null, Map.of()));
        }
        Grants grants = Grants.of(authentication.getAuthorities());
        return new Me(authentication.getName(), grants.anywhere(Role.OPERATOR), grants.anywhere(Role.ADMIN), grants);
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
