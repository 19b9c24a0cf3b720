"""A refused write's audit fingerprints the refused text with the store's own key: the log (which
is tailed, published and copied) holds no plain hash a guess could be checked against."""

import hashlib
import hmac

from ragixd.domain import commands as c
from ragixd.domain.encoding import content_hash
from ragixd.store.store import Store

PASSWORD = {"title": "wifi", "content": "password: hunter2"}


def refuse(store: Store, fields=PASSWORD) -> str:
    answer = store.run(c.CreateItem(dict(fields)))
    assert answer["status"] == "refused"
    event = list(store.events())[-1]
    assert event.type == "write.refused" and event.payload["content_hash"] == answer["content_hash"]
    return answer["content_hash"]


def test_the_fingerprint_is_keyed_not_a_plain_hash(store):
    digest = refuse(store)
    assert digest.startswith("hmac-sha256:")
    plain = content_hash(PASSWORD["title"], PASSWORD["content"])
    assert digest.split(":", 1)[1] != plain.split(":", 1)[1]
    data = f"{PASSWORD['title']}\x00{PASSWORD['content']}".encode()
    assert digest == "hmac-sha256:" + hmac.new(store.audit_key, data, hashlib.sha256).hexdigest()
    assert store.audit_key.hex() not in repr([e.payload for e in store.events()])


def test_one_store_keeps_its_key_across_restarts_and_rebuilds(tmp_path):
    path = tmp_path / "ragix.db"
    first = Store(path, synchronous="NORMAL")
    digest = refuse(first)
    assert refuse(first) == digest  # the same text refused twice: one fingerprint
    first.rebuild()
    assert refuse(first) == digest
    first.close()
    again = Store(path, synchronous="NORMAL")
    assert refuse(again) == digest
    assert again.verify()["ok"]
    again.close()
    other = Store(tmp_path / "other.db", synchronous="NORMAL")
    assert refuse(other) != digest  # another store, another key
    other.close()


def test_different_texts_have_different_fingerprints(store):
    assert refuse(store) != refuse(store, {"title": "wifi", "content": "password: hunter3"})
