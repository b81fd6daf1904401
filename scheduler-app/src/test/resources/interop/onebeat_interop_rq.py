"""The RQ function of onebeat's interop tests: ``onebeat_interop_rq.record``."""
import rq

import onebeat_interop_record


def record(*args, **kwargs):
    """Records its own run: the job id, function, origin queue, arguments and meta (onebeat's key and instant)."""
    job = rq.get_current_job()
    onebeat_interop_record.append({
        "id": job.id,
        "task": job.func_name,
        "origin": job.origin,
        "args": list(args),
        "kwargs": kwargs,
        "meta": job.meta,
    })
