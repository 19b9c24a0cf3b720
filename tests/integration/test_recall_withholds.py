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


def test_recall_withholds_what_the_policy_now_refuses(home_with_an_old_memory, capsys):
    tmp_path, coded, plain = home_with_an_old_memory
    config = tmp_path / "ragixd.toml"
    config.write_text(CONFIG)
    d = Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()
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
