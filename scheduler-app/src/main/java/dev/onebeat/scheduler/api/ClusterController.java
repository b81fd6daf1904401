package dev.onebeat.scheduler.api;

import dev.onebeat.scheduler.cluster.ClusterState;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/cluster}: the replicas and their last check-in. */
@RestController
class ClusterController {

    private final ClusterState cluster;

    ClusterController(ClusterState cluster) {
        this.cluster = cluster;
    }

    /**
     * @param self the answering replica's id
     * @param nodes every replica that checked in
     */
    record ClusterView(String self, List<ClusterState.Node> nodes) {
    }

    @GetMapping("/api/cluster")
    ClusterView cluster() {
        return new ClusterView(cluster.selfId(), cluster.nodes());
    }
}
