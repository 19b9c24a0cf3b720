"""Score blending: ratio-scaled lists keep every real match above nothing; min-max lists
spread bunched similarities; weights add up."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragixd.domain import scoring


def test_the_weakest_real_match_of_a_ratio_list_stays_above_zero():
    bm25 = {"strong": 9.0, "weak": 1.5}
    out = scoring.blend([bm25], [1.0], [True])
    assert out["strong"] == pytest.approx(1.0) and out["weak"] == pytest.approx(1.5 / 9.0)
    minmax = scoring.blend([bm25], [1.0], [False])  # what min-max did: the weak match was nothing
    assert minmax["weak"] == 0.0


def test_a_genuine_match_beats_a_vector_only_neighbour_of_equal_standing():
    lexical = {"match": 2.0, "best": 8.0}
    vectors = {"best": 0.62, "noise": 0.41, "match": 0.40}
    out = scoring.blend([lexical, vectors], [1.0, 0.5], [True, False])
    assert out["best"] > out["match"] > out["noise"]


scores = st.dictionaries(st.text(min_size=1, max_size=3), st.floats(0.01, 50, allow_nan=False), min_size=1, max_size=20)


@given(scores, scores, st.floats(0.1, 2), st.floats(0.1, 2))
def test_each_list_adds_at_most_its_weight_and_keeps_its_order(a, b, wa, wb):
    out = scoring.blend([a, b], [wa, wb], [True, False])
    assert all(-1e-9 <= v <= wa + wb + 1e-9 for v in out.values())
    only_a = scoring.blend([a], [wa], [True])
    ranked = sorted(a, key=lambda k: a[k])
    assert [only_a[k] for k in ranked] == sorted(only_a[k] for k in ranked)
    assert all(v > 0 for v in only_a.values())  # every ratio-list member counts for something
