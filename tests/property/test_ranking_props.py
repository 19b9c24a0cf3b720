"""Ranking scores only the candidates that could reach the best `keep`: its best `keep` are
always those of scoring every candidate, and a candidate left waiting scores as it would have."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from ragixd.retrieval.ranking import Ranking, order
from ragixd.store.queries import Candidate

NOW = datetime(2026, 6, 1, tzinfo=UTC)
candidate = st.tuples(
    st.sampled_from(['[]', '["kafka"]', '["ops","kafka"]', '["misc"]']),
    st.sampled_from(["chat", "doc", "tool", "mixed"]),
    st.sampled_from(["", "notes.md:1", "chat-1:S1:4"]),
    st.integers(min_value=0, max_value=2),
    st.sampled_from(["2026-05-31T10:00:00.000000Z", "2026-01-01T00:00:00.000000Z", "2027-01-01T00:00:00.000000Z"]),
    st.integers(min_value=0, max_value=12),
    st.integers(min_value=0, max_value=12),
    # A few fused values, so that ties are common; 0.0 for vector candidates below the others.
    st.sampled_from([0.0, 0.05, 0.1, 0.1000000001, 0.3, 0.31, 0.5, 0.9, 1.0]),
)
weight = st.sampled_from([0.0, 0.02, 0.05, 0.3, -0.05])


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(candidate, max_size=60), weights=st.tuples(weight, weight, weight, weight),
       half_life=st.sampled_from([30.0, 0.5, -3.0]), keep=st.integers(min_value=0, max_value=25))
def test_the_best_are_those_of_scoring_everything(rows, weights, half_life, keep):
    cands = {rid: Candidate(rid, f"MEM-{rid:04d}", tags, kind, source, hashes, at, at, usage, mentions)
             for rid, (tags, kind, source, hashes, at, usage, mentions, _) in enumerate(rows)}
    fused = {rid: row[-1] for rid, row in enumerate(rows)}

    def ranking() -> Ranking:
        return Ranking(cands, fused, "kafka ops notes", NOW, weights, half_life)

    every = sorted((ranking().score(cand) for cand in cands.values()), key=order)
    pruned = ranking()
    best = pruned.best(keep)
    assert [(h.id, h.score, h.parts) for h in best[:max(keep, 1)]] == [(h.id, h.score, h.parts) for h in every[:max(keep, 1)]]
    assert set(pruned.waiting) | {h.rid for h in best} == set(cands)
    for rid in list(pruned.waiting):
        late = pruned.late(rid)
        assert (late.score, late.parts) == next((h.score, h.parts) for h in every if h.rid == rid)
        assert order(late) > order(every[max(keep, 1) - 1])  # it could not have been among them
    assert pruned.late(next(iter(cands), 0)) is None  # scored already, or no candidate at all
