"""Full text in scripts written without spaces between words: each Han, kana and Hangul
character is indexed as a word, and a query's run of them is a phrase, so a word inside a
sentence is found (FTS5's unicode61 took the whole run for one word)."""

import pytest

from ragixd.domain import commands as c
from ragixd.domain.text import spaced_cjk
from ragixd.store import migrations, queries
from ragixd.store.projectors import fts
from ragixd.store.store import Store

DOCS = {
    "meeting": "我们明天在北京开会讨论数据库迁移",
    "trip": "来週は東京に出張して、新宿のホテルに泊まります",
    "seoul": "서울에서 회의가 있습니다",
    "deploy": "Deploys happen on Fridays, Sécurité first",
}


def _ids(store, query):
    return [item.title for item, _ in store.search(query)]


def _fill(store):
    for title, content in DOCS.items():
        store.run(c.CreateItem({"title": title, "content": content}))


@pytest.mark.parametrize("query, title", [
    ("北京", "meeting"), ("数据库", "meeting"), ("数据库迁移", "meeting"), ("开会", "meeting"),
    ("東京", "trip"), ("ホテル", "trip"), ("新宿", "trip"), ("서울", "seoul"), ("회의", "seoul"),
    ("Fridays", "deploy"), ("securite", "deploy"),
])
def test_a_word_inside_a_run_is_found(store, query, title):
    _fill(store)
    assert _ids(store, query) == [title]


def test_a_run_is_read_as_its_bigrams_not_a_bag_of_characters(store):
    _fill(store)
    assert _ids(store, "京北") == []  # the same two characters, not side by side in that order
    assert _ids(store, "北京 东京") == ["meeting"]  # any word: the one that is there


@pytest.mark.parametrize("question", ["北京的会议是什么时候", "明天开会吗", "数据库迁移在哪里讨论"])
def test_a_question_finds_an_item_it_shares_words_with(store, question):
    """A question is no substring of the item it is about: its runs are read as bigrams."""
    _fill(store)
    assert _ids(store, question)[:1] == ["meeting"]


def test_kana_typed_decomposed_and_composed_find_each_other(store):
    import unicodedata
    word = "がっこう"
    store.run(c.CreateItem({"title": "school", "content": unicodedata.normalize("NFD", f"{word}へ行く")}))
    assert _ids(store, word) == ["school"]
    assert _ids(store, unicodedata.normalize("NFD", word)) == ["school"]


def test_updates_take_the_old_text_out_and_the_index_stays_sound(store):
    _fill(store)
    (meeting,) = [item.id for item, _ in store.search("北京")]
    store.run(c.UpdateItem(meeting, {"content": "会议改在上海举行", "tags": ["会议"]}))
    assert _ids(store, "北京") == [] and _ids(store, "上海") == ["meeting"]
    assert _ids(store, "会议") == ["meeting"]
    report = store.verify()
    assert report["fts_ok"] and report["ok"], report


def test_spaced_cjk_leaves_other_text_as_it_is():
    for text in ("plain ascii", "Sécurité d'abord", "Привет мир", "مرحبا", ""):
        assert spaced_cjk(text) == text
    assert spaced_cjk("iPhone手机").split() == ["iPhone", "手", "机"]


def test_migration_9_indexes_a_home_written_before_it(tmp_path):
    path = tmp_path / "memory.db"
    store = Store(path, synchronous="OFF")
    _fill(store)
    conn = store._writer
    with conn:  # as version 8 left it: the index over the items' own columns, runs as one word
        conn.execute(f"DROP TABLE memory_items_fts; DROP VIEW {fts.TEXT_VIEW}; "
                     "DELETE FROM schema_migrations WHERE version >= 9")
        conn.execute(fts.FTS_DDL.split("CREATE TRIGGER")[0])
        conn.execute("INSERT INTO memory_items_fts(memory_items_fts) VALUES ('rebuild')")
    assert _ids(store, "北京") == []
    store.close()
    store = Store(path, synchronous="OFF")
    try:
        assert migrations.current_version(store.reader()) == migrations.LATEST
        assert _ids(store, "北京") == ["meeting"] and _ids(store, "서울") == ["seoul"]
        assert fts.integrity_ok(store.reader())
        assert queries.match_expression("北京 Fridays") == '"北 京" OR "Fridays"'
    finally:
        store.close()
