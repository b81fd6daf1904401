"""Functions the message tests run as RQ jobs (RQ imports them by dotted path)."""
import onebeat


def report_key() -> dict:
    """Returns what onebeat reads from the job that is running it."""
    at = onebeat.scheduled_at()
    return {"key": onebeat.key(), "scheduled_at": at.isoformat() if at else None}
