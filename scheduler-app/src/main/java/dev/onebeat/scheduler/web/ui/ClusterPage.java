package dev.onebeat.scheduler.web.ui;

import dev.onebeat.scheduler.engine.cluster.ClockProperties;
import dev.onebeat.scheduler.engine.cluster.ClusterState;
import dev.onebeat.scheduler.engine.cluster.Tzdata;
import dev.onebeat.scheduler.engine.fire.JobLockTable;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * {@code GET /ui/cluster}: the replicas Quartz knows with their last check-in, clock against the database's (one off
 * beyond {@code onebeat.cluster.max-clock-skew} is marked: its firing is on hold) and time-zone data (a version other
 * than this replica's is marked), the job locks ShedLock holds now and those taken last.
 */
@Controller
class ClusterPage {

    private final ClusterState cluster;
    private final JobLockTable locks;
    private final ClockProperties clock;

    ClusterPage(ClusterState cluster, JobLockTable locks, ClockProperties clock) {
        this.cluster = cluster;
        this.locks = locks;
        this.clock = clock;
    }

    @GetMapping("/ui/cluster")
    String cluster(Model model) {
        model.addAttribute("page", "cluster");
        List<ClusterState.Node> nodes = cluster.nodes();
        long maxSkewMillis = clock.maxClockSkew().toMillis();
        model.addAttribute("nodes", nodes);
        // as each replica's guard judges itself: off beyond the maximum, either way, it holds its firing
        model.addAttribute("offClock", nodes.stream().filter(node -> Math.abs(node.clockSkewMillis()) > maxSkewMillis)
                .map(ClusterState.Node::instanceId).toList());
        model.addAttribute("tzdata", Tzdata.version());
        model.addAttribute("maxSkewMillis", maxSkewMillis);
        model.addAttribute("held", locks.latest(true, 100));
        model.addAttribute("locks", locks.latest(false, 20));
        return "cluster";
    }
}
