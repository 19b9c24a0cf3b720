"""A palace location given by a caller: each of domain, room and shelf must be text that can be
seen and typed back (`ragixctl palace list d/r/s`)."""

import pytest

from ragixd.domain.palace import validate_location
from ragixd.errors import InvalidInput

ID = "MEM-0123456789abcdef"


@pytest.mark.parametrize("room", [" ", "\t", "a\nb", "ops\n", "\x1b[2K", ""])
def test_a_blank_or_control_segment_is_refused_naming_its_level(room):
    with pytest.raises(InvalidInput) as err:
        validate_location({"domain": "project", "room": room, "shelf": "note"}, ID)
    assert err.value.details["field"] == "location.room"


@pytest.mark.parametrize("room", ["ops", "é ü", "中文", "two words", "a-b_c.d"])
def test_visible_segments_are_kept_as_given(room):
    location = validate_location({"domain": "project", "room": room, "shelf": "note"}, ID)
    assert location == {"domain": "project", "room": room, "shelf": "note", "card": ID}


def test_joiners_are_part_of_a_place_name_other_format_characters_are_not():
    import pytest

    from ragixd.domain.palace import slug, validate_location
    from ragixd.errors import InvalidInput
    for room in ("👨\u200d👩\u200d👧", "می\u200cخواهم"):
        assert validate_location({"domain": "d", "room": room, "shelf": "s"}, "MEM-abcd")["room"] == room
        assert slug(room) == room
    for hidden in ("a\u202eb", "a\u200bb", "a\U000e0041b", "a\x01b"):
        with pytest.raises(InvalidInput):
            validate_location({"domain": "d", "room": hidden, "shelf": "s"}, "MEM-abcd")
        assert slug(hidden) == "ab"
