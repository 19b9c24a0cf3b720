"""The tests' own contract check (support/contract_check.py) does catch what it is there for."""

from support.contract_check import answer_problem, event_problem


def test_the_check_catches_a_wrong_result_a_wrong_error_and_an_unknown_event():
    good = {"v": 1, "id": 1, "ok": True, "result": {"recorded": 1, "seq": 3}}
    assert answer_problem("use", good) is None
    assert "ops/use#answer" in answer_problem("use", {**good, "result": {"recorded": "1", "seq": 3}})
    error = {"code": "not_found", "message": "no such item", "details": {}}
    assert answer_problem("read", {"v": 1, "id": 1, "ok": False, "error": error}) is None
    assert answer_problem("read", {"v": 1, "id": 1, "ok": False, "error": {**error, "details": None}})
    assert answer_problem(None, {"v": 1, "id": 1, "ok": True})  # no result
    assert "no schema" in event_problem({"type": "item.teleported"})
