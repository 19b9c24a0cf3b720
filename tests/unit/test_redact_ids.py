"""Item ids in an export: ids ragix generates are random and kept; an id a caller chose (import
accepts any MEM-[0-9A-Za-z_-]{4,64}) that would leak at the tier becomes a keyed pseudonym,
the same wherever it occurs (id, links' `to`, superseded_by, text)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ragixd.domain.ids import is_item_id, new_item_id
from ragixd.domain.redact import Redactor, redact_item, redact_text

KEY = b"k" * 32
GENERATED = re.compile(r"MEM-[0-9a-f]{16}")

HASH_ID = "MEM-5f4dcc3b5aa765d61d8327deb882cf99"
LABEL_ID = "MEM-Quuxcorp_payroll_db01"
PLAIN_ID = "MEM-0123456789abcdef"


def _item(item_id: str, to: str, superseded_by: str | None) -> dict:
    return {"id": item_id, "title": f"see {to}", "content": f"after {item_id}", "tags": [],
            "entities": [], "links": [{"rel": "supports", "to": to}], "superseded_by": superseded_by}


def test_generated_ids_carry_nothing_and_are_kept_at_every_tier():
    generated = new_item_id()
    for tier in ("S3", "S2", "S0"):
        out = redact_item(_item(generated, PLAIN_ID, PLAIN_ID), tier)
        assert out["id"] == generated
        assert out["links"][0]["to"] == PLAIN_ID and out["superseded_by"] == PLAIN_ID
        assert out["title"] == f"see {PLAIN_ID}"


def test_s3_keeps_every_id_verbatim():
    item = _item(LABEL_ID, HASH_ID, HASH_ID)
    assert redact_item(item, "S3") == item


def test_s2_replaces_an_id_that_holds_a_hash_by_a_stable_pseudonym():
    a = redact_item(_item(HASH_ID, LABEL_ID, None), "S2", id_key=KEY)
    b = redact_item(_item(PLAIN_ID, HASH_ID, HASH_ID), "S2", id_key=KEY)
    pseudonym = a["id"]
    assert pseudonym != HASH_ID and is_item_id(pseudonym)
    assert b["links"][0]["to"] == pseudonym and b["superseded_by"] == pseudonym
    assert b["title"] == f"see {pseudonym}" and a["content"] == f"after {pseudonym}"
    # An entity label is an S0 matter: S2 keeps the label id.
    assert a["links"][0]["to"] == LABEL_ID and b["id"] == PLAIN_ID


def test_s0_replaces_a_caller_chosen_id_everywhere_by_the_same_pseudonym():
    a = redact_item(_item(LABEL_ID, HASH_ID, None), "S0", id_key=KEY)
    b = redact_item(_item(HASH_ID, LABEL_ID, LABEL_ID), "S0", id_key=KEY)
    assert a["id"] == b["links"][0]["to"] == b["superseded_by"] != LABEL_ID
    assert b["id"] == a["links"][0]["to"] != HASH_ID
    assert a["id"] != b["id"]
    text = str(a) + str(b)
    for leak in ("Quuxcorp", "payroll", "5f4dcc3b"):
        assert leak not in text
    assert all(is_item_id(x) for x in (a["id"], b["id"]))


def test_pseudonyms_depend_on_the_key_so_a_guess_cannot_be_confirmed():
    one = redact_item(_item(LABEL_ID, PLAIN_ID, None), "S0", id_key=KEY)["id"]
    other = redact_item(_item(LABEL_ID, PLAIN_ID, None), "S0", id_key=b"x" * 32)["id"]
    assert one != other
    # Without a key, one process-wide key still gives the same pseudonym across calls (pages).
    assert redact_item(_item(LABEL_ID, PLAIN_ID, None), "S0")["id"] == \
        redact_item(_item(PLAIN_ID, LABEL_ID, None), "S0")["links"][0]["to"]


def test_ids_in_text_are_pseudonymised_and_the_result_is_idempotent():
    once = redact_text(f"merged into {LABEL_ID} and {HASH_ID}.", "S0")
    assert "Quuxcorp" not in once and "5f4dcc3b" not in once
    assert redact_text(once, "S0") == once
    assert redact_text(f"see {PLAIN_ID}", "S0") == f"see {PLAIN_ID}"


@given(st.from_regex(r"MEM-[0-9A-Za-z_-]{4,64}", fullmatch=True), st.sampled_from(["S2", "S0"]))
def test_any_id_maps_to_a_kept_or_generated_shaped_id_that_is_stable(item_id, tier):
    r = Redactor(tier, id_key=KEY)
    out = r.item_id(item_id)
    assert out == Redactor(tier, id_key=KEY).item_id(item_id)
    assert out == item_id or GENERATED.fullmatch(out)
    assert r.item_id(out) == out
    if tier == "S0":
        assert out == item_id or not GENERATED.fullmatch(item_id)
        assert GENERATED.fullmatch(out)
