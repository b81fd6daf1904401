package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.registry.Namespaces;
import dev.onebeat.scheduler.operate.admin.JobFiles;
import dev.onebeat.scheduler.web.security.Grants;
import dev.onebeat.scheduler.web.security.Role;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The namespaces and their job files: {@code GET /api/namespaces} lists those the caller has a role in;
 * {@code POST /api/namespaces/{namespace}/plan} and {@code .../apply} take a job file (YAML, the body) and say what
 * applying it would do, or do it ({@link JobFiles}). Planning needs viewer in the namespace, applying admin.
 */
@RestController
@RequestMapping("/api/namespaces")
class NamespacesController {

    private final Namespaces namespaces;
    private final JobFiles files;

    NamespacesController(Namespaces namespaces, JobFiles files) {
        this.namespaces = namespaces;
        this.files = files;
    }

    @GetMapping
    List<Namespaces.Namespace> namespaces() {
        Grants grants = Grants.current();
        return namespaces.names().stream().filter(name -> grants.in(name, Role.VIEWER))
                .map(name -> namespaces.find(name).orElseThrow()).toList();
    }

    /**
     * @param file the file's name, shown in the plan and the audit; {@code request} when not given
     * @param prune whether runtime jobs of the namespace that the file does not hold are deleted
     */
    @PostMapping("/{namespace}/plan")
    JobFiles.Plan plan(@PathVariable String namespace, @RequestParam(defaultValue = "request") String file,
                       @RequestParam(defaultValue = "false") boolean prune, @RequestBody String yaml) {
        return files.plan(namespace, file, yaml, prune);
    }

    @PostMapping("/{namespace}/apply")
    JobFiles.Plan apply(@PathVariable String namespace, @RequestParam(defaultValue = "request") String file,
                        @RequestParam(defaultValue = "false") boolean prune, @RequestBody String yaml) {
        return files.apply(namespace, file, yaml, prune);
    }
}
