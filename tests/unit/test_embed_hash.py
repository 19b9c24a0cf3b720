"""The hash embedder: contract, determinism across processes, and the neighbourhoods it promises."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from ragixd.embed.hashing import HashEmbedder
from ragixd.embed.protocol import Embedder
from ragixd.embed.text import char_ngrams, fold, words


def cos(emb: HashEmbedder, a: str, b: str) -> float:
    va, vb = emb.embed_batch([a, b])
    return float(va @ vb)


@pytest.fixture(scope="module")
def emb() -> HashEmbedder:
    return HashEmbedder(384)


def test_contract_shape_dtype_norm(emb):
    texts = ["Sécurité du réseau", "the cat sat on the mat", "", "!!!", "a"]
    out = emb.embed_batch(texts)
    assert isinstance(emb, Embedder)
    assert out.shape == (5, 384) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    assert emb.model_name == "hash-v2-384"
    assert emb.embed_batch([]).shape == (0, 384)
    only_empty = emb.embed_batch(["", "?!"])  # a batch with no word at all
    np.testing.assert_allclose(np.linalg.norm(only_empty, axis=1), 1.0, rtol=1e-5)


def test_dimension_is_part_of_the_model_name():
    small = HashEmbedder(64)
    assert small.model_name == "hash-v2-64"
    assert small.embed_batch(["hello world"]).shape == (1, 64)
    with pytest.raises(ValueError):
        HashEmbedder(4)


@pytest.mark.parametrize("text", ["deploy the staging cluster", "deploy deploy deploy the cluster cluster",
                                  "the and of", "", "Sécurité: 3 tests échoués, tests échoués"])
def test_same_text_same_vector_whatever_the_batch(emb, text):
    # One text alone takes a shorter path than a batch row: the bits must not differ.
    alone = emb.embed_batch([text])[0]
    batched = emb.embed_batch(["other text", text, "x"])[1]
    np.testing.assert_array_equal(alone, batched)
    if text != "deploy the staging cluster":
        return
    fresh = HashEmbedder(384).embed_batch(["deploy the staging cluster"])[0]
    np.testing.assert_array_equal(alone, fresh)


def test_stable_across_processes(emb):
    # The built-in hash() is salted per process; the embedder must not depend on it.
    code = (
        "from ragixd.embed.hashing import HashEmbedder;"
        "print(HashEmbedder(384).embed_batch(['deploy the staging cluster'])[0][:8].tolist())"
    )
    env = {"PYTHONHASHSEED": "12345", "PYTHONPATH": "."}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    other = [float(x) for x in out.stdout.strip().strip("[]").split(",")]
    np.testing.assert_allclose(
        other, emb.embed_batch(["deploy the staging cluster"])[0][:8], rtol=1e-6
    )


def test_accents_and_case_fold_to_the_same_vector(emb):
    assert cos(emb, "Sécurité Réseau", "securite reseau") == pytest.approx(1.0, abs=1e-6)
    assert fold("Ça déjà ÉTÉ") == "ca deja ete"


def test_inflections_and_typos_land_near(emb):
    unrelated = cos(emb, "painting sunrise", "quarterly budget spreadsheet")
    assert cos(emb, "painting sunrise", "painted a sunrise") > unrelated + 0.3
    assert cos(emb, "kubernetes deployment", "kubernets deploymnet") > unrelated + 0.3


def test_shared_content_beats_shared_stop_words(emb):
    query = "the database migration of the project"
    assert cos(emb, query, "database migration") > cos(emb, query, "the of the and")


def test_stop_word_only_text_still_gets_a_vector(emb):
    who, again, other, empty = emb.embed_batch(["who are you", "Who are you?", "what is it", ""])
    assert float(who @ again) == pytest.approx(1.0, abs=1e-6)
    assert float(who @ other) < 0.5
    assert float(who @ empty) < 0.5


def test_related_texts_rank_above_unrelated(emb):
    docs = [
        "Caroline went to the LGBTQ support group yesterday",
        "Melanie painted a sunrise over the lake",
        "The quarterly budget spreadsheet is due Friday",
    ]
    matrix = emb.embed_batch(docs)
    for query, expected in [
        ("support groups Caroline attended", 0),
        ("Melanie's painting of the sunrise", 1),
        ("budget spreadsheets", 2),
    ]:
        assert int(np.argmax(matrix @ emb.embed_batch([query])[0])) == expected


def test_words_and_ngrams_helpers():
    assert words("Hello, World! It's 2023.") == ["hello", "world", "it", "s", "2023"]
    grams = char_ngrams("cat")
    assert "<ca" in grams and "cat>" in grams and "<cat>" in grams
    assert all(3 <= len(g) <= 5 for g in grams)


def test_golden_vector_pins_the_feature_design(emb):
    # Stored vectors are keyed by model name: if this fails, the features changed, so bump
    # FEATURE_VERSION in ragixd/embed/hashing.py (and then update these numbers).
    vec = emb.embed_batch(["Sécurité du réseau: 3 tests échoués"])[0]
    assert emb.model_name == "hash-v2-384"
    assert np.count_nonzero(vec) == 68
    for index, value in {279: 0.3149, 93: -0.30901, 10: 0.20884}.items():
        assert vec[index] == pytest.approx(value, abs=1e-4)


def test_every_script_has_words_of_its_own(emb):
    backup_ru = "Резервное копирование базы данных каждую ночь"
    lunch_ru = "Обед в столовой в час дня"
    greek = "Το αντίγραφο ασφαλείας τρέχει κάθε βράδυ"
    assert words(fold(backup_ru))[:2] == ["резервное", "копирование"]
    assert words(fold("数据库备份 每天")) == ["数据库备份", "每天"]
    assert words(fold("snake_case and 42")) == ["snake", "case", "and", "42"]  # as before for ASCII
    vecs = emb.embed_batch([backup_ru, lunch_ru, greek])
    assert float(vecs[0] @ vecs[1]) < 0.5 and float(vecs[0] @ vecs[2]) < 0.5  # not one shared vector
    query = "копирование базы данных"
    assert cos(emb, query, backup_ru) > cos(emb, query, lunch_ru) + 0.2
    assert cos(emb, "数据库", "数据库备份") > cos(emb, "数据库", "午饭时间") + 0.1  # n-grams of CJK runs


def test_blank_texts_are_known_as_such(emb):
    assert emb.is_blank("🙂") and emb.is_blank("*") and emb.is_blank("  !? ")
    assert not emb.is_blank("ok 🙂") and not emb.is_blank("数据")
