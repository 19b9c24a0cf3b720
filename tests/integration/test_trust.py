"""Trust-gated stores over TCP with CURVE: each client key has a trust level, and every op
sees only the stores that level may see; writes elsewhere are refused; no existence oracle."""


import pytest
import zmq

from ragix_client import Client
from ragixd.curve import make_keys
from ragixd.errors import Forbidden, NotFound, Timeout
from support.daemon import free_port


@pytest.fixture(scope="module")
def gated(tmp_path_factory):
    from support.daemon import Daemon
    home = tmp_path_factory.mktemp("trust") / "home"
    home.mkdir()
    public_file, secret_file = make_keys(home / "keys", "server")
    server_public = zmq.auth.load_certificate(str(public_file))[0]
    keys = {level: zmq.curve_keypair() for level in ("inner", "familiar", "public", "stranger")}
    port = free_port()
    trust = "\n".join(f'"{keys[level][0].decode()}" = "{level}"' for level in ("inner", "familiar", "public"))
    config = home / "ragixd.toml"
    config.write_text(f'tcp_endpoint = "tcp://127.0.0.1:{port}"\n'
                      f'curve_secret_key_file = "{secret_file}"\n\n[trust]\n{trust}\n')
    daemon = Daemon(home, extra_env={"RAGIX_CONFIG": str(config)}).start()
    owner = daemon.client()
    ids = {store: owner.write(title=f"{store} note", content=f"the {store} plan for kafka",
                              store=store, entities=[f"{store}-person"])["id"]
           for store in ("private", "shared", "social")}

    def client(level: str, timeout: float = 10.0) -> Client:
        public, secret = keys[level]
        return Client(f"tcp://127.0.0.1:{port}", timeout=timeout, server_public_key=server_public,
                      public_key=public, secret_key=secret)
    yield daemon, owner, ids, client
    owner.close()
    daemon.stop()


VISIBLE = {"inner": {"shared", "social"}, "familiar": {"social"}, "public": set()}


@pytest.mark.parametrize("level", ["inner", "familiar", "public"])
def test_reads_see_only_their_stores(gated, level):
    _daemon, _owner, ids, client = gated
    c = client(level)
    seen = VISIBLE[level]
    found = {i["item"]["store"] for i in c.search("kafka plan", mode="fts")["items"]}
    assert found == seen
    assert {i["store"] for i in c.read(*ids.values())["items"]} == seen
    assert {e["store"] for e in c.entities()["entities"]} == seen
    assert {line["item"]["store"] for line in c.export()["lines"]} == seen
    assert c.policy_audit()["checked"] == len(seen)
    assert c.policy_audit(store="private")["checked"] == 0  # another's store: nothing, no error
    for store, item_id in ids.items():
        if store in seen:
            assert c.history(item_id)["revisions"]
            assert c.timeline(item_id)["items"]
        else:
            with pytest.raises(NotFound):
                c.history(item_id)
            with pytest.raises(NotFound):
                c.timeline(item_id)
            with pytest.raises(NotFound):
                c.update(item_id, patch={"content": "overwritten"})
    assert c.stats()["items"] == len(seen)
    c.close()


def test_writes_to_other_stores_are_refused(gated):
    _daemon, owner, _ids, client = gated
    inner = client("inner")
    with pytest.raises(Forbidden):
        inner.write(title="sneaky", content="into private", store="private")
    assert inner.write(title="inner default", content="goes to shared")["id"]
    public = client("public")
    with pytest.raises(Forbidden):
        public.write(title="anything", content="public may not write")
    inner.close()
    public.close()


def test_a_duplicate_of_an_invisible_item_reveals_nothing(gated):
    _daemon, owner, ids, client = gated
    familiar = client("familiar")
    r = familiar.write(title="private note", content="the private plan for kafka")  # same as the private item
    assert r["status"] in ("created", "quarantined") and r["id"] != ids["private"]
    assert owner.read(ids["private"])["items"][0]["mention_count"] == 1
    familiar.close()


def test_import_is_for_the_owner_only(gated):
    """An import keeps the ids, stores and archive marks it is given: below full trust it could
    plant items in the private store, archive or supersede invisible ones, and tell by its
    per-line answers which ids exist. It is refused whole, before anything is looked at."""
    _daemon, owner, ids, client = gated
    lines = [
        {"format": "ragix-export/1", "item": {"id": "MEM-inner00000001", "title": "planted",
                                              "content": "into private", "store": "private"}},
        {"format": "ragix-export/1", "item": {"id": ids["private"], "title": "private note",
                                              "content": "the private plan for kafka", "archived": True}},
        {"format": "ragix-export/1", "item": {"id": ids["shared"], "title": "x", "content": "y",
                                              "superseded_by": "MEM-famplant0001"}},
    ]
    head = owner.stats()["head_seq"]
    for level in ("inner", "familiar"):
        c = client(level)
        with pytest.raises(Forbidden, match="owner"):
            c.call("import", {"lines": lines})
        c.close()
    assert owner.stats()["head_seq"] == head
    assert not owner.read(ids["private"])["items"][0]["archived"]
    assert owner.read("MEM-inner00000001")["items"] == []


def test_admin_ops_and_the_event_stream_are_for_the_owner(gated):
    _daemon, _owner, _ids, client = gated
    inner = client("inner")
    for op in ("verify", "rebuild", "status"):
        with pytest.raises(Forbidden):
            inner.call(op)
    with pytest.raises(Forbidden, match="tail"):
        inner.tail(after=0)
    with pytest.raises(Forbidden, match="event stream"):
        next(inner.subscribe(timeout=1))
    inner.close()


def test_counts_over_every_store_are_the_owners_to_see(gated):
    """stats' log totals and embedders' vector counts cover every store: a caller below full
    trust gets its own stores' item counts and the models in use, not how much the others hold."""
    _daemon, owner, _ids, client = gated
    full_stats, full_embedders = owner.stats(), owner.embedders()["embedders"]
    assert full_stats["events"] > 0 and full_stats["log_bytes"] > 0
    assert full_embedders and all("indexed" in e and "missing" in e for e in full_embedders)
    familiar = client("familiar")
    stats = familiar.stats()
    assert "events" not in stats and "log_bytes" not in stats
    assert stats["by_store"] == {"social": stats["items"]}
    embedders = familiar.embedders()["embedders"]
    assert [e["model"] for e in embedders] == [e["model"] for e in full_embedders]
    for entry in embedders:
        assert not {"indexed", "items", "embedded", "missing"} & entry.keys()
        assert entry["error"] == ""
    familiar.close()


def test_an_unknown_key_is_not_admitted(gated):
    _daemon, owner, _ids, client = gated
    stranger = client("stranger", timeout=1.5)
    with pytest.raises(Timeout):
        stranger.call("search", {"query": "kafka"})
    stranger.close()
    assert owner.status()["head_seq"] > 0


def test_ragixctl_connects_over_curve_with_key_files(tmp_path, capsys):
    import json

    from ragix_client import ctl
    from support.daemon import Daemon
    home = tmp_path / "home"
    keys = tmp_path / "keys"
    server_public, server_secret = make_keys(keys, "server")
    laptop_public, laptop_secret = make_keys(keys, "laptop")
    laptop_key = zmq.auth.load_certificate(str(laptop_public))[0].decode()
    port = free_port()
    config = tmp_path / "ragixd.toml"
    config.write_text(f'tcp_endpoint = "tcp://127.0.0.1:{port}"\ncurve_secret_key_file = "{server_secret}"\n\n'
                      f'[trust]\n"{laptop_key}" = "inner"\n')
    daemon = Daemon(home, extra_env={"RAGIX_CONFIG": str(config)}).start()
    try:
        daemon.client().write(title="shared plan", content="kafka upgrade", store="shared")
        tcp = ["--endpoint", f"tcp://127.0.0.1:{port}", "--timeout", "10", "--json"]
        code = ctl.main([*tcp, "--server-key", str(server_public), "--client-key", str(laptop_secret),
                         "search", "kafka", "--mode", "fts"])
        out = capsys.readouterr().out
        assert code == 0 and [i["title"] for i in json.loads(out)["items"]] == ["shared plan"]
        assert ctl.main([*tcp, "--server-key", str(server_public), "status"]) == 2  # half a key pair
        assert "needs both" in capsys.readouterr().err
        keyed = [*tcp, "--server-key", str(server_public), "--client-key", str(laptop_secret)]
        for op in ("verify", "rebuild"):  # the owner's: forbidden, as status is (not a key error)
            assert ctl.main([*keyed, op]) == 1
            assert json.loads(capsys.readouterr().out)["error"]["code"] == "forbidden"
    finally:
        daemon.stop()


def test_a_quarantined_proposal_cannot_be_lifted_by_its_author(gated):
    _daemon, owner, _ids, client = gated
    inner = client("inner")
    r = inner.write(title="inner hunch", content="the cache may be stale on Mondays")
    assert r["status"] == "quarantined"
    for patch in ({"validation": "verified"}, {"expires_at": None}, {"tier": "ltm"},
                  {"content": "now sure", "validation": "verified"}):
        with pytest.raises(Forbidden) as err:
            inner.update(r["id"], patch=patch)
        assert "owner" in str(err.value)
    item = owner.read(r["id"])["items"][0]
    assert (item["tier"], item["validation"], item["content"]) == ("stm", "unverified", "the cache may be stale on Mondays")
    assert item["expires_at"]
    assert inner.update(r["id"], patch={"content": "the cache is stale on Mondays"})["status"] == "updated"
    with pytest.raises(Forbidden):
        inner.write(title="self-verified", content="trust me", validation="verified")
    assert owner.update(r["id"], patch={"validation": "verified"})["status"] == "updated"
    inner.close()


def test_a_link_to_an_invisible_item_is_answered_as_one_to_no_item(gated):
    """A write or a proposal linking to an item of a store the caller cannot see is answered as
    one linking to an id that does not exist: no existence oracle, and nothing is linked."""
    from ragixd.errors import NotFound
    _daemon, owner, ids, client = gated
    inner = client("inner")
    ghost = "MEM-00000000deadbeef"
    for target in (ids["private"], ghost):
        with pytest.raises(NotFound) as err:
            inner.write(title="linked", content=f"pointing at {target[-4:]}", store="shared",
                        links=[{"rel": "related", "to": target}])
        assert err.value.message == f"no item {target}"
        answer = inner.propose(items=[{"title": "linked", "content": f"proposal to {target[-4:]}",
                                       "store": "shared", "links": [{"rel": "related", "to": target}]}])
        item = answer["items"][0]
        assert item["status"] == "invalid" and item["error"] == f"no item {target}", item
    assert owner.read(ids["private"])["items"][0]["links"] == []
    visible = inner.write(title="linked", content="to a shared note", store="shared",
                          links=[{"rel": "related", "to": ids["shared"]}])
    assert owner.read(visible["id"])["items"][0]["links"] == [{"rel": "related", "to": ids["shared"]}]
    inner.close()


def test_the_owners_links_into_a_store_a_caller_cannot_see_are_left_out_of_what_it_reads(gated):
    """The owner may link a shared item to a private one; below full trust, the private id is
    not shown by read, search, timeline, history, palace.get or export (it would tell that the
    item exists), while the links to what the caller sees stay."""
    _daemon, owner, ids, client = gated
    pointer = owner.write(title="zebra runbook pointer", content="zebra steps are elsewhere", store="shared",
                          links=[{"rel": "references", "to": ids["private"]},
                                 {"rel": "related", "to": ids["social"]}])["id"]
    owner.update(pointer, patch={"content": "zebra steps are still elsewhere"})
    owner.palace_assign(pointer)
    kept = [{"rel": "related", "to": ids["social"]}]
    assert len(owner.read(pointer)["items"][0]["links"]) == 2
    inner = client("inner")
    assert inner.read(pointer)["items"][0]["links"] == kept
    (hit,) = [h for h in inner.search("zebra runbook", mode="fts")["items"] if h["id"] == pointer]
    assert hit["item"]["links"] == kept
    assert [i["links"] for i in inner.timeline(pointer)["items"] if i["id"] == pointer] == [kept]
    assert all(r["snapshot"]["links"] == kept for r in inner.history(pointer)["revisions"])
    assert inner.palace_get(pointer)["item"]["links"] == kept
    (line,) = [x for x in inner.export()["lines"] if x["item"]["id"] == pointer]
    assert line["item"]["links"] == kept
    blob = str([inner.read(pointer), inner.history(pointer), inner.export()])
    assert ids["private"] not in blob
    inner.close()


def test_a_large_write_below_full_trust_is_not_stopped_by_the_size_check(gated):
    """Over 64 KiB the client asks the daemon's limit from status, which is the owner's: below
    full trust it sends the request and lets the daemon say whether it is too large."""
    from ragixd.errors import TooLarge
    _daemon, owner, _ids, client = gated
    inner = client("inner")
    big = "lorem ipsum " * 8000  # 96,000 characters: a pointer may hold 100,000
    r = inner.write(title="large pointer", content=big, type="pointer", store="shared")
    assert owner.read(r["id"])["items"][0]["content"] == big
    with pytest.raises(TooLarge):
        inner.write(title="huge", content="x" * (9 * 1024 * 1024), type="pointer", store="shared")
    inner.close()
