--liquibase formatted sql

--changeset onebeat:012-own-triggers-concurrent
--comment: a job written in code fired from a Quartz job of its own that Quartz never ran twice at once, so a fire longer than the period made the next instants wait in Quartz whatever the job wanted; its trigger now fires onebeat's schedule job like every schedule's, and the job's overlap policy (skip, buffer-one, allow) decides. Quartz jobs still named by an in-flight fire are kept for its recovery.
UPDATE qrtz_triggers t SET job_name = 'schedule', job_group = 'onebeat-engine'
WHERE t.job_group = 'onebeat-job'
  AND EXISTS (SELECT 1 FROM qrtz_job_details d
              WHERE d.sched_name = t.sched_name AND d.job_name = 'schedule' AND d.job_group = 'onebeat-engine');
DELETE FROM qrtz_job_details d
WHERE d.job_group = 'onebeat-job'
  AND NOT EXISTS (SELECT 1 FROM qrtz_triggers t
                  WHERE t.sched_name = d.sched_name AND t.job_name = d.job_name AND t.job_group = d.job_group)
  AND NOT EXISTS (SELECT 1 FROM qrtz_fired_triggers f
                  WHERE f.sched_name = d.sched_name AND f.job_name = d.job_name AND f.job_group = d.job_group);
--rollback SELECT 1;
