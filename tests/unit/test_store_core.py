"""The in-process store: writes, dedup, revisions, timeline, filters and bad input."""

import pytest

from ragixd.domain import commands as c
from ragixd.errors import Conflict, InvalidInput, NotFound
from ragixd.store.filters import Filters, filters_from_args


def create(s, **fields):
    fields.setdefault("content", f"about {fields.get('title', '')}")  # blank content is refused
    return s.run(c.CreateItem(fields))["id"]


def test_create_and_read_round_trip(store):
    item_id = create(store, title="Deploy plan", content="Blue/green on Fridays", tags=["Ops", "ops"],
                     entities=["Alice"], type="rule", tier="mtm", provenance={"source_id": "chat:1"})
    item = store.get(item_id)
    assert item.title == "Deploy plan"
    assert item.tags == ("ops",)  # lower-cased and deduplicated
    assert item.type == "constraint"  # alias mapped
    assert item.tier == "mtm" and item.store == "private" and item.mention_count == 1
    assert item.content_hash.startswith("sha256:")


def test_unknown_type_names_become_note(store):
    assert store.get(create(store, title="x", type="whatever")).type == "note"


def test_exact_duplicate_bumps_mention_count_instead_of_copying(store):
    first = store.run(c.CreateItem({"title": "Same", "content": "body"}))
    before = store.get(first["id"])
    second = store.run(c.CreateItem({"title": "Same", "content": "body"}))
    assert second["id"] == first["id"] and second["status"] == "duplicate"
    after = store.get(first["id"])
    assert after.mention_count == 2 and after.updated_at > before.updated_at
    assert store.stats()["items"] == 1


def test_a_lasting_write_is_not_folded_into_an_expiring_or_expired_copy(store):
    """A pending (quarantined, expiring) proposal cannot absorb the owner's lasting write of the
    same text, which would then expire with it; an item past its expiry stands for nothing."""
    pending = store.run(c.CreateItem({"title": "Oncall rota", "content": "every Monday 09:00",
                                      "validation": "unverified", "expires_at": "2999-01-01T00:00:00Z"}))
    again = store.run(c.CreateItem({"title": "Oncall rota", "content": "every Monday 09:00",
                                    "validation": "unverified", "expires_at": "2998-12-31T00:00:00Z"}))
    assert again == {**again, "id": pending["id"], "status": "duplicate"}  # expiring sooner: a mention
    lasting = store.run(c.CreateItem({"title": "Oncall rota", "content": "every Monday 09:00", "tags": ["oncall"]}))
    assert lasting["status"] == "created" and lasting["id"] != pending["id"]
    kept = store.get(lasting["id"])
    assert kept.expires_at is None and kept.tags == ("oncall",)
    # once lasting, later copies are mentions of it, expiring or not
    for fields in ({}, {"expires_at": "2999-01-01T00:00:00Z"}):
        hit = store.run(c.CreateItem({"title": "Oncall rota", "content": "every Monday 09:00", **fields}))
        assert hit["id"] == lasting["id"] and hit["status"] == "duplicate"
    soon = store.run(c.CreateItem({"title": "Soon", "content": "an hour", "expires_at": "2999-01-01T00:00:00Z"}))
    later = store.run(c.CreateItem({"title": "Soon", "content": "an hour", "expires_at": "2999-06-01T00:00:00Z"}))
    assert later["status"] == "created" and store.get(later["id"]).expires_at.startswith("2999-06-01")
    shorter = store.run(c.CreateItem({"title": "Soon", "content": "an hour", "expires_at": "2999-03-01T00:00:00Z"}))
    assert shorter["status"] == "duplicate" and shorter["id"] == later["id"] != soon["id"]
    gone = store.run(c.CreateItem({"title": "Old", "content": "expired", "expires_at": "2000-01-01T00:00:00Z"}))
    fresh = store.run(c.CreateItem({"title": "Old", "content": "expired"}))
    assert fresh["status"] == "created" and fresh["id"] != gone["id"]
    assert store.get(fresh["id"]).expires_at is None and store.get(gone["id"]).mention_count == 1


def test_duplicate_in_another_store_is_a_new_item(store):
    a = create(store, title="Same", content="body", store="private")
    b = create(store, title="Same", content="body", store="social")
    assert a != b


def test_every_update_is_a_revision(store):
    item_id = create(store, title="v1", content="one")
    store.run(c.UpdateItem(item_id, {"content": "two"}, reason="fix"))
    store.run(c.UpdateItem(item_id, {"title": "v3"}))
    history = store.history(item_id)
    assert [h["revision"] for h in history] == [1, 2, 3]
    assert [h["reason"] for h in history] == ["create", "fix", "update"]
    assert history[1]["snapshot"]["content"] == "two" and history[0]["snapshot"]["content"] == "one"
    assert history[2]["snapshot"]["title"] == "v3"


def test_unchanged_update_writes_nothing(store):
    item_id = create(store, title="v1", content="one")
    seq = store.head_seq
    assert store.run(c.UpdateItem(item_id, {"content": "one"}))["status"] == "unchanged"
    assert store.head_seq == seq


def test_archive_and_supersede_hide_items_from_search(store):
    a = create(store, title="kafka retention", content="seven days")
    b = create(store, title="kafka retention policy", content="seven days for all topics")
    store.run(c.SupersedeItem(a, b))
    assert [i.id for i, _ in store.search("kafka")] == [b]
    with_archived = store.search("kafka", Filters(include_archived=True))
    assert {i.id for i, _ in with_archived} == {a, b}
    assert store.get(a).superseded_by == b and store.get(a).archived
    store.run(c.ArchiveItem(b))
    assert store.search("kafka") == []
    with pytest.raises(Conflict):
        store.run(c.UpdateItem(b, {"title": "zombie"}))


def test_search_scores_better_matches_higher(store):
    strong = create(store, title="postgres vacuum", content="postgres vacuum tuning for postgres")
    weak = create(store, title="notes", content="we mentioned postgres once")
    for i in range(20):
        create(store, title=f"filler {i}", content="unrelated text about cooking")
    results = store.search("postgres vacuum")
    assert [i.id for i, _ in results] == [strong, weak]
    assert results[0][1] > results[1][1] > 0


@pytest.mark.parametrize("query,expected", [("securite", True), ("Sécurité", True), ("SECURITE", True)])
def test_search_folds_diacritics_both_ways(store, query, expected):
    a = create(store, title="Sécurité réseau", content="pare-feu")
    b = create(store, title="securite applicative", content="revue de code")
    found = {i.id for i, _ in store.search(query)}
    assert found == {a, b}


JUNK_QUERIES = [
    '"', 'unbalanced "quote', "*", "-", ":", "^", "(", ")", "()", "NEAR", "NEAR(a b)", "AND", "OR",
    "NOT", "a AND", "title:x", "x*", "-x", "^x", "", "   ", "x" * 10_000, "a\x00b", "\x00",
    "🔥🚀", "שלום עולם", "مرحبا", "{}[]", "'; DROP TABLE memory_items; --", "col : NEAR(x y, 3)",
]


@pytest.mark.parametrize("query", JUNK_QUERIES)
def test_junk_queries_never_raise(store, query):
    create(store, title="alpha AND beta", content="near the title x")
    results = store.search(query)
    assert isinstance(results, list)
    assert store.verify()["ok"]


def test_fts_syntax_is_taken_literally(store):
    a = create(store, title="NEAR miss", content="a near miss")
    create(store, title="other", content="nothing here")
    assert [i.id for i, _ in store.search("NEAR")] == [a]
    assert [i.id for i, _ in store.search("title:miss")] == [a]
    assert [i.id for i, _ in store.search("miss*")] == [a]


def test_filters(store):
    a = create(store, title="db one", tier="stm", type="fact", tags=["db", "x"], scope="p1")
    b = create(store, title="db two", tier="mtm", type="decision", tags=["db"], scope="p2",
               provenance={"source_id": "s"})
    c_ = create(store, title="db three", tier="ltm", type="fact", tags=["x"], store="shared",
                provenance={"source_id": "s"})

    def ids(**args):
        return {i.id for i, _ in store.search("db", filters_from_args(args))}

    assert ids() == {a, b, c_}
    assert ids(tier="mtm") == {b}
    assert ids(tiers=["stm", "ltm"]) == {a, c_}
    assert ids(type="fact") == {a, c_}
    assert ids(tags=["db", "x"]) == {a}
    assert ids(tags="x") == {a, c_}
    assert ids(scope="p2") == {b}
    assert ids(store="shared") == {c_}
    created = store.get(b).created_at
    assert ids(after=created) == {b, c_}
    assert ids(before=created) == {a}
    with pytest.raises(InvalidInput) as err:
        filters_from_args({"tier": "xl"})
    assert err.value.field == "tier"


def test_timeline_window(store):
    ids = [create(store, title=f"event {i}") for i in range(7)]
    window = store.timeline(ids[3], before=2, after=2)
    assert [i.id for i in window] == ids[1:6]
    assert [i.id for i in store.timeline(ids[0], before=3, after=1)] == ids[:2]
    with pytest.raises(NotFound):
        store.timeline("MEM-doesnotexist")


BAD_CREATES = [
    ({"title": "x" * 201}, "title"),
    ({"title": "ok", "content": "y" * 3001}, "content"),
    ({"title": "ok", "tier": "xtm"}, "tier"),
    ({"title": 5}, "title"),
    ({"title": "ok", "tags": "a,b"}, "tags"),
    ({"title": "ok", "tags": [1]}, "tags"),
    ({"title": "ok", "confidence": 2}, "confidence"),
    ({"title": "ok", "confidence": "high"}, "confidence"),
    ({"title": "ok", "content": "text", "id": "ITEM-1"}, "id"),
    ({"title": "ok", "store": "public"}, "store"),
    ({"title": "ok", "content": "text", "links": [{"rel": "supports", "to": "nope"}]}, "links"),
    ({"title": "ok", "expires_at": "tomorrow"}, "expires_at"),
    ({"title": "ok", "provenance": {"source_kind": "dream"}}, "provenance.source_kind"),
    ({"title": "ok", "colour": "red"}, "colour"),
    ({"title": "", "content": ""}, "content"),
    ({"title": " \t\n", "content": "\u200b "}, "content"),
    ({"title": "\u200b"}, "title"),
    ({"content": "  \n "}, "content"),
]


@pytest.mark.parametrize("fields,field", BAD_CREATES)
def test_bad_input_names_the_field_and_writes_nothing(store, fields, field):
    seq = store.head_seq
    with pytest.raises(InvalidInput) as err:
        store.run(c.CreateItem(fields))
    assert err.value.field == field
    assert store.head_seq == seq and store.stats()["events"] == seq


def test_an_item_needs_visible_text_in_its_title_or_its_content(store):
    with pytest.raises(InvalidInput, match="content: is blank, and so is the other"):
        store.run(c.CreateItem({"title": "  ", "content": "\u200b"}))
    title_only = create(store, title="Deploy window", content="")
    turn = store.run(c.CreateItem({"title": "", "content": "Caroline: I went to the support group"}))["id"]
    assert store.get(title_only).title == "Deploy window" and store.get(turn).title == ""
    for item_id, patch, field in ((title_only, {"title": " "}, "title"), (turn, {"content": "\t"}, "content")):
        seq = store.head_seq
        with pytest.raises(InvalidInput) as err:
            store.run(c.UpdateItem(item_id, patch))
        assert err.value.field == field and store.head_seq == seq
    store.run(c.UpdateItem(title_only, {"content": "Fridays", "title": ""}))  # one blank, one not
    assert store.get(title_only).content == "Fridays"


def test_pointer_items_may_be_long(store):
    item_id = create(store, title="big doc", content="z" * 5000, type="pointer")
    assert len(store.get(item_id).content) == 5000


def test_malformed_ids_on_other_commands(store):
    for command in (c.UpdateItem("x", {"title": "y"}), c.ArchiveItem("MEM-"), c.CreateLink("a", "b")):
        with pytest.raises(InvalidInput):
            store.run(command)
    with pytest.raises(NotFound):
        store.run(c.ArchiveItem("MEM-000000000000"))


def test_a_failing_command_does_not_spoil_its_group(store):
    group = store.execute([c.CreateItem({"title": "good", "content": "a"}), c.CreateItem({"title": "x" * 500}),
                           c.CreateItem({"title": "good too", "content": "b"})])
    assert isinstance(group.results[1], InvalidInput)
    assert group.results[0]["status"] == group.results[2]["status"] == "created"
    assert store.stats()["items"] == 2 and store.verify()["ok"]


def test_usage_is_recorded_only_by_explicit_events(store):
    item_id = create(store, title="used thing")
    store.search("used")
    store.get(item_id)
    assert store.get(item_id).usage_count == 0
    store.run(c.RecordUse({item_id: 3}))
    item = store.get(item_id)
    assert item.usage_count == 3 and item.last_used_at is not None


def test_promotion_only_goes_up(store):
    item_id = create(store, title="p", provenance={"source_id": "x"})
    store.run(c.PromoteItem(item_id, "mtm"))
    assert store.get(item_id).tier == "mtm"
    with pytest.raises(Conflict):
        store.run(c.PromoteItem(item_id, "stm"))


def test_links_and_palace(store):
    a = create(store, title="a", tags=["Architecture Notes"], scope="proj")
    b = create(store, title="b")
    store.run(c.CreateLink(a, b, "supports"))
    assert store.run(c.CreateLink(a, b, "supports"))["status"] == "unchanged"
    assert store.get(a).links == (("supports", b),)
    loc = store.run(c.AssignPalace(a))["location"]
    assert loc == {"domain": "proj", "room": "architecture-notes", "shelf": "note", "card": a}
    from ragixd.store import queries
    listing = queries.palace_list(store.reader(), "proj")
    assert listing["level"] == "room" and listing["children"] == [{"name": "architecture-notes", "count": 1}]
    assert queries.palace_list(store.reader(), "proj/architecture-notes/note")["children"][0]["name"] == a


def test_an_archived_item_keeps_links_places_and_uses_but_not_changes(store):
    """As the README's archive row says: an archived item can still be linked, placed and
    counted as used (an import restores them; a use may follow an archive), not changed."""
    a = create(store, title="retired runbook")
    b = create(store, title="current runbook")
    store.run(c.ArchiveItem(a))
    assert store.run(c.CreateLink(b, a, "supersedes"))["status"] == "created"
    assert store.run(c.AssignPalace(a))["location"]["card"] == a
    store.run(c.RecordUse({a: 1}))
    assert store.get(a).usage_count == 1 and store.get(a).archived
    assert store.run(c.ArchiveItem(a))["status"] == "unchanged"
    for command in (c.UpdateItem(a, {"title": "zombie"}), c.PromoteItem(a, "mtm")):
        seq = store.head_seq
        with pytest.raises(Conflict):
            store.run(command)
        assert store.head_seq == seq


def test_entities_index_counts_mentions(store):
    create(store, title="meeting", content="with Alice", entities=["Alice", "Bob"])
    create(store, title="lunch", content="with Alice", entities=["alice"])
    store.run(c.CreateItem({"title": "meeting", "content": "with Alice"}))  # dedup hit
    from ragixd.store import queries
    people = {e["name"].lower(): e for e in queries.entities(store.reader())}
    assert people["alice"]["mention_count"] == 3
    assert people["bob"]["mention_count"] == 2
    assert len(people["alice"]["item_ids"]) == 2


def test_one_entity_in_two_spellings_is_listed_and_counted_once_for_an_item(store):
    item = create(store, title="sync", content="with Alice and Zoe",
                  entities=["Alice", "alice", "Zoë Martin", "zoe  martin", "Bob"])
    assert store.get(item).entities == ("Alice", "Zoë Martin", "Bob")
    from ragixd.store import queries
    counts = {e["name"]: e["mention_count"] for e in queries.entities(store.reader())}
    assert counts == {"Alice": 1, "Zoë Martin": 1, "Bob": 1}


def test_an_entity_re_spelt_by_an_update_keeps_its_item_and_its_count(store):
    item = create(store, title="sync", content="with Yannick", entities=["Yannick Lefèvre"])
    store.run(c.UpdateItem(item, {"entities": ["yannick lefevre"]}))
    store.run(c.UpdateItem(item, {"entities": ["Yannick  Lefevre", "Bob"]}))
    from ragixd.store import queries
    found = {e["name"].lower(): e for e in queries.entities(store.reader())}
    assert found["yannick lefèvre"]["mention_count"] == 1 and found["yannick lefèvre"]["item_ids"] == [item]
    assert found["bob"]["item_ids"] == [item]


def test_refusal_audit_holds_no_content(store):
    store.run(c.RecordRefusal("sha256:" + "a" * 64, ("secret: aws access key",), ("secret.aws",), "chat", "write"))
    event = list(store.events())[-1]
    assert event.type == "write.refused"
    assert set(event.payload) == {"content_hash", "reasons", "rules", "source", "op"}


def _fts_ids(s, query):
    return [i.id for i, _ in s.search(query)]


def test_full_text_index_follows_updates_within_and_across_groups(store):
    """The index is written once per group: text changed inside the group that created it,
    changed again in a later group, or changed twice in one group must all end up indexed as
    the item's final text, with nothing stale left behind."""
    first = store.execute([c.CreateItem({"title": "alpha", "content": "walrus"})]).results[0]["id"]
    out = store.execute([
        c.CreateItem({"title": "beta", "content": "pelican"}),
        c.UpdateItem(first, {"content": "narwhal"}),
        c.UpdateItem(first, {"content": "octopus"}),
    ])
    second = out.results[0]["id"]
    store.run(c.UpdateItem(second, {"content": "flamingo", "tags": ["birds"]}))
    assert _fts_ids(store, "walrus") == [] and _fts_ids(store, "narwhal") == []
    assert _fts_ids(store, "octopus") == [first]
    assert _fts_ids(store, "pelican") == [] and _fts_ids(store, "flamingo") == [second]
    assert _fts_ids(store, "birds") == [second]
    report = store.verify()
    assert report["ok"] and report["fts_ok"]


def test_full_text_index_survives_a_group_whose_command_fails_to_apply(store, monkeypatch):
    """A command that fails while its events are applied is rolled back alone; the index still
    matches the items the rest of the group wrote."""
    from ragixd.store.projectors import entities

    item_id = create(store, title="gamma", content="original words")
    real = entities.EntitiesProjector.apply
    calls = {"n": 0}

    def flaky(self, conn, event, changes):
        calls["n"] += 1
        if any(ch.after.title == "boom" for ch in changes):
            raise ValueError("projector failure")
        return real(self, conn, event, changes)

    monkeypatch.setattr(entities.EntitiesProjector, "apply", flaky)
    out = store.execute([c.UpdateItem(item_id, {"content": "replacement words"}),
                         c.CreateItem({"title": "boom", "content": "never indexed"}),
                         c.CreateItem({"title": "delta", "content": "kept words"})])
    assert isinstance(out.results[1], Exception)
    assert _fts_ids(store, "replacement") == [item_id] and _fts_ids(store, "original") == []
    assert _fts_ids(store, "never") == [] and len(_fts_ids(store, "kept")) == 1
    monkeypatch.setattr(entities.EntitiesProjector, "apply", real)
    report = store.verify()
    assert report["ok"] and report["fts_ok"]


def test_stats_never_scan_yet_match_a_scan(store):
    """Counts come from one index pass and the log totals projection; they equal counting
    everything, through writes, archives, refused commands and a rebuild."""
    from ragixd.domain import commands as c

    def scanned():
        conn = store.reader()
        events, size = conn.execute("SELECT count(*), coalesce(sum(length(payload)), 0) FROM memory_events").fetchone()
        by_tier = dict(conn.execute("SELECT tier, count(*) FROM memory_items WHERE archived=0 GROUP BY tier"))
        archived = conn.execute("SELECT count(*) FROM memory_items WHERE archived=1").fetchone()[0]
        return events, size, by_tier, archived

    def check():
        s = store.stats()
        events, size, by_tier, archived = scanned()
        assert (s["events"], s["log_bytes"], s["by_tier"], s["archived"]) == (events, size, by_tier, archived)
        assert s["events"] == s["head_seq"]

    check()
    ids = [r["id"] for r in store.execute([
        c.CreateItem({"title": f"note {i}", "content": f"body {i}", "type": ("fact", "note")[i % 2]}, dedup=False)
        for i in range(12)]).results]
    check()
    store.execute([c.ArchiveItem(ids[0], reason="old"),
                   c.CreateItem({"title": "k", "content": "password: hunter2"}, dedup=False)])
    check()
    store.rebuild()
    check()
    assert store.stats()["by_type"] == {"fact": 5, "note": 6}


def test_log_totals_count_only_committed_seqs(tmp_path):
    """A group that isolates its commands: a failed command's events either share seqs with
    the next command's (replaced) or lie past the group's head (not counted)."""
    import apsw

    from ragixd.domain.events import Event
    from ragixd.store.projectors.log_totals import LOG_TOTALS_DDL, LogTotalsProjector, totals

    conn = apsw.Connection(str(tmp_path / "t.db"))
    conn.execute(LOG_TOTALS_DDL)
    proj = LogTotalsProjector()

    def ev(seq, size):
        return Event(seq, f"EVT-{seq}", "item.created", 1, "t", "a", {}, "", "", size)

    for seq, size in ((1, 10), (2, 20), (3, 99)):  # the command holding seq 3 fails
        proj.apply(conn, ev(seq, size), [])
    proj.flush(conn, 2)
    assert totals(conn) == (2, 30)
    for seq, size in ((3, 50), (4, 60), (3, 5), (4, 7), (5, 1)):  # 3-4 fail, then 3-4 commit, 5 fails
        proj.apply(conn, ev(seq, size), [])
    proj.flush(conn, 4)
    assert totals(conn) == (4, 42)
    proj.apply(conn, ev(5, 8), [])
    proj.discard()  # a rolled-back group adds nothing
    proj.flush(conn, 5)
    assert totals(conn) == (4, 42)


def _schema(conn):
    return sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


def test_a_rebuild_leaves_the_schema_a_fresh_store_has(store, tmp_path):
    """A rebuild drops every projection and makes it again: the same tables and indexes."""
    from ragixd.store.store import Store

    for i in range(30):
        create(store, title=f"note {i}", content=f"body {i}", tags=["a", f"t{i % 3}"], entities=[f"p{i % 4}"])
    fresh = Store(tmp_path / "fresh.db", synchronous="NORMAL")
    expected = _schema(fresh.reader())
    fresh.close()
    assert _schema(store.reader()) == expected
    store.rebuild()
    assert _schema(store.reader()) == expected
    indexes = {r[1] for r in expected if r[0] == "index"}
    assert {"idx_items_hash", "idx_items_created", "idx_entity_items_item"} <= indexes
    assert store.verify()["ok"]


def test_a_rebuild_cut_short_is_redone_on_open(tmp_path, monkeypatch):
    """A replay that fails after committing some batches leaves positions behind the log: the
    next open rebuilds, and the projections are whole again."""
    import ragixd.store.store as store_mod
    from ragixd.store.projectors.entities import EntitiesProjector
    from ragixd.store.store import Store

    s = Store(tmp_path / "memory.db", synchronous="NORMAL")
    for i in range(30):
        create(s, title=f"note {i}", content=f"body {i}", entities=[f"p{i % 4}"])
    expected = _schema(s.reader())
    monkeypatch.setattr(store_mod, "REPLAY_BATCH", 5)
    original = EntitiesProjector.apply

    def failing(self, conn, event, changes):
        if event.seq == 17:
            raise RuntimeError("power cut")
        original(self, conn, event, changes)

    monkeypatch.setattr(EntitiesProjector, "apply", failing)
    with pytest.raises(RuntimeError):
        s.rebuild()
    assert s.reader().execute("SELECT count(*) FROM memory_items").fetchone()[0] < 30  # cut short
    s.close()
    monkeypatch.setattr(EntitiesProjector, "apply", original)
    s = Store(tmp_path / "memory.db", synchronous="NORMAL")
    assert _schema(s.reader()) == expected
    assert s.verify()["ok"] and s.stats()["items"] == 30
    s.close()


def test_a_rebuild_indexes_the_text_items_end_with(store, monkeypatch):
    """The full-text index is built once from the items' final rows: an item updated in
    several batches is found by its last text only, and the index checks clean."""
    import ragixd.store.store as store_mod

    ids = [create(store, title=f"kiln {i}", content=f"glaze batch {i} oxblood") for i in range(12)]
    for glaze in ("tenmoku", "shino", "raku"):  # updates spread over the replay's batches
        for n, item_id in enumerate(ids[::2]):
            store.run(c.UpdateItem(item_id, {"content": f"celadon over {glaze} on pot {n}"}))
    monkeypatch.setattr(store_mod, "REPLAY_BATCH", 7)
    heard = []
    store.rebuild(lambda *p: heard.append(p))
    assert [p for p in heard if p[0] == "index"][-1] == ("index", 12, 12)
    assert [p[0] for p in heard].index("index") > max(i for i, p in enumerate(heard) if p[0] == "replay")
    assert {i.id for i, _ in store.search("oxblood", k=20)} == set(ids[1::2])
    assert {i.id for i, _ in store.search("celadon", k=20)} == set(ids[::2])
    assert store.search("tenmoku", k=20) == [] and store.search("shino", k=20) == []
    assert {i.id for i, _ in store.search("raku", k=20)} == set(ids[::2])
    assert store.verify()["ok"]


def test_a_rebuild_stopped_while_indexing_is_redone_on_open(tmp_path, monkeypatch):
    """Pieces of the index committed before a stop are not mistaken for a whole index: the
    positions still lag the log, so the next open rebuilds everything."""
    import ragixd.store.store as store_mod
    from ragixd.store.store import Store

    s = Store(tmp_path / "memory.db", synchronous="NORMAL")
    for i in range(30):
        create(s, title=f"note {i}", content=f"body {i} porcelain")
    monkeypatch.setattr(store_mod, "REPLAY_BATCH", 5)

    def stop_in_the_index(phase, done, total):
        if phase == "index" and done >= 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        s.rebuild(stop_in_the_index)
    indexed = s.reader().execute(
        "SELECT count(*) FROM memory_items_fts WHERE memory_items_fts MATCH 'porcelain'").fetchone()[0]
    assert 0 < indexed < 30  # some pieces were committed
    s.close()
    s = Store(tmp_path / "memory.db", synchronous="NORMAL")
    assert len(s.search("porcelain", k=50)) == 30
    assert s.verify()["ok"]
    s.close()


def test_a_patch_cannot_null_a_field_that_has_no_none():
    import pytest

    from ragixd.domain.item import validate_patch
    for name in ("title", "content", "tier", "type", "validation", "scope", "tags", "entities",
                 "provenance", "confidence"):
        with pytest.raises(InvalidInput) as err:
            validate_patch({name: None}, "note")
        assert err.value.details["field"] == name
    assert validate_patch({"expires_at": None}, "note") == {"expires_at": None}


def test_an_update_of_provenance_keeps_what_it_does_not_give(store):
    item_id = create(store, title="chunk", content="from a doc",
                     provenance={"source_kind": "doc", "source_id": "a.md:1", "chunk_ids": ["c1"],
                                 "content_hashes": ["sha256:" + "0" * 64]})
    store.run(c.UpdateItem(item_id, {"provenance": {"chunk_ids": ["c1", "c2"]}}))
    prov = store.get(item_id).provenance
    assert (prov.source_kind, prov.source_id, prov.chunk_ids) == ("doc", "a.md:1", ("c1", "c2"))
    store.run(c.UpdateItem(item_id, {"provenance": {"source_id": "b.md:2"}}))
    prov = store.get(item_id).provenance
    # a new source keeps the kind; the old source's chunks and hashes go with it
    assert (prov.source_kind, prov.source_id, prov.chunk_ids, prov.content_hashes) == ("doc", "b.md:2", (), ())
    with pytest.raises(InvalidInput):
        store.run(c.UpdateItem(item_id, {"content": None}))
    assert store.get(item_id).content == "from a doc"


def test_a_reason_with_nul_is_refused_and_a_derived_place_holds_no_hidden_characters(store):
    item_id = create(store, title="placed", tags=["a\x01b"], scope="my\u202escope")
    with pytest.raises(InvalidInput):
        store.run(c.UpdateItem(item_id, {"title": "placed again"}, reason="why\x00not"))
    location = store.run(c.AssignPalace(item_id))["location"]
    assert (location["domain"], location["room"]) == ("myscope", "ab")
    with pytest.raises(InvalidInput):
        store.run(c.AssignPalace(item_id, {"domain": "my\u202escope", "room": "r", "shelf": "s"}))


def test_a_type_filter_reads_type_names_as_a_write_stores_them(store):
    todo = create(store, title="ship it", type="Task")
    assert store.get(todo).type == "todo"
    assert [i.id for i, _ in store.search("ship", filters_from_args({"type": "task"}))] == [todo]
    assert [i.id for i, _ in store.search("ship", filters_from_args({"types": ["todo", "rule"]}))] == [todo]
    with pytest.raises(InvalidInput) as err:
        filters_from_args({"type": "banana"})
    assert err.value.details["field"] == "type" and "todo" in err.value.message


def test_an_update_that_makes_a_long_pointer_a_note_is_invalid_input_and_logs_nothing(store):
    item_id = create(store, title="long", type="pointer", content="word " * 1000)
    seq = store.head_seq
    with pytest.raises(InvalidInput) as err:
        store.run(c.UpdateItem(item_id, {"type": "note"}))
    assert err.value.details["field"] == "content" and store.head_seq == seq


def test_an_unknown_field_named_like_a_key_is_not_repeated_and_null_in_provenance_is_refused(store):
    key = "sk-live-4f9d8a7b6c5d4e3f"
    for command in (c.CreateItem({"title": "t", "content": "x", key: 1}),):
        with pytest.raises(InvalidInput) as err:
            store.run(command)
        assert "4f9d8a7b" not in str(err.value.message) + str(err.value.details)
    item_id = create(store, title="kept", provenance={"source_kind": "doc", "source_id": "a.md:1"})
    with pytest.raises(InvalidInput) as err:
        store.run(c.UpdateItem(item_id, {key: 1}))
    assert "4f9d8a7b" not in str(err.value.message) + str(err.value.details)
    for null in ({"source_kind": None}, {"source_id": None}, {"chunk_ids": None}):
        with pytest.raises(InvalidInput) as err:
            store.run(c.UpdateItem(item_id, {"provenance": null}))
        assert err.value.details["field"].startswith("provenance.")
    assert store.get(item_id).provenance.source_kind == "doc"
