"""The retrieval benchmark's query noise (--typos, --inflect): deterministic per seed and query
id, one edit to each of one or two content words, stop words and short words left alone."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_retrieval as br  # noqa: E402

QUERY = "When did Caroline go to the LGBTQ support group about adoption?"


@pytest.fixture
def noise():
    saved = dict(br.NOISE)
    yield br.NOISE
    br.NOISE.update(saved)


def edit_distance_one(a: str, b: str) -> bool:
    """b is a with one adjacent swap, deletion or doubling."""
    if len(b) == len(a) - 1:
        return any(a[:i] + a[i + 1:] == b for i in range(len(a)))
    if len(b) == len(a) + 1:
        return any(a[:i] + a[i] + a[i:] == b for i in range(len(a)))
    return any(a[:i] + a[i + 1] + a[i] + a[i + 2:] == b for i in range(len(a) - 1)) and a != b


def test_clean_queries_are_untouched(noise):
    noise.update(typos=None, inflect=None)
    assert br.noisy(QUERY, "q1") == QUERY


def test_typos_are_deterministic_and_touch_one_or_two_long_content_words(noise):
    words = QUERY.split()
    changed_counts = set()
    for seed in range(20):
        noise.update(typos=seed, inflect=None)
        out = br.noisy(QUERY, "q1")
        assert out == br.noisy(QUERY, "q1")  # same seed, same id: same query
        got = out.split()
        assert len(got) == len(words)
        changed = [(a, b) for a, b in zip(words, got) if a != b]
        changed_counts.add(len(changed))
        for a, b in changed:
            core = a.rstrip("?")
            assert len(core) >= 5 and core.lower() not in br.STOP_WORDS
            assert b[0] == a[0] and edit_distance_one(core, b.rstrip("?"))
    assert changed_counts == {1, 2}
    noise.update(typos=1)
    assert len({br.noisy(QUERY, f"q{i}") for i in range(10)}) > 1  # keyed on the query id


def test_inflection_toggles_one_lower_case_word(noise):
    noise.update(typos=None, inflect=1)
    out = br.noisy("causes of military suicide", "7")
    assert out != "causes of military suicide" and out == br.noisy("causes of military suicide", "7")
    assert br._toggle_plural("causes") == "cause" and br._toggle_plural("military") == "militaries"
    assert br._toggle_plural("box") == "boxes" and br._toggle_plural("stories") == "story"
