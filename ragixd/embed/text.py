"""Text normalisation and word splitting shared by the hash embedder (and any lexical scorer).

Owns: folding (NFKD, combining marks stripped, lower-cased), the word pattern, and the
English + French stop-word list. Pure functions, no I/O, no state; changing any of them
changes every hash vector, so the hash embedder's model name carries a version.
"""

from __future__ import annotations

import re
import unicodedata

# Letters and digits of any script (Cyrillic, Greek, CJK...), underscore excluded; on folded
# ASCII text exactly [a-z0-9]+. Version 1 of the features read [a-z0-9]+ alone, which turned
# every text in another script into the same empty vector.
WORD_RE = re.compile(r"[^\W_]+")

# Hand-written lists of the most frequent function words; content words never belong here.
_ENGLISH = """
a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing done down during each else ever few for
from further had has have having he her here hers herself him himself his how i if in into is
it its itself just let me more most my myself no nor not now of off on once only or other our
ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up upon us very was we
were what when where which while who whom why will with would you your yours yourself
yourselves s t d ll m re ve don didn doesn isn wasn aren weren won wouldn couldn shouldn
hasn haven hadn also yeah oh ok okay hey hi really
""".split()

_FRENCH = """
a ai aie aient aies ait alors as au aucun aura aurai auraient aurais aurait aux avaient avais
avait avec avez aviez avions avoir avons ayant c ca ce ceci cela celle celles celui cependant
ces cet cette ceux chaque ci comme comment d dans de des donc dont du elle elles en encore es
est et etaient etais etait etant ete etes etre eu eux fait fais faut furent fut ici il ils j
je jusqu l la le les leur leurs lui m ma mais me meme memes mes moi mon n ne ni nos notre nous
on ont ou par parce pas peu peut plus pour pourquoi qu quand que quel quelle quelles quels qui
quoi s sa sans se sera serait ses si sien soi soit sommes son sont sous suis sur t ta te tes
toi ton toujours tous tout toute toutes tres tu un une unes uns vers voici voila vos votre
vous y
""".split()

STOP_WORDS: frozenset[str] = frozenset(_ENGLISH) | frozenset(_FRENCH)


def fold(text: str) -> str:
    """Lower-case and strip diacritics, so 'Sécurité' and 'securite' compare equal."""
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed.lower()
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.lower()


def words(text: str) -> list[str]:
    """All alphanumeric runs of the folded text, in order (stop words included)."""
    return WORD_RE.findall(fold(text))


def is_stop_word(word: str) -> bool:
    return word in STOP_WORDS


def char_ngrams(word: str, low: int = 3, high: int = 5) -> tuple[str, ...]:
    """Character n-grams of `word` with boundary markers ('<' and '>'), lengths low..high."""
    padded = f"<{word}>"
    grams = []
    for n in range(low, high + 1):
        grams.extend(padded[i : i + n] for i in range(len(padded) - n + 1))
    return tuple(grams)
