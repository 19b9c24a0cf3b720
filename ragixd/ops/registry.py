"""Every op's handler in one table: write plans (through the single writer) and queries.

Admin ops (status, verify, rebuild) are handled by the server itself.
"""

from __future__ import annotations

from . import governed, handlers, transfer

PLANS = {
    **handlers.PLANS,
    "propose": governed.plan_propose,
    "proposals.parse": governed.plan_parse,
    "import": transfer.plan_import,
}
QUERIES = {
    **handlers.QUERIES,
    "policy.check": governed.query_policy_check,
    "policy.audit": governed.query_policy_audit,
    "export": transfer.query_export,
}
