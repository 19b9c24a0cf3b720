"""The retrieval benchmarks' metric: nDCG@k with graded gains, as trec_eval computes it."""

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from common import ndcg_at  # noqa: E402


def test_graded_gains_and_log_discount():
    rels = {"a": 3, "b": 1, "c": 2}
    ranked = ["b", "x", "a"]
    dcg = 1 / math.log2(2) + 3 / math.log2(4)
    ideal = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at(ranked, rels) == pytest.approx(dcg / ideal)


def test_perfect_order_scores_one_and_nothing_relevant_scores_zero():
    rels = {"a": 2, "b": 1}
    assert ndcg_at(["a", "b", "z"], rels) == pytest.approx(1.0)
    assert ndcg_at(["z", "y"], rels) == 0.0
    assert ndcg_at(["a"], {}) == 0.0


def test_only_the_first_k_count():
    rels = {"a": 1}
    assert ndcg_at(["x"] * 10 + ["a"], rels, k=10) == 0.0
    assert ndcg_at(["x"] * 9 + ["a"], rels, k=10) == pytest.approx(1 / math.log2(11))
