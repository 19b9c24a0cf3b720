"""A rule added to the policy after memories were stored: recall, and so pipe and the chat
middleware, no longer puts those memories into a prompt; it names them; search still finds
them for their owner."""

import pytest

from ragix_client import ctl
from ragixd.errors import PolicyRejected
from support.daemon import Daemon

CONFIG = '''
[policy]
extra_rules = [{id = "config.project_code", kind = "secret", pattern = "\\\\bZEBRA-\\\\d{4}\\\\b", description = "an internal project code"}]
'''


@pytest.fixture
def home_with_an_old_memory(tmp_path):
    d = Daemon(tmp_path / "home").start()
    c = d.client()
    coded = c.write(title="Launch plan", content="ship ZEBRA-4411 on Monday")["id"]  # no rule yet
    plain = c.write(title="Launch checklist", content="launch steps: tag, build, canary")["id"]
    c.close()
    d.stop()
    return tmp_path, coded, plain


def _with_the_rule(tmp_path):
    """The daemon on the same home, restarted with the rule that refuses the old memory."""
    config = tmp_path / "ragixd.toml"
    config.write_text(CONFIG)
    return Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()


def test_recall_withholds_what_the_policy_now_refuses(home_with_an_old_memory, capsys):
    tmp_path, coded, plain = home_with_an_old_memory
    d = _with_the_rule(tmp_path)
    try:
        c = d.client()
        with pytest.raises(PolicyRejected):  # the rule is live for writes too
            c.write(title="Another", content="ZEBRA-9000 is next")
        for mode in ("inject", "hybrid", "catalog"):
            out = c.recall(query="launch", mode=mode, budget=2000)
            assert out["withheld"] == [coded], mode
            assert "ZEBRA" not in out.get("text", "") + out.get("catalog_text", ""), mode
        assert plain in c.recall(query="launch", budget=2000)["injected"]
        assert coded in [i["id"] for i in c.search("launch")["items"]]  # its owner still finds it
        code = ctl.main(["--endpoint", d.endpoint, "recall", "launch", "--budget", "2000"])
        shown = capsys.readouterr()
        assert code == 0 and "ZEBRA" not in shown.out and "Launch checklist" in shown.out
        assert "withheld 1" in shown.err and coded in shown.err
        c.close()
    finally:
        d.stop()


def test_policy_audit_finds_them_and_archives_them_on_request(home_with_an_old_memory, capsys):
    """`policy.audit` pages through the live items, naming (never quoting) those the policy now
    refuses; `ragixctl policy audit` lists them and exits 1 while any is live, and with
    --archive archives each, the rules as the reason."""
    import json

    tmp_path, coded, plain = home_with_an_old_memory
    d = _with_the_rule(tmp_path)
    try:
        c = d.client()
        for i in range(5):
            c.write(title=f"note {i}", content=f"plain note number {i}")
        first = c.policy_audit(limit=2)
        assert first["checked"] == 2 and first["next"] is not None
        assert [f["id"] for f in first["flagged"]] == [coded]
        assert first["flagged"][0]["rules"] == ["config.project_code"]
        assert "ZEBRA" not in json.dumps(first)
        rest = c.policy_audit(after=first["next"], limit=100)
        assert rest["checked"] == 5 and rest["flagged"] == [] and rest["next"] is None
        assert c.policy_audit(store="shared")["checked"] == 0

        args = ["--endpoint", d.endpoint, "policy", "audit"]
        assert ctl.main(args) == 1
        shown = capsys.readouterr().out
        assert coded in shown and "config.project_code" in shown and "ZEBRA" not in shown
        assert ctl.main(["--json", *args, "--archive"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["checked"] == 7 and report["archived"] == [coded]
        assert c.policy_audit()["flagged"] == []
        assert ctl.main(args) == 0
        history = c.history(coded)["revisions"]
        assert history[-1]["reason"] == "policy audit: config.project_code"
        assert c.read(plain)["items"][0]["archived"] is False
        c.close()
    finally:
        d.stop()


def test_recall_with_only_withheld_matches_does_not_say_none_matched(home_with_an_old_memory, capsys):
    # It said "nothing to recall: no item matches" on stdout while stderr said 1 was withheld.
    tmp_path, coded, plain = home_with_an_old_memory
    d = _with_the_rule(tmp_path)
    try:
        code = ctl.main(["--endpoint", d.endpoint, "recall", "ZEBRA", "--budget", "2000"])
        shown = capsys.readouterr()
        assert code == 0 and "ZEBRA" not in shown.out
        assert "no item matches" not in shown.out and "1 matching item(s) are withheld" in shown.out
        assert "withheld 1" in shown.err and coded in shown.err
    finally:
        d.stop()
