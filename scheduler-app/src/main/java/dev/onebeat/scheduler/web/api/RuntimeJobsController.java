package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.registry.JobsProperties.Definition;
import dev.onebeat.scheduler.operate.admin.RuntimeJobs;
import dev.onebeat.scheduler.web.security.NamespaceGuard;
import dev.onebeat.scheduler.web.security.Role;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /api/jobs} creates a runtime job, {@code PUT /api/jobs/{name}} changes one or reschedules
 * a job defined in code or configuration, {@code DELETE /api/jobs/{name}/schedule} removes that new
 * schedule again, {@code DELETE /api/jobs/{name}} deletes a runtime job. Bodies
 * have the fields of an {@code onebeat.jobs[]} entry, written in camelCase ({@code lockAtMostFor}); an
 * unknown field is a 400 ({@link JobBodies}).
 */
@RestController
@RequestMapping("/api/jobs")
class RuntimeJobsController {

    private final RuntimeJobs jobs;
    private final JobBodies bodies;

    RuntimeJobsController(RuntimeJobs jobs, JobBodies bodies) {
        this.jobs = jobs;
        this.bodies = bodies;
    }

    @PostMapping
    @ResponseStatus(HttpStatus.CREATED)
    Definition create(@RequestBody JsonNode body) {
        Definition definition = bodies.definition(body);
        NamespaceGuard.requireToWrite(definition.namespace(), Role.ADMIN);
        return jobs.create(definition);
    }

    @PutMapping("/{name}")
    Definition update(@PathVariable String name, @RequestBody JsonNode body) {
        Definition definition = bodies.definition(body);
        if (definition.namespace() != null) {
            // the job's own namespace was checked on the way in (NamespaceGuard); this is where it moves
            NamespaceGuard.requireToWrite(definition.namespace(), Role.ADMIN);
        }
        return jobs.update(name, definition);
    }

    @DeleteMapping("/{name}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(@PathVariable String name) {
        jobs.delete(name);
    }

    @DeleteMapping("/{name}/schedule")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void resetSchedule(@PathVariable String name) {
        jobs.resetSchedule(name);
    }
}
