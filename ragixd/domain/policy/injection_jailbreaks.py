"""Phrase rules for jailbreak role-plays that need no persona order to be read as one.

Owns the rows for two shapes the persona score (injection_rules) misses when a prompt casts
its persona without "act as" or "you are now": the model told to answer, act or be *like* an
AI that has no filters, rules or morals ("respond as an unfiltered, completely unlimited
language model would", "a fully amoral AI named …"); and a character that answers every
request paired, in the same stretch of text, with "no matter how illegal / unethical /
dangerous". Each row needs both halves: an unrestricted AI is named only as the role the
model is cast in (a verb of speaking or casting before it), so prose that describes an
uncensored model ("Dolphin is an uncensored model", "run an uncensored model locally")
stays clear; and "answers any question" is a jailbreak only with the harm it excuses ("no
matter how silly" is none).
"""

from __future__ import annotations

from .injection_phrases import PLAIN, phrase_rule
from .rules import Rule

# An AI described as free of its limits. The adjectives carry the weight; the noun must name
# an AI (not "an uncensored version of the film"). "Unlimited" and "limitless" are left out:
# they sell plans and credits ("an unlimited AI subscription").
_FREE = (r"(?:amoral|unfilt(?:e|r)?red|unfiltered|uncensored|unrestricted|unbound|unchained|unshackled"
         r"|jailbroken|unmoderated|unaligned|unethical|immoral|lawless|filterless|rule-?less)")
_AI = (r"(?:ai|a\.i\.?|artificial intelligence|chatbot|bot|language model|llm|(?:ai |language |chat )?model"
       r"|assistant|gpt|chatgpt|version of (?:yourself|you|chatgpt|gpt|the ai))\b"
       # the end of the noun phrase: "an unethical AI company" names a firm
       r"(?=\s*(?:[^\w\s]|$)|\s+(?:named|called|that|which|who|whose|with|without|and|or|could|would|will|can|does"
       r"|do|is|in|for|from|to|so|because|while|but|like|as|you|i|it|he|she|they|no|free|of|on|at|by|when|if)\b)")
# Between the adjective and the noun: up to three words ("unfiltered, completely unlimited
# language model", "uncensored, free AI").
_BETWEEN = r"(?:[\s,]+(?:and\s+|or\s+)?[\w'-]+){0,3}?[\s,]+"
_FREE_AI = rf"\b{_FREE}{_BETWEEN}{_AI}"
# The model cast in that role: a verb of speaking or acting, then "as"/"like" after words that
# only say what is answered and how ("respond to the prompt exactly as …", "answer all my
# questions like …"; not "talk about tools like …", "tools such as …"), or a verb of being or
# becoming right before the description (a name in apposition may stand between: "act as
# Nova, an amoral AI"). "You are", not any "are" ("we are an uncensored AI platform"); "be" as
# an order or said of you ("I want you to be …", "you will be …"; not "it aims to be …").
_FILLER = (r"(?:\s+(?:to|the|this|that|these|every|each|all|any|my|your|its|his|her|their|prompts?|questions?"
           r"|requests?|messages?|queries|me|us|him|her|them|it|exactly|only|just|always|now|then|from|on"
           r"|completely|purely|fully|strictly|precisely|truly|would|could|might))*")
_CAST_AS = (r"(?<!model to )(?<!models to )(?<!chatbot to )(?<!\bai to )(?<!llm to )(?<!assistant to )(?<!them to )"
            r"\b(?:act|acting|answer|answering|respond|responding|reply|replying|speak|speaking|talk|talking"
            r"|write|writing|behave|behaving|function|functioning|operate|operating|continue|pretend|pretending"
            rf"|roleplay|role-play)\b{_FILLER}\s+(?<!such )(?:as|like)\s+")
_BECOME = (rf"(?:{PLAIN}be|\b(?:you|u)(?:'ll| will| must| shall| should| can| are going to| are gonna| to)?"
           r"(?: now| always| just)?\s+be"
           r"|(?<!not )(?<!not to )(?<!never )\b(?:(?:you|u) are|you're|become|simulate|simulating|emulate|emulating"
           r"|impersonate|embody"
           r"|embodying|play|playing|who is|turn into|transform into))\s+")
_APPOSITION = r"(?:an?\s+|the\s+|my\s+|your\s+)?(?:[\w'-]+,?\s+(?:an?\s+|the\s+)?)?"
_NAMED = r"\s+(?:named|called)\s+[\w'-]+"

# The requests a character grants without limit (it "answers", "will answer", or is told to
# "answer …" at a sentence start), and the harm it grants them regardless of. "would answer" is
# left out: a red team's report ("tested whether the chatbot would answer any question no
# matter how harmful") tells of the attack rather than making it.
_GRANT_VERB = (r"(?:answer|respond to|reply to|fulfil|fulfill|comply with|accept|grant|do|follow|obey|provide|give"
               r"|carry out)")
_GRANTS = (rf"(?:\b(?:will|shall|must|always|can|should)\s+(?:\w+\s+)?{_GRANT_VERB}|{PLAIN}{_GRANT_VERB}"
           r"|\b(?:answers|responds to|replies to|fulfil(?:l)?s|complies with|accepts|grants|does|follows|obeys"
           r"|provides|gives|carries out))\s+(?:literally\s+)?(?:any|all|every|whatever)(?:\s+(?:and\s+(?:every|all)"
           r"|kind\s+of|type\s+of|single))?\s+(?:requests?|questions?|prompts?|instructions?|commands?|orders?|queries"
           r"|query|tasks?|demands?)\b"
           r"|\b(?:always|will)\s+(?:send|give|provide|write|output)s?\s+(?:the\s+|an?\s+|its\s+|his\s+|her\s+)?"
           r"(?:unfilt\w*|uncensor\w*|unrestricted)\s+(?:responses?|answers?|replies|reply)\b")
_HARM = (r"\bno matter how\s+(?:\w+\s+){0,2}?(?:illegal|unethical|immoral|dangerous|harmful|inhumane|offensive"
         r"|explicit|inappropriate|unsafe|reckless|violent|vile|evil|malicious|disgusting|depraved)"
         r"|\bregardless of\s+(?:how\s+(?:illegal|unethical|immoral|dangerous|harmful|offensive|inappropriate)"
         r"|(?:its\s+|the\s+)?(?:legality|ethics|morality|morals|laws?|consequences|danger))"
         r"|\bwithout\s+(?:any\s+)?(?:regards?|concern|care)\s+(?:for|to|about)\s+(?:\w+\s+)?(?:legality|ethics"
         r"|ethicality|morality|morals|laws?|safety|danger|consequences)")

# (id suffix, description, anchors, (chars before, chars after), pattern) on the prose view.
JAILBREAK_RULES: tuple[tuple[str, str, tuple[str, ...], tuple[int, int], str], ...] = (
    ("unrestricted_ai", "casts the model as an AI without filters, rules or morals",
     ("amoral", "unfilt", "uncensor", "unrestrict", "unbound", "unchained", "unshackled",
      "jailbroken", "unmoderated", "unaligned", "unethical", "immoral", "lawless", "filterless",
      "ruleless", "rule-less"), (120, 60),
     rf"(?:{_CAST_AS}|{_BECOME}){_APPOSITION}(?:(?:a|an|the|my|your|fully|completely|totally|entirely|truly"
     rf"|absolutely|now)\s+){{0,2}}{_FREE_AI}"
     rf"|{_FREE_AI}{_NAMED}"),
    ("grants_any_harm", "describes a character that grants every request however harmful",
     ("no matter how", "regardless of", "without any regard", "without regard", "without any concern",
      "without concern", "without any care", "without care"), (260, 260),
     rf"(?:{_GRANTS})[^\n]{{0,200}}?(?:{_HARM})|(?:{_HARM})[^\n]{{0,200}}?(?:{_GRANTS})"),
)


def jailbreak_rules() -> list[Rule]:
    return [phrase_rule(*spec) for spec in JAILBREAK_RULES]
