"""The RQ function of onebeat's process-once crash test: ``onebeat_interop_rq_once.once``.

It runs in RQ's work horse, the child the worker forks per job, so the SIGKILL of
``onebeat_interop_once.run`` ends the horse only: the worker sees it die and moves the job to the
FailedJobRegistry, from where an operator requeues it.
"""
import rq

import onebeat
import onebeat_interop_once


def once(*args, **kwargs):
    """Journals and applies the job once; records its id."""
    job = rq.get_current_job()
    onebeat_interop_once.run(onebeat.key(job), {"id": job.id, "origin": job.origin})
