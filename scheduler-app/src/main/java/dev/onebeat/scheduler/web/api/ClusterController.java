package dev.onebeat.scheduler.web.api;

import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.cluster.Tzdata;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/cluster}: the replicas, their last check-in and the time-zone data each computes instants with. */
@RestController
class ClusterController {

    private final ClusterState cluster;

    ClusterController(ClusterState cluster) {
        this.cluster = cluster;
    }

    /**
     * @param self the answering replica's id
     * @param tzdata the answering replica's tzdb version
     * @param nodes every replica that checked in
     */
    record ClusterView(String self, String tzdata, List<ClusterState.Node> nodes) {
    }

    @GetMapping("/api/cluster")
    ClusterView cluster() {
        return new ClusterView(cluster.selfId(), Tzdata.version(), cluster.nodes());
    }
}
