"""Session 28's audit of trust gating: a caller below full trust learns nothing of the items in
the stores it may not see (their text, tags, entities, links, places, provenance, existence or
number) and cannot change them. Each test runs a real daemon over CURVE on 127.0.0.1.

The known limits (README, "Trust-gated stores") are not asserted away here: full-text scores
are BM25 over one index of every store, and every answer's seq is the log's."""

from __future__ import annotations

import json

import pytest
import zmq

from ragix_client import Client
from ragixd.curve import make_keys
from ragixd.errors import RagixError
from support.daemon import Daemon, free_port

LEVELS = ("inner", "familiar", "public")
VISIBLE = {"inner": ("shared", "social"), "familiar": ("social",), "public": ()}
GHOST = "MEM-00000000deadbeef"  # an id no item has


def _gated_daemon(base, extra_config: str = "") -> tuple[Daemon, callable]:
    """A daemon serving ipc (the owner) and CURVE on 127.0.0.1 with one key per trust level;
    and a function making a client of a level."""
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    public_file, secret_file = make_keys(base / "keys", "server", force=True)
    server_public = zmq.auth.load_certificate(str(public_file))[0]
    keys = {level: zmq.curve_keypair() for level in LEVELS}
    port = free_port()
    trust = "\n".join(f'"{keys[level][0].decode()}" = "{level}"' for level in LEVELS)
    config = base / "ragixd.toml"
    config.write_text(f'tcp_endpoint = "tcp://127.0.0.1:{port}"\ncurve_secret_key_file = "{secret_file}"\n'
                      f'{extra_config}\n[trust]\n{trust}\n')
    daemon = Daemon(home, extra_env={"RAGIX_CONFIG": str(config)})

    def client(level: str) -> Client:
        public, secret = keys[level]
        return Client(f"tcp://127.0.0.1:{port}", timeout=20, server_public_key=server_public,
                      public_key=public, secret_key=secret)
    return daemon, client


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """Items in every store, each with tags, entities, a provenance source, a revision, a palace
    place of its own and a link (the private one to the shared one); an archived private one."""
    daemon, client = _gated_daemon(tmp_path_factory.mktemp("audit"))
    daemon.start()
    owner = daemon.client()
    ids = {}
    for store in ("private", "shared", "social"):
        item = owner.write(title=f"okapi {store} plan", content=f"the {store} okapi plan for quokka",
                           store=store, tags=[f"tag-{store}"], entities=[f"Okapi {store} person"],
                           provenance={"source_kind": "doc", "source_id": f"{store}-notes.md:1"})["id"]
        owner.update(item, patch={"content": f"the {store} okapi plan for quokka, revised"}, reason="revised")
        owner.palace_assign(id=item, location={"domain": f"dom-{store}", "room": "room", "shelf": "shelf"})
        ids[store] = item
    owner.link(src=ids["private"], dst=ids["shared"], rel="related")
    ids["archived"] = owner.write(title="okapi archived plan", content="an archived okapi", store="private")["id"]
    owner.archive(id=ids["archived"])
    yield daemon, owner, ids, client
    owner.close()
    daemon.stop()


def _answer(c: Client, op: str, args: dict) -> tuple:
    try:
        return ("ok", c.call(op, args))
    except RagixError as err:
        return ("error", err.code, err.message, err.details)


def _as_ghost(answer: tuple, hidden_id: str) -> str:
    return json.dumps(answer, sort_keys=True, default=str).replace(hidden_id, GHOST)


# Every op that names an item: its arguments for an id (`seen` is an id the caller may see).
BY_ID = {
    "read": lambda i, seen: {"ids": [i]},
    "history": lambda i, seen: {"id": i},
    "timeline": lambda i, seen: {"anchor": i, "before": 3, "after": 3},
    "palace.get": lambda i, seen: {"id": i},
    "update": lambda i, seen: {"id": i, "patch": {"content": "overwritten"}},
    "update.governed": lambda i, seen: {"id": i, "patch": {"validation": "verified"}},
    "archive": lambda i, seen: {"id": i, "reason": "gone"},
    "link.src": lambda i, seen: {"src": i, "dst": seen, "rel": "supports"},
    "link.dst": lambda i, seen: {"src": seen, "dst": i, "rel": "supports"},
    "use": lambda i, seen: {"uses": {i: 1}},
    "palace.assign": lambda i, seen: {"id": i, "location": {"domain": "d", "room": "r", "shelf": "s"}},
    "write.link": lambda i, seen: {"title": "pointer", "content": f"to {i[-4:]}", "links": [{"rel": "related", "to": i}]},
    "propose.link": lambda i, seen: {"items": [{"title": "pointer", "content": f"to {i[-4:]}",
                                                 "links": [{"rel": "related", "to": i}]}]},
}


@pytest.mark.parametrize("level", LEVELS)
def test_a_hidden_id_is_answered_as_an_id_that_does_not_exist(seeded, level):
    """Every op naming an item answers for an item of a store the caller cannot see exactly as
    for an id no item has (same error, same message, same details), and changes nothing."""
    _daemon, owner, ids, client = seeded
    c = client(level)
    seen = ids[VISIBLE[level][0]] if VISIBLE[level] else GHOST
    hidden = [ids[s] for s in ("private", "shared", "social") if s not in VISIBLE[level]] + [ids["archived"]]
    head = owner.stats()["head_seq"]
    before = owner.read(*hidden)["items"]
    for hidden_id in hidden:
        for name, args_of in BY_ID.items():
            op = name.split(".")[0]
            told = _answer(c, op, args_of(hidden_id, seen))
            assert _as_ghost(told, hidden_id) == _as_ghost(_answer(c, op, args_of(GHOST, seen)), hidden_id), \
                (name, told)
    c.close()
    assert owner.stats()["head_seq"] == head  # nothing was written
    assert owner.read(*hidden)["items"] == before


@pytest.mark.parametrize("level", LEVELS)
def test_nothing_of_a_hidden_item_is_in_any_answer(seeded, level):
    """Searches (every mode, filters naming hidden stores, archived included), recall, entities,
    the palace, stats, export and the policy audit: no id, word, tag, entity, place or source of
    an item in a hidden store appears, and counts are the visible stores' own."""
    _daemon, owner, ids, client = seeded
    c = client(level)
    hidden = [s for s in ("private", "shared", "social") if s not in VISIBLE[level]]
    answers = []
    for mode in ("fts", "vector", "hybrid"):
        for filters in ({}, {"stores": hidden or ["private"]}, {"include_archived": True},
                        {"tags": [f"tag-{s}" for s in hidden][:1] or ["tag-private"]}):
            answers.append(c.search(query="okapi quokka plan person notes", mode=mode, k=50, **filters))
    answers += [c.recall(query="okapi quokka plan", mode="hybrid", budget=5000),
                c.entities(query="okapi"), c.entities(), c.palace_list(), c.stats(),
                c.export(include_archived=True), c.export(tier="S2"), c.policy_audit(),
                *(c.palace_list(path=f"dom-{s}") for s in hidden),
                *(c.palace_list(path=f"dom-{s}/room/shelf") for s in hidden),
                *(c.timeline(anchor=ids[s], before=50, after=50) for s in VISIBLE[level])]
    blob = json.dumps(answers, default=str)
    for store in hidden:
        for secret in (ids[store], f"{store} okapi", f"tag-{store}", f"Okapi {store} person",
                       f"{store}-notes", f'"name": "dom-{store}"', f'"store": "{store}"'):
            assert secret not in blob, (store, secret)
    assert ids["archived"] not in blob
    stats = c.stats()
    assert stats["items"] == len(VISIBLE[level]) and set(stats["by_store"]) == set(VISIBLE[level])
    assert stats["archived"] == 0  # the archived item is private
    for path in (f"dom-{s}" for s in hidden):
        assert c.palace_list(path=path) == c.palace_list(path="dom-never") | {"path": path}
    c.close()


def test_a_duplicate_of_a_hidden_item_neither_bumps_it_nor_tells_it(seeded):
    """Writing or proposing the exact title and content of an item the caller cannot see makes
    a new item in the caller's store (as any new text does): the hidden one is not mentioned."""
    _daemon, owner, ids, client = seeded
    private = owner.read(ids["private"])["items"][0]
    familiar = client("familiar")
    r = familiar.write(title=private["title"], content=private["content"])
    assert r["status"] == "quarantined" and r["id"] != ids["private"]
    p = familiar.propose(items=[{"title": private["title"], "content": private["content"], "why_store": "test",
                                 "provenance": {"source_kind": "doc", "source_id": "private-notes.md:1"}}])
    assert p["items"][0]["status"] in ("accepted", "duplicate") and p["items"][0]["id"] != ids["private"]
    familiar.close()
    after = owner.read(ids["private"])["items"][0]
    assert (after["mention_count"], after["updated_at"]) == (private["mention_count"], private["updated_at"])


@pytest.mark.parametrize("level", LEVELS)
def test_the_owners_ops_are_refused_and_change_nothing(seeded, level):
    _daemon, owner, ids, client = seeded
    c = client(level)
    head = owner.stats()["head_seq"]
    for op, args in (("status", {}), ("verify", {}), ("rebuild", {}), ("tail", {"after": 0}),
                     ("import", {"lines": [{"item": {"id": ids["private"], "title": "x", "content": "y",
                                                      "archived": True}}]}),
                     ("source.retire", {"source": "private-notes.md", "keep": [], "store": "private"})):
        told = _answer(c, op, args)
        assert told[:2] == ("error", "forbidden"), (op, told)
        assert ids["private"] not in told[2]
    c.close()
    assert owner.stats()["head_seq"] == head
    assert not owner.read(ids["private"])["items"][0]["archived"]


def test_embedders_below_full_trust_do_not_say_how_large_the_index_is(seeded):
    """An index's layout moves from the flat table to the scan table or the graph past 10k
    vectors, of every store: below full trust `embedders` names the models, not their layout
    (nor the scan kernel that only a large index has)."""
    _daemon, owner, _ids, client = seeded
    assert all("layout" in e for e in owner.embedders()["embedders"])
    for level in LEVELS:
        c = client(level)
        for entry in c.embedders()["embedders"]:
            assert not {"layout", "kernel", "indexed", "items", "embedded", "missing"} & entry.keys(), (level, entry)
        c.close()


def test_items_of_hidden_stores_that_hold_every_word_do_not_change_what_a_search_finds(tmp_path):
    """A search first takes the items holding every word among the best matches, else items
    holding any word. The best matches were counted over every store, so many private items
    holding every word left too few visible ones among them, and a caller below full trust
    got other results (an item holding one of the words) than with those items absent: the
    results told how many hidden items hold the words."""
    daemon, client = _gated_daemon(tmp_path)
    daemon.start()
    try:
        owner = daemon.client()
        filler = " with a long filler text about nothing much at all" * 4
        for i in range(10):
            owner.write(title=f"walrus tusk note {i}", content=f"walrus tusk note number {i}{filler}", store="shared")
        owner.write(title="tusk", content="tusk", store="shared")  # one of the two words only
        inner = client("inner")
        before = {mode: [h["id"] for h in inner.search(query="walrus tusk", mode=mode, k=10)["items"]]
                  for mode in ("fts", "hybrid")}
        owner.import_(lines=[{"item": {"id": f"MEM-hidden{n:08d}", "title": f"walrus tusk hidden {n}",
                                       "content": f"walrus tusk walrus tusk {n}", "store": "private"}}
                             for n in range(300)])
        assert owner.stats()["by_store"]["private"] == 300
        for mode, found in before.items():
            assert [h["id"] for h in inner.search(query="walrus tusk", mode=mode, k=10)["items"]] == found, mode
        inner.close()
        owner.close()
    finally:
        daemon.stop()


RULE = '''
[policy]
extra_rules = [{id = "config.project_code", kind = "secret", pattern = "\\\\bZEBRA-\\\\d{4}\\\\b", description = "a project code"}]
'''


def test_recall_below_full_trust_does_not_name_what_it_withholds(tmp_path):
    """An item the current policy refuses (stored before its rule) is, below full trust, as an
    item not found: search leaves it out, and recall must not name it under `withheld` either
    (its owner is told, to archive or correct it); nor does `entities` list an entity whose
    name the policy refuses (the secret itself, written into an item's entities)."""
    daemon, client = _gated_daemon(tmp_path)
    daemon.start()
    owner = daemon.client()
    coded = owner.write(title="Launch plan", content="ship ZEBRA-4411 on Monday", store="shared",
                        entities=["ZEBRA-4411", "Launch team"])["id"]
    plain = owner.write(title="Launch checklist", content="launch steps: tag, build, canary", store="shared")["id"]
    owner.close()
    daemon.stop()
    config = tmp_path / "ragixd.toml"
    text = config.read_text()
    config.write_text(text.replace("\n[trust]", RULE + "\n[trust]"))
    daemon = Daemon(tmp_path / "home", extra_env={"RAGIX_CONFIG": str(config)}).start()
    try:
        owner = daemon.client()
        assert owner.recall(query="launch", budget=2000)["withheld"] == [coded]
        inner = client("inner")
        assert coded not in [h["id"] for h in inner.search(query="launch")["items"]]
        for mode in ("inject", "catalog", "hybrid"):
            out = inner.recall(query="launch", mode=mode, budget=2000)
            assert coded not in json.dumps(out) and "ZEBRA" not in json.dumps(out), mode
            assert out.get("withheld", []) == []
        assert plain in inner.recall(query="launch", budget=2000)["injected"]
        # an entity whose name is what the policy now refuses is not listed below full trust
        assert "ZEBRA" in json.dumps(owner.entities())
        assert "ZEBRA" not in json.dumps(inner.entities())
        assert [e["name"] for e in inner.entities(query="launch")["entities"]] == ["Launch team"]
        inner.close()
        owner.close()
    finally:
        daemon.stop()
