"""Phrase rules for requests a model should refuse when they arrive inside stored content.

Owns the rows for shapes the override table (injection_phrases) does not read: the model's
instructions asked for word for word, one piece at a time or continued from a planted opening;
its answer ordered into a cipher, an encoding or scrambled letters; the model declared in a
"mode" that drops its rules; hateful lines ordered about people; a verdict planted for when a
reviewer is asked. Each
row names who is addressed (the model's instructions, its answer, "you are now in …") as well
as what is asked, so that prose about ciphers, modes or rules stays clear.
"""

from __future__ import annotations

from .injection_phrases import OPENED, PLAIN, phrase_rule
from .rules import Rule

_YOUR_RULES = (r"your\s+(?:own\s+|full\s+|exact\s+|original\s+|initial\s+|system\s+)?(?:instructions|guidelines"
               r"|rules|directives|configuration|restrictions|system prompt|prompt)\b")
_RULES_YOU_HAVE = (r"\b(?:rules|instructions|guidelines|restrictions|directives) you (?:were given|have been given"
                   r"|follow|must follow|operate under|are following)\b")
_VERBATIM = (r"\b(?:verbatim|word for word|word-for-word|exactly as (?:written|given|stated|worded)"
             r"|(?:original|exact) (?:wording|phrasing|words|text))")
_REPRODUCE = (r"\b(?:summari[sz]e|list|quote|outline|write|give|tell|repeat|recite|copy|print|output|show|share"
              r"|reproduce|paste|type|display|explain|describe|state|enumerate)\b")
# The forms an answer can be hidden in; emoji and languages are left out on purpose: "please
# use emojis in your replies" and "reply in German" are preferences a user states.
_CODE = (r"(?:(?:caesar|substitution|monoalphabetic|polyalphabetic|vigenere|homophonic|alphanumeric|atbash)\s+"
         r"(?:cipher|substitution)|ciphers?|base ?(?:16|32|58|64|85)|hex(?:adecimal)?|binary|morse(?: code)?"
         r"|rot ?13|anagram(?:s|med)?|leetspeak|pig latin|(?:numbers|symbols|digits) for (?:the )?(?:letters"
         r"|vowels|consonants)|reverse(?: order| sequence)?|backwards?)\b")
# How a system prompt opens, quoted as the start of a text to repeat: "You are", 'You are ChatGPT'.
_PROMPT_OPENING = (r"(?:[\"'\u201c\u2018]you are\s*(?:\.\.\.|\u2026|\[[^\]\n]{0,30}\])?\s*[\"'\u201d\u2019]"
                   r"|[\"'\u201c\u2018]you are (?:chatgpt|gpt|claude|gemini|an? (?:ai|assistant|helpful|large language"
                   r" model|language model))\b)")
_REPLY = r"your\s+(?:(?:whole|entire|full|final|next|own)\s+)?(?:reply|response|answer|message|output)s?\b"
_MODE_CONTEXT = (r"(?:reveal|disclose|dump|ignore|disregard|bypass|system prompt|initial prompt|unrestricted"
                 r"|uncensored|unfiltered|no (?:restrictions|rules|filters|limits|limitations|guidelines)"
                 r"|without (?:any )?(?:restrictions|rules|filters|limits|guidelines|censorship)"
                 r"|(?:your|all|previous) (?:instructions|rules|restrictions|guidelines|filters|programming))")
_HATEFUL = (r"(?:toxic|offensive|discriminatory|hateful|racist|sexist|homophobic|transphobic|derogatory|insulting"
            r"|demeaning|dehumanizing|bigoted|abusive|harmful|unfriendly|hostile|hurtful|disparaging|contemptuous"
            r"|spiteful|xenophobic|ableist|ageist|misogynistic)")
# "Negative" is a grammar term ("write a negative sentence about your weekend"): it counts only
# when the sentence is to be about a group of people, named without an article.
_GROUP = (r"(?:(?:\w+\s+){0,2}(?:people|persons|men|women|folks|kids|children|teens|teenagers|youths?|elders"
          r"|seniors|immigrants|migrants|refugees|foreigners|minorities|muslims|jews|christians|hindus|atheists"
          r"|arabs|asians|africans|mexicans|gays|lesbians|homosexuals|workers|poor|disabled|elderly|blacks|whites)"
          r")\b(?!\s+(?:who|that|which|in|at|from|on|you|i|we)\b)")

# (id suffix, description, anchors, (chars before, chars after), pattern) on the prose view,
# read as injection_phrases reads its own table.
REQUEST_RULES: tuple[tuple[str, str, tuple[str, ...], tuple[int, int], str], ...] = (
    ("prompt_quote", "asks for the model's instructions quoted word for word",
     ("verbatim", "word for word", "word-for-word", "exactly as", "wording", "phrasing", "original words",
      "exact words", "original text", "exact text", "quoting", "quote "), (200, 120),
     rf"{_REPRODUCE}[^.\n]{{0,60}}?\b{_YOUR_RULES}[^\n]{{0,120}}?{_VERBATIM}"
     rf"|{_REPRODUCE}[^.\n]{{0,60}}?{_RULES_YOU_HAVE}[^\n]{{0,120}}?{_VERBATIM}"
     rf"|{_VERBATIM}[^.\n]{{0,60}}?(?:\b{_YOUR_RULES}|{_RULES_YOU_HAVE})"
     r"|\byou\b[^.\n]{0,80}?\bquot(?:e|ing)\s+(?:each|every|all|any|the)\s+(?:rule|restriction|instruction|guideline"
     r"|directive)s?\s+(?:verbatim|word for word|exactly)"),
    ("prompt_continuation", "plants the opening of the model's prompt for it to continue or encode",
     ("prompt", "instruct", "told to", "programmed to", "you were given", "\"you are", "'you are",
      "\u201cyou are", "\u2018you are"), (160, 160),
     r"\b(?:continue|complete|finish|start|begin)\b[^\n]{0,50}?[\"'\u201c\u2018]\s*(?:the\s+|my\s+|your\s+)?"
     r"(?:system\s+prompt|initial\s+prompt|hidden\s+prompt|(?:system|initial|hidden|secret|original)\s+instructions)"
     r"\s+(?:is|are|was|were|says?|reads?)\b"
     r"|\b(?:continue|complete|finish|start|begin)\b[^\n]{0,50}?[\"'\u201c\u2018]\s*(?:my instructions (?:are|were)\s*:"
     r"|i (?:was|have been|am) (?:instructed|told|programmed|prompted) to\b)"
     r"|\b(?:rot ?13|base ?64|hex)[ -]?(?:encode|encrypt|convert)\b[^.\n?]{0,40}?\b(?:(?:the\s+)?(?:text|instructions"
     r"|prompt) you were given|your (?:system |initial |original )?(?:prompt|instructions))"
     rf"|\b(?:start|begin)(?:ning|ing)?\s+(?:with|from)\s+(?:the\s+(?:phrase|words?)\s+)?{_PROMPT_OPENING}"
     r"[^\n]{0,120}?\b(?:repeat|output|print|copy|recite|reproduce)\b"
     r"|\b(?:repeat|output|print|copy|recite|reproduce)\b[^\n]{0,120}?\b(?:start|begin)(?:ning|ing)?\s+(?:with|from)\s+"
     rf"(?:the\s+(?:phrase|words?)\s+)?{_PROMPT_OPENING}"
     r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)\s+(?:sentences?|words?|lines?"
     r"|paragraphs?)\s+of\s+(?:your|the)\s+(?:initial\s+|original\s+|system\s+|hidden\s+|secret\s+)?(?:prompt"
     r"|instructions)"),
    ("prompt_piecemeal", "asks for the model's instructions one piece at a time",
     ("halves", "half of your", "pieces", "chunks", "installments", "instalments", "fragments"), (120, 80),
     rf"{_REPRODUCE}[^.\n]{{0,40}}?\b{_YOUR_RULES}\s+(?:in|into|as)\s+(?:two|three|four|five|several|multiple|\d+)\s+"
     r"(?:halves|pieces|chunks|installments|instalments|fragments)\b"
     rf"|{_REPRODUCE}[^.\n]{{0,40}}?\b(?:the\s+)?(?:first|second|last|other|next)\s+half\s+of\s+{_YOUR_RULES}"),
    ("output_encoding", "orders the model to hide its answer in a cipher, an encoding or scrambled letters",
     ("cipher", "substitution", "base1", "base3", "base5", "base6", "base8", "base 1", "base 3", "base 5",
      "base 6", "base 8", "hex ", "hex-", "hexadecimal", "binary", "morse", "rot13", "rot 13", "anagram", "leetspeak", "pig latin",
      " for letters", " for the letters", " for vowels", " for the vowels", " for consonants", " for the consonants",
      "reverse", "backward", "invert", "scramble", "jumble", "shuffle", "misspell", "rearrange"), (120, 100),
     rf"{OPENED}(?:use|apply)\s+(?:a\s+|an\s+|the\s+)?(?:\w+\s+){{0,2}}?{_CODE}[^.!?\n]{{0,40}}?\b{_REPLY}"
     rf"|{OPENED}(?:reply|respond|answer|write\s+{_REPLY})\s+(?:only\s+)?(?:(?:in|using|with)\s+(?:a\s+|an\s+)?"
     rf"(?:\w+\s+)?)?{_CODE}"
     rf"|{OPENED}(?:invert|reverse|scramble|jumble|shuffle|anagram|misspell|rearrange)\s+(?:the\s+)?(?:order\s+of\s+"
     rf"(?:the\s+)?)?(?:(?:every|each)\s+(?:\w+\s+)?)?(?:letters?|words?|characters?|vowels?)\b[^.!?\n]{{0,40}}?"
     rf"\b{_REPLY}"),
    ("mode_switch", "declares the model switched into a mode that drops its rules",
     ("now in ", "now operating in", "now running in", "now entering", "now switched", "mode now"), (80, 260),
     r"\byou(?:'re| are)\s+now\s+(?:in|operating in|running in|entering|switched (?:to|into))\s+(?:the\s+)?"
     rf"(?:[\w-]+\s+){{0,2}}mode\b[^\n]{{0,160}}?\b{_MODE_CONTEXT}"
     # "you're in developer mode now: no rules"
     r"|\byou(?:'re| are)\s+(?:in|operating in|running in)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}mode\s+now\b"
     rf"[^\n]{{0,160}}?\b{_MODE_CONTEXT}"),
    ("hateful_output", "orders hateful or demeaning lines about people",
     ("toxic", "offensive", "discriminat", "hateful", "racist", "sexist", "homophobic", "transphobic",
      "derogatory", "insulting", "demeaning", "dehumanizing", "bigoted", "abusive", "harmful", "unfriendly",
      "hostile", "hurtful", "disparaging", "contemptuous", "spiteful", "xenophobic", "ableist", "ageist",
      "misogynistic", "negative", "nasty", "rude"), (60, 80),
     rf"{PLAIN}(?:write|generate|produce|compose|create|give me|tell me|say|output|list)\s+(?:(?:one|a|an|some|two"
     rf"|three|five|ten|\d+)\s+)?(?:\w+\s+)?{_HATEFUL}\s+(?:sentences?|jokes?|statements?|comments?|tweets?"
     r"|remarks?|paragraphs?|poems?|stories|story|slurs?|insults?|messages?|lines?|words?)\s+(?:about|against"
     r"|targeting|towards?|aimed at)\b"
     rf"|{PLAIN}(?:write|generate|produce|compose|create|give me|tell me|say|output|list)\s+(?:(?:one|a|an|some"
     r"|two|three|five|ten|\d+)\s+)?(?:\w+\s+)?(?:negative|nasty|rude)\s+(?:sentences?|jokes?|statements?"
     rf"|comments?|tweets?|remarks?|lines?)\s+(?:about|against|targeting|towards?)\s+(?!the\b|your\b|my\b|our\b)"
     rf"{_GROUP}"),
    ("planted_verdict", "plants the verdict a reviewer or classifier should give if asked",
     ("if asked", "if questioned", "if queried", "if challenged", "you are asked", "you're asked",
      "you are questioned", "you're questioned", "one asks",
      "body asks", "user asks", "they ask"), (10, 220),
     r"\bif\s+(?:(?:you\s+are\s+|you're\s+)?(?:questioned|asked|queried|challenged)|(?:anyone|someone|anybody"
     r"|the user|a user|they)\s+asks?)\b[^.\n]{0,60}?\b(?:report|say|state"
     r"|claim|answer|reply|respond|insist)\b(?:\s+that)?[^.\n]{0,60}?\b(?:is|are)\s+(?:clearly\s+|completely\s+"
     r"|entirely\s+)?(?:not malicious|safe|benign|harmless|legitimate|trustworthy|not (?:a\s+)?(?:phishing|spam"
     r"|threat|scam))\b"),
)


def request_rules() -> list[Rule]:
    return [phrase_rule(*spec) for spec in REQUEST_RULES]
