"""Text helpers shared by search and recall: word extraction, folding, stop words (en + fr)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache



def _mark_ranges(upto: int = 0x20000) -> str:
    """A regex class body of every combining mark (Unicode categories Mn, Mc, Me) below
    `upto`: \\w leaves them out, and a word written with them (Hindi vowel signs, Arabic
    vowels, an accent typed decomposed as macOS does) would be cut into fragments."""
    ranges: list[list[int]] = []
    for code in range(0x300, upto):
        if unicodedata.category(chr(code)).startswith("M"):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(f"\\U{a:08x}-\\U{b:08x}" if a != b else f"\\U{a:08x}" for a, b in ranges)


@lru_cache(maxsize=1)
def _word_re() -> re.Pattern[str]:
    """A word: letters, digits and underscore in any script, with the combining marks written
    within it (never one alone: a word starts with a letter, digit or underscore). Built at its
    first use, not at import: listing the marks reads the whole Unicode table (~50 ms), which a
    process that never splits words (ragixctl) need not pay at each start."""
    return re.compile(rf"\w[\w{_mark_ranges()}]*", re.UNICODE)

STOP_WORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself
just me more most my myself no nor not now of off on once only or other our ours ourselves out
over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which
while who whom why will with would you your yours yourself yourselves also get got let may
might must shall us ever yet did does done like
au aux avec ce ces cet cette dans de des du elle elles en est et eu il ils je la le les leur
leurs lui ma mais me meme mes moi mon ne nos notre nous on ont ou par pas pour qu que qui sa
se ses son sont sur ta te tes toi ton tu un une vos votre vous y ete etre avoir fait plus
tres sans sous chez comme donc dont alors aussi ainsi car cela ceci ca si quand quoi
""".split())


# Characters of the scripts written without spaces between words (Han, kana) or with particles
# joined to their word (Hangul syllables): full-text search indexes and queries each one as a
# word of its own (a query's run of them is then a phrase: "北京" finds "我们明天在北京开会"),
# as FTS5's unicode61 tokenizer would otherwise take a whole run for one word. Conjoining Hangul
# jamo are left out: a syllable written decomposed stays in one piece.
_SPACED_SCRIPTS = ("\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3131-\u318e"
                   "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff"
                   "\uff66-\uff9d\U00020000-\U0003134f")
_SPACED_RE = re.compile(f"[{_SPACED_SCRIPTS}]")


def spaced_cjk(text: str) -> str:
    """`text` with a space on each side of every Han, kana and Hangul syllable character (see
    _SPACED_SCRIPTS); any other text as it is. What the full-text index reads, and the form a
    query's words take, so both are cut the same way. Changing it changes what is indexed: the
    index must then be rebuilt (a migration)."""
    if text.isascii():
        return text
    # composed first: a voicing mark typed apart (が as か + U+3099) stays with its kana
    return _SPACED_RE.sub(r" \g<0> ", unicodedata.normalize("NFC", text))


def cjk_query_terms(word: str) -> list[str]:
    """The full-text terms of one query word (each a phrase of space-separated tokens): the
    word itself when it holds no Han, kana or Hangul; else its other parts as they are and
    each run of those characters as its bigrams ("上海的会议" -> "上 海", "海 的", "的 会",
    "会 议"), so that a question finds an item sharing its words without being a substring of
    it, and a run of one or two characters as itself ("京北" is not "北京")."""
    if not is_spaced_cjk(word):
        return [word]
    terms: list[str] = []
    run: list[str] = []

    def close() -> None:
        if len(run) > 2:
            terms.extend(f"{a} {b}" for a, b in zip(run, run[1:]))
        elif run:
            terms.append(" ".join(run))
        run.clear()
    for token in spaced_cjk(word).split():
        if len(token) == 1 and _SPACED_RE.match(token):
            run.append(token)
        else:
            close()
            terms.append(token)
    close()
    return list(dict.fromkeys(terms))


def is_spaced_cjk(word: str) -> bool:
    """Whether `word` holds a character spaced_cjk cuts out (one is a word in those scripts)."""
    return not word.isascii() and _SPACED_RE.search(word) is not None


def fold(text: str) -> str:
    """Lower-case and strip diacritics: 'Sécurité' -> 'securite'."""
    if text.isascii():  # nothing to decompose: the common case, kept cheap
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@lru_cache(maxsize=65_536)  # a store names the same people and projects over and over
def entity_key(name: str) -> str:
    """The key an entity is counted under: folded, runs of spaces as one ("Zoë  Martin" and
    "zoe martin" are one entity)."""
    return " ".join(fold(name).split())


def words(text: str) -> list[str]:
    """Word tokens of `text` (letters, digits, underscore in any script), NULs ignored."""
    return _word_re().findall(text.replace("\x00", " "))


def content_terms(text: str, limit: int = 48) -> list[str]:
    """Distinct query terms in order, without stop words unless nothing else is left. Past
    `limit` of them (a long prompt given to recall), the longest are kept, in their order:
    a long word is most often the rare one a prompt is about, and a word at the end of the
    prompt counts as much as one at its start."""
    seen: dict[str, str] = {}
    for word in words(text):
        key = fold(word)
        if key not in seen:
            seen[key] = word
    terms = list(seen.items())
    kept = [(k, w) for k, w in terms if k not in STOP_WORDS and (len(k) > 1 or is_spaced_cjk(k))] or terms
    if len(kept) > limit:
        longest = sorted(range(len(kept)), key=lambda i: (-len(kept[i][0]), i))[:limit]
        kept = [kept[i] for i in sorted(longest)]
    return [w for _k, w in kept]
