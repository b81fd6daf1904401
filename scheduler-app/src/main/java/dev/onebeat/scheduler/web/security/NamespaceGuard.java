package dev.onebeat.scheduler.web.security;

import dev.onebeat.job.PeriodicJob;
import dev.onebeat.scheduler.engine.registry.JobRegistry;
import dev.onebeat.scheduler.engine.registry.NamespaceJobs;
import dev.onebeat.scheduler.operate.admin.TaskAdmin;
import dev.onebeat.scheduler.operate.admin.UnknownJobException;
import dev.onebeat.scheduler.operate.admin.UnknownNamespaceException;
import dev.onebeat.scheduler.operate.admin.UnknownTaskException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Keeps a user of some namespaces to their jobs: every request about one job ({@code /api/jobs/{name}/**},
 * {@code /ui/jobs/{name}/**}), one task ({@code /api/tasks/{id}/**}, {@code /ui/tasks/{id}/**}) or one namespace
 * ({@code /api/namespaces/{namespace}/**}) is checked against the namespace of that job (of the task's job), after the
 * URL rules ({@link AccessRules}) let the request through.
 *
 * <ul>
 *   <li>a role over the cluster reaches every namespace: nothing more is checked;</li>
 *   <li>a job or task of a namespace the user cannot see is answered as if it did not exist (404): its name
 *       says nothing to a user of another team, and its existence is theirs to know only;</li>
 *   <li>one the user sees but may not change (a viewer there, an operator asking an admin's change) is refused
 *       (403), as the URL rules refuse a role too low.</li>
 * </ul>
 * A task whose job is gone from the catalog belongs to no namespace: only a role over the cluster reaches it.
 */
@Component
public class NamespaceGuard implements HandlerInterceptor, WebMvcConfigurer {

    private final NamespaceJobs namespaces;
    private final JobRegistry registry;
    private final TaskAdmin tasks;

    NamespaceGuard(NamespaceJobs namespaces, JobRegistry registry, TaskAdmin tasks) {
        this.namespaces = namespaces;
        this.registry = registry;
        this.tasks = tasks;
    }

    @Override
    public void addInterceptors(InterceptorRegistry interceptors) {
        interceptors.addInterceptor(this).addPathPatterns("/api/jobs/*", "/api/jobs/*/**", "/ui/jobs/*",
                "/ui/jobs/*/**", "/api/tasks/*/**", "/ui/tasks/*/**", "/api/namespaces/*/**");
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        Grants grants = Grants.current();
        Role needed = AccessRules.required(request).orElse(Role.VIEWER);
        if (grants.overCluster(needed)) {
            return true;
        }
        // what the request reaches is read from the handler's pattern and its decoded variables, as Spring MVC
        // matched them: never from the raw URI, where an encoded letter (/api/job%73/...) would hide the path
        String pattern = String.valueOf(request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE));
        @SuppressWarnings("unchecked")
        Map<String, String> variables = (Map<String, String>) request.getAttribute(
                HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
        Map<String, String> reached = variables == null ? Map.of() : variables;
        boolean console = pattern.startsWith("/ui/");
        if (!pattern.contains("{")) {
            // a list or a form (/ui/jobs/, POST /api/jobs): no one object; the lists show the caller's namespaces
            return true;
        }
        if (pattern.matches("/(api|ui)/jobs/\\{name}(/.*)?")) {
            String job = reached.get("name");
            Optional<String> namespace = namespaceOf(job);
            // a job nobody knows is the handler's to answer (404), as for any user
            if (namespace.isPresent()) {
                check(grants, namespace.get(), needed, console, "no job named '" + job + "'",
                        () -> new UnknownJobException(job));
            }
        } else if (pattern.matches("/api/namespaces/\\{namespace}(/.*)?")) {
            String namespace = reached.get("namespace");
            check(grants, namespace, needed, false, "no namespace named '" + namespace + "'",
                    () -> new UnknownNamespaceException(namespace));
        } else if (pattern.matches("/(api|ui)/tasks/\\{id}(/.*)?")) {
            long id = parse(reached.get("id"));
            Optional<String> namespace = tasks.jobOf(id).flatMap(this::namespaceOf);
            check(grants, namespace.orElse(null), needed, console, "no task with id " + id,
                    () -> new UnknownTaskException(id));
        } else {
            // a handler under the guarded paths whose variables name something else: closed to roles in namespaces
            // until a branch above says whose it is
            throw new Denied("role " + needed + " over the cluster needed for " + pattern);
        }
        return true;
    }

    /**
     * Refuses a job written into a namespace (created, or moved there) by a user without the role there.
     *
     * @param namespace the namespace the job is written into, null for {@code default}
     * @throws AccessDeniedException (403) naming the role and the namespace
     */
    public static void requireToWrite(String namespace, Role needed) {
        String into = namespace == null ? PeriodicJob.DEFAULT_NAMESPACE : namespace;
        if (!Grants.current().in(into, needed)) {
            throw new Denied("role " + needed + (needed == Role.ADMIN ? "" : " or higher") + " in namespace '"
                    + into + "' needed to write a job into it");
        }
    }

    /** @return the job's namespace: the catalog's, or this replica's registry's for a job not stored yet */
    private Optional<String> namespaceOf(String job) {
        return namespaces.namespaceOf(job).or(() -> registry.find(job).map(registered -> registered.job().namespace()));
    }

    private static void check(Grants grants, String namespace, Role needed, boolean console, String unknown,
                              Supplier<RuntimeException> notFound) {
        if (namespace == null || !grants.in(namespace, Role.VIEWER)) {
            throw console ? new ResponseStatusException(HttpStatus.NOT_FOUND, unknown) : notFound.get();
        }
        if (!grants.in(namespace, needed)) {
            throw new Denied("role " + needed + (needed == Role.ADMIN ? "" : " or higher") + " in namespace '"
                    + namespace + "' needed");
        }
    }

    /** A role too low in the namespace of what the request reaches; its message says which role, and where. */
    static final class Denied extends AccessDeniedException {

        Denied(String message) {
            super(message);
        }
    }

    private static long parse(String id) {
        try {
            return Long.parseLong(id);
        } catch (NumberFormatException e) {
            // the handler refuses it (400); nothing of any namespace is reached
            return -1;
        }
    }
}
