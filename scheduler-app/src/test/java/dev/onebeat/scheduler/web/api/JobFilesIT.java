package dev.onebeat.scheduler.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onebeat.scheduler.ApiClient;
import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.scheduler.WebIT;
import dev.onebeat.scheduler.web.cli.JobFileCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.util.HtmlUtils;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Schedules as code, end to end on a real replica: a team's job file applied by the command-line client, a job then
 * changed by hand, the drift found ({@code --detect-drift} exits 2), the file applied again, a job pruned; the audit
 * holds every step with its actor. A namespace that refuses hand edits refuses them, and a file that cannot be
 * applied whole changes nothing.
 */
@WebIT(properties = {SchedulerTestDatabase.NO_DEMO, SchedulerTestDatabase.QUARTZ_STOPPED,
        "onebeat.namespaces.files.queues=files",
        "onebeat.namespaces.locked.hand-edits=refuse",
        "onebeat.namespaces.small.max-jobs=1"})
class JobFilesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final String FILE_V1 = """
            onebeat:
              jobs:
                - name: files.settle
                  cron: "0 2 * * *"
                  zone: Europe/Paris
                  task: payments.settle
                  queue: files
                - name: files.report
                  every: 1h
                  task: payments.report
                  queue: files
            """;

    private static final String FILE_V2 = """
            onebeat:
              jobs:
                - name: files.report
                  every: 1h
                  task: payments.report
                  queue: files
            """;

    @Autowired
    ApiClient server;
    @TempDir
    Path dir;

    @Test
    void aFileIsAppliedADriftIsFoundAndUndoneAndAJobIsPrunedEachStepAudited() throws Exception {
        Path file = write("payments-jobs.yaml", FILE_V1);

        Run firstPlan = cli("plan", file, "--detect-drift");
        assertThat(firstPlan.code()).as(firstPlan.text()).isEqualTo(2);
        assertThat(firstPlan.out()).contains("plan of payments-jobs.yaml for namespace files (prune: no)",
                "+ create      files.report", "+ create      files.settle", "2 to create, 0 to change");

        Run applied = cli("apply", file);
        assertThat(applied.code()).as(applied.text()).isZero();
        assertThat(applied.out()).contains("applied of payments-jobs.yaml");
        JsonNode settle = json(server.as("viewer").get("/api/jobs/files.settle"));
        assertThat(settle.get("namespace").asString()).isEqualTo("files");
        assertThat(cli("plan", file, "--detect-drift").code()).as("nothing to do").isZero();

        // a hand edit through the API: the job drifts from its file
        HttpResponse<String> edited = server.as("admin").send("PUT", "/api/jobs/files.settle", """
                {"cron":"0 3 * * *","zone":"Europe/Paris","task":"payments.settle","queue":"files"}""");
        assertThat(edited.statusCode()).as(edited.body()).isEqualTo(200);
        Run drift = cli("plan", file, "--detect-drift");
        System.out.println("the plan of a drifted job, as a pipeline prints it:\n" + drift.out());
        assertThat(drift.code()).as(drift.text()).isEqualTo(2);
        assertThat(HtmlUtils.htmlUnescape(server.as("viewer").get("/ui/jobs/files.settle").body()))
                .as("the console shows the drift").contains("payments-jobs.yaml", "changed by hand since");
        assertThat(drift.out()).contains("~ change      files.settle", "cron: \"0 3 * * *\" -> \"0 2 * * *\"",
                "drift: changed by hand since it was applied from payments-jobs.yaml", "= unchanged   files.report");

        assertThat(cli("apply", file).code()).isZero();
        assertThat(json(server.as("viewer").get("/api/jobs/files.settle")).get("schedule").asString())
                .as("the file's schedule again").isEqualTo("0 2 * * *");
        assertThat(cli("plan", file, "--detect-drift").code()).isZero();

        Path smaller = write("payments-jobs.yaml", FILE_V2);
        Run kept = cli("plan", smaller);
        assertThat(kept.out()).contains("? not in file files.settle (kept; --prune deletes it)");
        Run pruned = cli("apply", smaller, "--prune");
        assertThat(pruned.code()).as(pruned.text()).isZero();
        assertThat(pruned.out()).contains("- delete      files.settle", "0 to create, 0 to change, 1 to delete");
        assertThat(server.as("viewer").get("/api/jobs/files.settle").statusCode()).isEqualTo(404);

        List<String> audit = new ArrayList<>();
        for (JsonNode entry : json(server.as("admin").get("/api/audit?namespace=files&limit=50"))) {
            audit.add(entry.get("action").asString() + " " + entry.get("target").asString() + " by "
                    + entry.get("actor").asString());
        }
        Collections.reverse(audit);
        assertThat(audit).as("oldest first").containsSubsequence(
                "job.create files.report by admin-token", "job.create files.settle by admin-token",
                "namespace.apply files by admin-token",
                "job.update files.settle by admin",
                "job.update files.settle by admin-token", "namespace.apply files by admin-token",
                "job.delete files.settle by admin-token", "namespace.apply files by admin-token");
        JsonNode lastApply = json(server.as("admin").get("/api/audit?namespace=files&limit=1")).get(0);
        assertThat(lastApply.get("after").get("deleted").toString()).isEqualTo("[\"files.settle\"]");
        assertThat(lastApply.get("after").get("file").asString()).isEqualTo("payments-jobs.yaml");
    }

    @Test
    void aNamespaceThatRefusesHandEditsRefusesThemButNotItsFile() throws Exception {
        Path file = write("locked.yaml", """
                onebeat:
                  jobs:
                    - name: locked.job
                      every: 1h
                      task: t
                """);
        assertThat(cli("apply", file, "--namespace=locked").code()).isZero();

        HttpResponse<String> edit = server.as("admin").send("PUT", "/api/jobs/locked.job",
                "{\"every\":\"2h\",\"task\":\"t\"}");
        assertThat(edit.statusCode()).isEqualTo(409);
        assertThat(edit.body()).contains("job 'locked.job' is applied from locked.yaml and namespace 'locked' refuses "
                + "hand edits (hand-edits: refuse)");
        assertThat(server.as("admin").send("DELETE", "/api/jobs/locked.job", null).statusCode()).isEqualTo(409);

        Path changed = write("locked.yaml", """
                onebeat:
                  jobs:
                    - name: locked.job
                      every: 2h
                      task: t
                """);
        assertThat(cli("apply", changed, "--namespace=locked").code()).as("the file is the way").isZero();
        assertThat(json(server.as("viewer").get("/api/jobs/locked.job")).get("schedule").asString())
                .isEqualTo("every 7200s");
    }

    @Test
    void aFileThatCannotBeAppliedWholeChangesNothing() throws Exception {
        Path bad = write("bad.yaml", """
                onebeat:
                  jobs:
                    - name: small.one
                      every: 1h
                      task: t
                    - name: small.two
                      cron: "0 25 * * *"
                      task: t
                """);
        Run refused = cli("plan", bad, "--namespace=small");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("400", "bad.yaml: onebeat.jobs[1] (job 'small.two').cron: ");

        Path tooMany = write("many.yaml", """
                onebeat:
                  jobs:
                    - name: small.one
                      every: 1h
                      task: t
                    - name: small.two
                      every: 1h
                      task: t
                """);
        Run overLimit = cli("apply", tooMany, "--namespace=small");
        assertThat(overLimit.code()).isEqualTo(1);
        assertThat(overLimit.err()).contains("409", "its limit (max-jobs) is 1");
        assertThat(server.as("viewer").get("/api/jobs/small.one").statusCode()).as("the first job rolled back too")
                .isEqualTo(404);
    }

    @Test
    void planningNeedsARoleInTheNamespaceAndApplyingAnAdmin() throws Exception {
        Path file = write("roles.yaml", FILE_V2);
        Run asViewer = cli("apply", file, "--token=" + SecurityTestUsers.token("viewer"));
        assertThat(asViewer.code()).isEqualTo(1);
        assertThat(asViewer.err()).contains("403");
        assertThat(cli("plan", file, "--token=" + SecurityTestUsers.token("viewer")).code()).isZero();
        Run nowhere = cli("plan", file, "--namespace=nowhere");
        assertThat(nowhere.err()).contains("404", "no namespace named 'nowhere'");
    }

    private record Run(int code, String out, String err) {

        String text() {
            return out + err;
        }
    }

    /** Runs the command-line client as a pipeline would, with an admin token unless another is given. */
    private Run cli(String command, Path file, String... more) {
        List<String> args = new ArrayList<>(List.of(command, "--file", file.toString(), "--url", server.url("")));
        String namespace = "files";
        String token = SecurityTestUsers.token("admin");
        for (String arg : more) {
            if (arg.startsWith("--namespace=")) {
                namespace = arg.substring("--namespace=".length());
            } else if (arg.startsWith("--token=")) {
                token = arg.substring("--token=".length());
            } else {
                args.add(arg);
            }
        }
        args.addAll(List.of("--namespace", namespace));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = JobFileCommand.run(args.toArray(String[]::new), Map.of("ONEBEAT_TOKEN", token),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
