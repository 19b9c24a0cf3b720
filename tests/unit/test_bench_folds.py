"""The retrieval benchmark's leave-one-conversation-out choice: each conversation is reported
with the setting that did best on the others, never with the one that did best on itself."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_retrieval import held_out  # noqa: E402


def conv(r10, n):
    return {"n": n, "recall@10": r10}


def test_each_fold_takes_the_best_on_the_other_conversations():
    runs = {
        "a": {"c1": conv(0.9, 10), "c2": conv(0.5, 10), "c3": conv(0.5, 10)},
        "b": {"c1": conv(0.1, 10), "c2": conv(0.6, 10), "c3": conv(0.6, 10)},
    }
    out = held_out(runs)
    # c1 is held out: b is better on c2 and c3, so c1 gets b's 0.1 (a's 0.9 there is not looked at).
    assert out["folds"]["c1"] == {"chosen": "b", "recall@10": 0.1, "n": 10}
    # c2 held out: a scores (0.9 + 0.5) / 2 = 0.7 on c1 and c3, b 0.35.
    assert out["folds"]["c2"]["chosen"] == "a" and out["folds"]["c2"]["recall@10"] == 0.5
    assert out["folds"]["c3"]["chosen"] == "a"
    assert out["recall@10"] == pytest.approx((0.1 + 0.5 + 0.5) / 3, abs=1e-4)


def test_the_others_are_weighted_by_questions_and_ties_go_to_the_first_setting():
    runs = {
        "a": {"c1": conv(0.0, 1), "c2": conv(1.0, 1), "c3": conv(0.5, 8)},
        "b": {"c1": conv(0.0, 1), "c2": conv(0.0, 1), "c3": conv(0.6, 8)},
    }
    # c1 held out: a = (1.0 + 4.0) / 9, b = (0.0 + 4.8) / 9: a, though b wins the larger conversation.
    assert held_out(runs)["folds"]["c1"]["chosen"] == "a"
    same = {"x": {"c1": conv(0.5, 2), "c2": conv(0.5, 2)}, "y": {"c1": conv(0.5, 2), "c2": conv(0.5, 2)}}
    assert {f["chosen"] for f in held_out(same)["folds"].values()} == {"x"}
    # The overall figure is weighted by each held-out conversation's questions.
    uneven = {"x": {"c1": conv(1.0, 3), "c2": conv(0.0, 1)}}
    assert held_out(uneven)["recall@10"] == 0.75
