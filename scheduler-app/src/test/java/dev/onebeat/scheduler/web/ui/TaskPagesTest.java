package dev.onebeat.scheduler.web.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TaskPagesTest {

    @Test
    void tasksListIsTheOnlyPlaceToReturnTo() {
        assertThat(TaskPages.returnTo("/ui/tasks?status=failed&queue=a")).isEqualTo("/ui/tasks?status=failed&queue=a");
        assertThat(TaskPages.returnTo("https://elsewhere.example/ui/tasks")).isEqualTo("/ui/tasks");
        assertThat(TaskPages.returnTo("//elsewhere.example/ui/tasks")).isEqualTo("/ui/tasks");
        assertThat(TaskPages.returnTo("/ui/tasks/..//elsewhere.example")).isEqualTo("/ui/tasks");
        assertThat(TaskPages.returnTo(null)).isEqualTo("/ui/tasks");
    }
}
