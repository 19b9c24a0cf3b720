"""The words a search reads in its query: every word of a long prompt can count (not only
its first 32), and a word written with combining marks (decomposed accents as macOS types
them, Hindi vowel signs, Arabic vowels) is one word, not fragments."""

import unicodedata

from ragixd.domain.text import content_terms, words


def test_a_word_at_the_end_of_a_long_prompt_is_read():
    filler = " ".join(f"topic{n}" for n in range(40))
    assert "quokka" in content_terms(f"{filler} quokka")
    short = " ".join(f"w{n:03d}" for n in range(100))  # more words than a query keeps
    terms = content_terms(f"{short} and finally what happens during an evacuation")
    assert "evacuation" in terms and len(terms) == 48
    assert terms == [t for t in content_terms(f"{short} and finally what happens during an evacuation", 200)
                     if t in terms]  # the kept ones in the prompt's order


def test_combining_marks_stay_inside_their_word():
    assert words(unicodedata.normalize("NFD", "Sécurité réseau")) == [
        unicodedata.normalize("NFD", "Sécurité"), unicodedata.normalize("NFD", "réseau")]
    assert words("सर्वर बैकअप") == ["सर्वर", "बैकअप"]
    assert words("قَاعِدَةُ البيانات") == ["قَاعِدَةُ", "البيانات"]
    assert words("plain ascii words_ok 42, \u0301alone") == ["plain", "ascii", "words_ok", "42", "alone"]


def test_decomposed_and_composed_spellings_find_each_other_in_text_and_tags(tmp_path):
    from ragixd.domain import commands as c
    from ragixd.store.filters import Filters, filters_from_args
    from ragixd.store.store import Store
    nfd = lambda t: unicodedata.normalize("NFD", t)  # noqa: E731
    store = Store(tmp_path / "s.db", synchronous="OFF")
    a = store.run(c.CreateItem({"title": "Sécurité réseau", "content": "pare-feu", "tags": ["sécurité"]}))["id"]
    b = store.run(c.CreateItem({"title": nfd("Évacuation du bâtiment"), "content": "sortie nord",
                                "tags": [nfd("sécurité")]}))["id"]
    for query, expected in ((nfd("Sécurité"), a), ("securite", a), ("évacuation", b), (nfd("évacuation"), b)):
        assert [i.id for i, _ in store.search(query)][0] == expected, query
    assert store.get(b).tags == ("sécurité",)  # stored composed
    for given in ("sécurité", nfd("Sécurité")):  # a filter typed either way
        assert {i.id for i, _ in store.search("sortie pare", filters_from_args({"tags": [given]}))} == {a, b}
    assert {i.id for i, _ in store.search("sortie", Filters(tags=("sécurité",)))} == {b}
    store.close()
