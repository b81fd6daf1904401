package dev.onebeat.scheduler.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

import dev.onebeat.scheduler.SchedulerTestDatabase;
import dev.onebeat.scheduler.SecurityTestUsers;
import dev.onebeat.testsupport.PostgresExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpHeaders;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Each replica records the tzdata it computes instants with; a replica starting next to a live one on
 * other tzdata warns, and the API and the console show every replica's version. The other replica is
 * played by rows: its check-in in Quartz's cluster table (with an interval of an hour, so the running
 * replica does not declare it dead meanwhile) and its record in {@code onebeat_node}.
 */
@ExtendWith({PostgresExtension.class, OutputCaptureExtension.class})
@DirtiesContext
@SpringBootTest(properties = SchedulerTestDatabase.NO_DEMO)
@AutoConfigureMockMvc
class TzdataIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String OTHER = "replica-other";

    @Autowired
    MockMvc mvc;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    NodeTable nodes;

    @Autowired
    ClusterState cluster;

    @Autowired
    TzdataCheck check;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SchedulerTestDatabase.register(registry, TzdataIT.class);
        SecurityTestUsers.register(registry);
    }

    @AfterEach
    void removeTheOtherReplica() {
        jdbc.sql("DELETE FROM qrtz_scheduler_state WHERE instance_name LIKE 'replica-%'").update();
        jdbc.sql("DELETE FROM onebeat_node WHERE instance_id LIKE 'replica-%'").update();
    }

    @Test
    void replicaStartingNextToALiveReplicaOnOtherTzdataWarnsNamingBothVersionsAndInstances(CapturedOutput output) {
        liveReplica(OTHER, "2019c");

        check.checkAtStartup();

        assertThat(output).contains("WARN").contains("tzdata differs between live replicas: instance="
                + cluster.selfId() + " tzdata=" + Tzdata.version() + ", instance=" + OTHER + " tzdata=2019c");
    }

    @Test
    void replicasOnTheSameTzdataLogTheVersionWithoutWarning(CapturedOutput output) {
        liveReplica(OTHER, Tzdata.version());

        check.checkAtStartup();

        assertThat(output).contains("tzdata version=" + Tzdata.version() + " java=" + Runtime.version()
                + " instance=" + cluster.selfId()).doesNotContain("tzdata differs");
    }

    @Test
    void replicaNoLongerInTheClusterIsNotWarnedAbout(CapturedOutput output) {
        nodes.started("replica-gone", "2019c", "17.0.1");

        check.checkAtStartup();

        assertThat(output).doesNotContain("tzdata differs");
    }

    @Test
    void clusterApiShowsEachReplicasTzdata() throws Exception {
        liveReplica(OTHER, "2019c");

        JsonNode view = JSON.readTree(page("/api/cluster"));

        assertThat(view.get("tzdata").asString()).isEqualTo(Tzdata.version());
        List<JsonNode> listed = new ArrayList<>();
        view.get("nodes").forEach(listed::add);
        assertThat(listed).extracting(node -> node.get("instanceId").asString())
                .containsExactlyInAnyOrder(cluster.selfId(), OTHER);
        for (JsonNode node : listed) {
            boolean self = node.get("self").asBoolean();
            assertThat(node.get("tzdata").asString()).isEqualTo(self ? Tzdata.version() : "2019c");
            assertThat(node.get("javaVersion").asString()).isEqualTo(self ? Runtime.version().toString() : "17.0.1");
        }
    }

    @Test
    void clusterPageMarksTheReplicaOnOtherTzdata() throws Exception {
        liveReplica(OTHER, "2019c");

        String page = page("/ui/cluster");

        assertThat(page).contains("<span>" + Tzdata.version() + "</span>").contains("<span>2019c</span>")
                .contains("differs from " + Tzdata.version() + " here");
    }

    @Test
    void clusterPageAndApiShowEachReplicasClockAgainstTheDatabasesMarkingOneBeyondTheMaximum() throws Exception {
        // a replica whose clock runs 8 s ahead writes its check-in 8 s ahead of the database's stamp of it
        jdbc.sql("""
                        INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time, checkin_interval)
                        VALUES ('onebeat', 'replica-ahead', ?, 3600000)
                        """)
                .param(System.currentTimeMillis() + 8_000).update();

        JsonNode view = JSON.readTree(page("/api/cluster"));
        String html = page("/ui/cluster");

        List<JsonNode> listed = new ArrayList<>();
        view.get("nodes").forEach(listed::add);
        assertThat(listed).filteredOn(node -> node.get("instanceId").asString().equals("replica-ahead")).singleElement()
                .satisfies(node -> assertThat(node.get("clockSkewMillis").asLong()).isBetween(-9000L, -7000L));
        assertThat(listed).filteredOn(node -> node.get("self").asBoolean()).singleElement()
                .satisfies(node -> assertThat(Math.abs(node.get("clockSkewMillis").asLong())).isLessThan(1000));
        assertThat(html).contains("firing on hold: clock off beyond the maximum").contains("onebeat.cluster.max-clock-skew");
        assertThat(html.split("firing on hold: clock off beyond the maximum", -1)).as("one replica marked").hasSize(2);
    }

    @Test
    void replicaNotSeenForADayIsForgottenAtStartUp() {
        nodes.started("replica-yesterday", "2019c", "17.0.1");
        nodes.started("replica-an-hour-ago", "2019c", "17.0.1");
        jdbc.sql("UPDATE onebeat_node SET seen_at = now() - interval '25 hours' WHERE instance_id = 'replica-yesterday'")
                .update();
        jdbc.sql("UPDATE onebeat_node SET seen_at = now() - interval '1 hour' WHERE instance_id = 'replica-an-hour-ago'")
                .update();

        check.checkAtStartup();

        assertThat(nodes.all()).extracting(NodeTable.Row::instanceId)
                .contains("replica-an-hour-ago", cluster.selfId()).doesNotContain("replica-yesterday");
    }

    /** Another replica, checked in to Quartz's cluster table and recorded with its tzdata. */
    private void liveReplica(String instanceId, String tzdata) {
        jdbc.sql("""
                        INSERT INTO qrtz_scheduler_state (sched_name, instance_name, last_checkin_time, checkin_interval)
                        VALUES ('onebeat', ?, ?, 3600000)
                        """)
                .params(instanceId, System.currentTimeMillis())
                .update();
        nodes.started(instanceId, tzdata, "17.0.1");
    }

    private String page(String path) throws Exception {
        MockHttpServletResponse response = mvc.perform(get(path)
                .header(HttpHeaders.AUTHORIZATION, SecurityTestUsers.basic("viewer"))).andReturn().getResponse();
        assertThat(response.getStatus()).as(response.getContentAsString()).isEqualTo(200);
        return response.getContentAsString();
    }
}
