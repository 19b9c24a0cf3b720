"""Work handed to the reader threads always answers its request: a failure the work itself does
not answer (verify's scratch database on a full or read-only disk) is answered `internal`
instead of leaving the client to its time-out with nothing logged (session 27's review)."""

from __future__ import annotations

from types import SimpleNamespace

from ragixd.errors import RagixError
from ragixd.server import Server


class _Pool:
    def submit(self, owner, fn, *args):
        fn(*args)  # run at once, as a reader thread would


def test_a_reader_job_that_raises_is_answered_internal_with_its_request_id():
    replies = []
    fake = SimpleNamespace(readers=_Pool(), _reply=lambda route, req_id, error=None: replies.append((req_id, error)))

    def job(route, req_id):
        raise OSError(30, "Read-only file system")

    Server._to_readers(fake, job, [b"0", b"peer"], 41)
    [(req_id, error)] = replies
    assert req_id == 41 and isinstance(error, RagixError) and error.code == "internal"
    assert "Read-only file system" in error.message


def test_a_job_that_answers_itself_is_not_answered_twice():
    replies = []
    fake = SimpleNamespace(readers=_Pool(), _reply=lambda route, req_id, error=None: replies.append(req_id))
    Server._to_readers(fake, lambda route, req_id: fake._reply(route, req_id), [b"0", b"peer"], 7)
    assert replies == [7]
