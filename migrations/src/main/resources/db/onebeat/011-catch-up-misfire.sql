--liquibase formatted sql

--changeset onebeat:011-catch-up-misfire
--comment: FIRE_ALL_MISSED schedules used Quartz's ignore-misfire instruction (-1), which replays every missed instant at once and is never handed to onebeat's misfire handling; they now carry onebeat's catch-up instruction (3), which fires at most each job's max-catch-up missed instants, spaced, and records the others as skipped
UPDATE qrtz_triggers SET misfire_instr = 3 WHERE trigger_type = 'ONEBEAT' AND misfire_instr = -1;
--rollback UPDATE qrtz_triggers SET misfire_instr = -1 WHERE trigger_type = 'ONEBEAT' AND misfire_instr = 3;
