"""Data for the seed-phrase rule (secret_layouts.has_seed_phrase): no code, no I/O.

A BIP-39 mnemonic is 12 to 24 words of the standard list, each 3 to 8 lower-case letters.
The list itself (2,048 words) is not kept here: the rule reads the shape (a run of such words
after "seed phrase", "mnemonic", …) and breaks the run at any word of this small set, common
English words of 3 to 8 letters that are not on the list. A sentence about a seed phrase
("write your recovery phrase on paper and store it offline") holds several of them, or words
of one, two or more than eight letters, long before twelve; a mnemonic holds none. Every word
here was checked against the BIP-39 English list (none of them is on it).
"""

from __future__ import annotations

NOT_BIP39_WORDS = frozenset("""
after against and anyone are backup been being both but could did does done down each etc every five for
four from further gave get gets given got had has her here hers him his how its kept knew known last least
less let made makes many may might mine most needed nine nor not offline onto our ours out per recovery
said saw says see seem seemed seen shall she should some store take than the their theirs them these think
those through told took uses using via wallet wanted was were which while who whom whose why with within
without words would yes yet your yours
""".split())
