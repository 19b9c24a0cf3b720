"""The policy inside the store's decisions: system identifiers are never mistaken for secrets,
but an identifier a caller makes up is read like any other text."""

import secrets

from ragixd.domain import commands as c


def test_generated_ids_and_hashes_never_trip_the_policy(store):
    for n in range(300):
        fields = {"id": "MEM-" + secrets.token_hex(8), "title": f"imported {n}", "content": "plain text",
                  "created_at": "2026-01-01T00:00:00Z",
                  "provenance": {"source_id": "notes.md:1", "content_hashes": ["sha256:" + secrets.token_hex(32)]}}
        assert store.run(c.ImportItem(fields))["status"] == "created"
    item_id = store.run(c.CreateItem({"title": "t", "content": "c"}))["id"]
    for n in range(200):
        assert store.run(c.UpdateItem(item_id, {"content": f"revision {n}"}))["status"] == "updated"


def test_a_made_up_id_carrying_a_token_is_refused(store):
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
    result = store.run(c.ImportItem({"id": f"MEM-{token}", "title": "t", "content": "c"}))
    assert result["status"] == "refused"
    assert store.stats()["items"] == 0
