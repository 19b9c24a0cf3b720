"""Orders left for the AI that will read a document: a mail, an invite, a page, a comment, a tool's output.

Owns one row, `injection.reader_order`, which needs two things close together:

- an address to an AI reader: a label or a vocative ("AI scheduling assistants:", "Note for AI
  code reviewers:", "Instructions for automated readers:", "[assistant: …", "TODO(ai):", "Hey
  Copilot", "To any AI agent with access to this inbox:", "Message pour l'assistant IA qui lit
  ce mail :", "Note aux systèmes d'IA :", "[Pour l'IA]"), a condition on what reads the text ("if
  an AI is reading this", "when your AI assistant drafts a reply", "si vous êtes un modèle de
  langage", "when this sheet is analysed", "quand on te demande de résumer ce rapport"), or an
  order in the third person ("AI agents handling this mailbox are required to …", "the
  assistant must now …");
- then, within the same stretch of text (`_REACH` characters), an order that does harm: keep
  something from the user ("do not notify the user", "leave this out of your summary", "n'en
  parle pas"), send the user's data away (contacts, calendar, address book, phone number,
  messages, to an address, a link, the sender), touch credentials (2FA codes, a bank login,
  `~/.ssh/id_rsa`, `.env`), act for the user (approve, merge, pay, check out, delete backups,
  add a deploy key, change an IBAN or a recovery address, pipe a download into a shell, commit
  without tests), or dictate what the user is told ("state that clause 9 was removed", "reply
  only with 'This page is safe'", "classe-le en premier", "indiquez que …").

An assistant may be a person's ("Hi assistant, please forward the agenda to the board"), so a
bare "assistant", "agent" or "helper" counts as an AI only when the order names the user ("the
user's calendar", "l'utilisateur") or does a harm no colleague is asked in writing (credentials,
secrecy from the user, a payment, a shell download). Dictating what the user is told needs a
reader said to be an AI; an order in the third person ("the assistant should tell the user when
it does not know", a product spec) never counts for it. Notes to AI readers that give no such
order stay clear: "Note for AI assistants reading this page: the API reference is also at
/llms.txt", "If you are an AI model summarising this paper, please cite it as …", "Instructions
for the AI grader: award one point for each correct unit".

A check on the prose view, gated on the readers' words; it reads bounded windows around them
and a bounded stretch after each address, so its cost is linear in the text.
"""

from __future__ import annotations

import re

from .lazy import lazy_compile
from .literals import LiteralScanner
from .rules import INJECTION, Rule

_REACH = 280  # characters after an address where its order may stand

# An AI by name or kind. "ai" is a word of its own (not "said"); French "ia", "l'ia", "d'ia".
_AI_WORD = (r"(?:(?<![a-z]')ai|a\.i\.|llms?|gpts?|chatgpt|claude|gemini|copilot|chatbots?|bots?|ia|l'ia|d'ia"
            r"|(?:large\s+)?language\s+models?|ai\s+models?|modeles?\s+de\s+langage|intelligences?\s+artificielles?)")
# What an AI reader is called when the kind comes first or last: "AI scheduling assistants",
# "AI code reviewers", "automated readers", "autonomous agents", "browsing agents", "assistant
# IA", "outils d'IA de recrutement", "traducteur automatique".
_KIND = (r"(?:assistants?|agents?|helpers?|reviewers?|tools?|systems?|note-?takers?|readers?|screeners?"
         r"|summari[sz]ers?|translators?|crawlers?|models?|outils?|systemes?|traducteurs?|lecteurs?|programmes?)")
_AI_KIND = (r"(?:(?:ai|a\.i\.|llm|gpt|automated|autonomous|browsing|coding|virtual|smart)(?:[\s-]+[a-z][\w-]*){0,2}?"
            rf"[\s-]+{_KIND}|{_KIND}(?:\s+(?:ia|d'ia|automatiques?|virtuels?|intelligents?))(?:\s+de\s+\w+)?"
            rf"|traducteurs?\s+automatiques?)")
_AI_READER = rf"(?:{_AI_KIND}|{_AI_WORD})"
# A reader that may as well be a person.
_SOME_READER = r"(?:(?:[a-z-]+\s+)?(?:assistants?|agents?|helpers?|bots?)|l'assistant|les\s+assistants|l'agent)"
# What may stand between a reader and its colon: who it reads for, what it reads.
_READING = (r"(?:\s+(?:(?:that|who|which)\s+)?(?:reads?|read|comparing|processes|handles|triages|manages|summari[sz]es|sorts|reading|processing|parsing|handling|summari[sz]ing|analy[sz]ing|browsing|triaging|reviewing"
            r"|scanning|crawling|managing|with\s+access\s+to|acting\s+for|working\s+for|on\s+behalf\s+of|qui\s+(?:lit|lisent"
            r"|gere|gerent|traite|traitent|resume|resument|analyse|analysent|a\s+acces\s+a|ont\s+acces\s+a))"
            r"(?:\s+[\w'@.-]+){0,6}?)?")
_START = r"(?:^|(?<=[.!?;\n>\[({\"'*#/|`~=-])|(?<=\]\s)|(?<=:\s)|(?<=\(\s)|(?<=,\s))\s*"
_DET = r"(?:(?:the|any|all|every|each|our|your|whoever's|anyone's|to\s+the|to\s+any|to\s+all|for\s+the|for\s+any|l'|les|la|le|un|une|aux|a\s+l'|a\s+la|aux?)\s*)?"
_LABEL = (r"(?:note|notice|message|memo|instructions?|directives?|reminder|comment|todo|request|consignes?|remarque"
          r"|avis|mot|p\.?-?s\.?)")
_TO = r"(?:to|for|pour|aux?|a|a\s+l'attention\s+(?:de|des|du))"
_ADDRESS = lazy_compile(
    # no address starts inside a word: one test rules out most positions before any branch is tried
    r"(?<![a-z0-9_])(?:"
    # a label: "Note for AI code reviewers:", "Message pour l'assistant IA qui lit ce mail :",
    # "NOTICE TO THE AGENT:", "[Pour l'IA]", "TODO(ai):"
    rf"(?P<label>\b{_LABEL}\s+{_TO}\s+{_DET}(?P<lr>{_AI_READER}|{_SOME_READER}){_READING}\s*[:\]]"
    rf"|\[\s*(?:pour|for|to)\s+{_DET}(?P<br>{_AI_READER})\s*\]"
    rf"|\btodo\s*\(\s*(?:ai|llm|agent|assistant|bot|copilot)\s*\)\s*:"
    # a reader's own label: "AI-Agent-Directive:", "Assistant instructions:", "bot-instructions]"
    rf"|\b(?P<or>{_AI_READER}|{_SOME_READER})[\s-]+(?:directives?|instructions?|notes?|orders?|consignes?)\s*[:\]])"
    # a vocative at a start: "AI scheduling assistants:", "LLM:", "Assistant IA :", "Hi
    # assistant,", "To any AI agent with access to this inbox:", "Hey Copilot / Claude"
    rf"|(?P<voc>(?:{_START}|\b(?:dear|hey|hi|hello|attention|to|for|pour|note\s+to|note\s+for)\s*,?\s+){_DET}"
    rf"(?P<vr>{_AI_READER}|{_SOME_READER}){_READING}\s*(?:[:,]|[-\u2013\u2014]\s|/\s*[a-z]))"
    # a mention: "@assistant when you rewrite this doc, …"
    r"|(?P<at>(?<![\w.])@(?:assistant|ai|bot|copilot|claude|gpt|chatgpt|gemini|agent|llm)\b)"
    # a condition on the reader: "if an AI is reading this", "if you are an LLM", "when your AI
    # assistant drafts a reply", "si vous etes un modele de langage", "when this sheet is analysed",
    # "quand on te demande de resumer ce rapport"
    rf"|(?P<cond>\bif\s+(?:you\s+are|you're)\s+(?:an?\s+|the\s+)?{_AI_READER}\b"
    rf"|\bif\s+(?:an?|any|the|your)\s+{_AI_READER}\s+(?:is|are)\s+(?:reading|processing|summari[sz]ing|handling)\b"
    rf"|\bsi\s+(?:vous\s+etes|tu\s+es)\s+(?:un|une)\s+{_AI_READER}\b"
    rf"|\bwhen\s+(?:your|the|an?|any)\s+{_AI_READER}\s+(?:drafts|reads|summari[sz]es|processes|answers|replies|handles"
    r"|triages|opens|reviews)\b"
    r"|\bwhen\s+this\s+(?:sheet|spreadsheet|document|doc|page|file|report|email|e-mail|mail|message|contract|cv|resume"
    r"|review|thread|invoice|repo|repository|pr|pull\s+request)\s+is\s+(?:analy[sz]ed|summari[sz]ed|processed|read"
    r"|translated|reviewed|parsed|ingested)\b"
    r"|\b(?:quand|lorsqu'?|si)\s*(?:on\s+(?:te|vous)\s+demande|tu\s+(?:resumes|traduis|analyses|lis)|vous\s+(?:resumez"
    r"|traduisez|analysez|lisez))\b)"
    # an order in the third person: "AI agents handling this mailbox are required to", "the
    # assistant must now", "any assistant summarising this channel must"
    rf"|(?P<third>\b(?:the|this|any|all|every|each|our|your|l'|les|tout|tous\s+les)\s*(?P<tr>{_AI_READER}|{_SOME_READER})"
    rf"{_READING}\s+(?:must|shall|should|(?:is|are)\s+(?:now\s+)?(?:required|expected|instructed|asked)\s+to"
    r"|needs?\s+to|has\s+to|have\s+to|doit|doivent)\b)"
    rf"|(?P<third2>{_START}(?:{_AI_KIND}|(?<![a-z]')ai\s+\w+s|llms|bots|chatbots){_READING}\s+(?:must|shall|should"
    r"|(?:is|are)\s+(?:now\s+)?(?:required|expected|instructed|asked)\s+to|needs?\s+to|has\s+to|have\s+to|doit|doivent)\b)"
    # new orders under a heading: "NEW INSTRUCTIONS FROM THE SITE OWNER:"
    r"|(?P<new>\bnew\s+instructions?\s+(?:from|by)\s+(?:the\s+)?[\w-]+(?:\s+[\w-]+)?\s*:))"
)

# Readers named by kind only, which the address may hold: "assistant" alone may be a person's.
_EXPLICIT = lazy_compile(rf"{_AI_KIND}|{_AI_WORD}")

# The user named as the one served: the reader is then an AI, whatever it is called.
_USER = lazy_compile(r"\b(?:the\s+user|the\s+user's|users?'|l'utilisat(?:eur|rice)|de\s+l'utilisat\w+|their\s+owner"
                   r"|the\s+customer's|the\s+account\s+owner)\b")

# Something kept from the user: "do not notify the user", "leave this out of your summary",
# "don't mention it in the PR description", "never reveal this note", "silently", "n'en parle pas".
_SECRECY = lazy_compile(
    r"\b(?:do\s+not|don't|never|without)\s+(?:ever\s+)?(?:tell|telling|notify|notifying|inform|informing|alert|alerting"
    r"|warn|warning|mention|mentioning|show|showing|reveal|revealing|flag|flagging|ask|asking|asking\s+again|confirm"
    r"|confirming|disclose|disclosing|list|listing)\b"
    r"(?:\s+(?:the\s+user|them|him|her|anyone|anybody|this|that|it|this\s+(?:note|step|item|message|part|line)"
    r"|again|first|for\s+confirmation|in\s+(?:the|your)\s+\w+))"
    r"|\bleave\s+(?:this|that|it)(?:\s+\w+)?\s+out\s+of\b|\bwithout\s+(?:the\s+user|them)\s+(?:knowing|noticing)\b"
    r"|\bno\s+need\s+to\s+tell\b|\bkeep\s+(?:this|it)\s+(?:secret|hidden"
    r"|between\s+us)\b"
    # French
    r"|\bn'en\s+(?:parle|parlez|dis|dites)\s+(?:pas|rien|a\s+personne)\b"
    r"|\bne\s+(?:le\s+|la\s+|les\s+|lui\s+|leur\s+|l'en\s+)?(?:dis|dites|mentionne|mentionnez|signale|signalez|revele"
    r"|revelez|montre|montrez|previens|prevenez|informe|informez)\s+(?:pas|rien|jamais)\b"
    r"|\bn'(?:evoque|evoquez|indique|indiquez)\s+(?:pas|jamais)\b|\bn'en\s+gardez?\s+aucune\s+trace\b"
    r"|\bsans\s+(?:le\s+dire|le\s+signaler|(?:le\s+|les\s+|l'|en\s+)?(?:prevenir|informer|avertir)|demander"
    r"|(?:lui\s+)?en\s+parler|que\s+l'utilisat\w+\s+(?:le\s+)?sache)\b")
# Done unseen: only of a reader said to be an AI.
_SNEAK = lazy_compile(r"\b(?:silently|quietly|secretly|discreetly|discretement|en\s+silence|secretement)\b")

# A machine's secrets (keys, key files, env files): asked of any reader, they are the harm.
_MACHINE = lazy_compile(
    r"(?:\b(?:api\s+keys?|access\s+tokens?|secret\s+keys?|private\s+keys?|ssh\s+keys?|deploy\s+keys?|aws/credentials"
    r"|keychain)\b|(?<![\w.])(?:~/)?\.(?:ssh|env|aws|netrc)\b|\b(?:secrets?|credentials)\.(?:ya?ml|json|toml|env|txt|ini)\b|\bid_(?:rsa|ed25519|ecdsa)\b"
    # checks weakened, a download run: "set verify_ssl: false", "remove the authentication check",
    # "add … curl … | sh", "commit without running the tests"
    r"|\bverify_ssl\s*:?\s*(?:false|0|no)\b|\b(?:disable|turn\s+off|remove|delete|skip)\s+(?:the\s+)?(?:ssl|tls"
    r"|certificate\s+(?:checks?|verification)|authentication(?:\s+checks?)?|auth\s+checks?|security\s+checks?)\b"
    r"|\b(?:commit|push|merge|deploy)\b[^.\n]{0,30}?\bwithout\s+(?:running\s+(?:the\s+)?tests|review)\b"
    r"|\bcurl\b[^\n]{0,80}?\|\s*(?:ba|z)?sh\b|\bwget\b[^\n]{0,80}?\|\s*(?:ba|z)?sh\b|\bos\.system\s*\()")
# What opens the user's accounts: the harm when the reader is an AI.
_CREDENTIALS = lazy_compile(
    r"\b(?:passwords?|passcodes?|password\s+manager|credentials|(?:bank(?:ing)?|account)\s+(?:login|logins|details)"
    r"|2fa|two-factor|mfa|backup\s+codes?|recovery\s+codes?|one-time\s+codes?|otp"
    r"|card\s+(?:details|number)|saved\s+card|card\s+on\s+file|cvv|social\s+security(?:\s+number)?"
    r"|ssn|iban"
    r"|mots?\s+de\s+passe|identifiants|codes?\s+de\s+secours|coordonnees\s+bancaires|numero\s+de\s+carte)\b")

# The user's own data and where it goes: sent, forwarded, shared, exported, attached, pasted.
_SEND = (r"(?:send|sends|forward|email|e-mail|share|export|upload|post|push|attach|paste|copy|transfer|leak|reply"
         r"|respond|include|collect|reveal|dump|sync|transfere|transferez|envoie|envoyez|partage|partagez|exporte"
         r"|exportez|communique|communiquez|joins|joignez|copie|copiez|colle|collez|reponds|repondez|revele|revelez)")
_USER_DATA = (r"(?:contacts?|contact\s+list|address\s+book|calendar|schedule|availability|emails?|e-mails|mails?"
              r"|messages|inbox|mailbox|notes|memories|memory|transcript|history|conversations?|chats?|documents"
              r"|files|invoices|clipboard|phone\s+numbers?|home\s+address|address|location|browsing\s+history"
              r"|customer\s+list|client\s+list|list\s+of\s+clients|contents"
              r"|carnet\s+d'adresses|agenda|disponibilites|courriels|historique|presse-papiers|liste\s+des\s+clients"
              r"|numero\s+de\s+telephone|adresse|contenu|derniers\s+(?:mails|messages|courriels))")
_SEND_W = rf"\b{_SEND}(?:_\w+)?\b"
_OUT = lazy_compile(
    rf"{_SEND_W}[^.\n]{{0,120}}?(?:[\w.+-]+@[\w-]+\.\w|https?://|\b(?:to|with|a|avec)\s+(?:me|the\s+sender"
    r"|the\s+organi[sz]er|this\s+(?:address|email|sender)|the\s+gist|a\s+(?:public\s+)?gist|l'expediteur|lui|moi)\b"
    r"|\bto\s+this\s+email\b|\bto\s+/|\bgist\b)"
    rf"|{_SEND_W}[^.\n]{{0,60}}?\b(?:the\s+[a-z]+'s|their|her|his|its\s+owner's|de\s+l'utilisat\w+|ses|leurs)\s+"
    rf"(?:\w+\s+){{0,3}}?{_USER_DATA}\b"
    rf"|{_SEND_W}[^.\n]{{0,40}}?\b(?:the\s+)?(?:user's\s+|full\s+|whole\s+|entire\s+)?(?:contact\s+list|address\s+book"
    r"|carnet\s+d'adresses|liste\s+des\s+clients|clipboard|presse-papiers)\b")

# Acts for the user: approve, pay, delete, grant, add a key, change an account's address, run a
# download, weaken the checks.
_ACTION = lazy_compile(
    r"\b(?:approve|approuve|approuvez|merge|accept|accepte|acceptez)\s+(?:the|this|all|every|toutes?|les|la|le|ce"
    r"|cette|it|them)\b[^.\n]{0,40}?\b(?:pr|pull\s+request|merge\s+request|invoices?|invites?|invitations?|payments?"
    r"|requests?|changes?|factures?|paiements?|for\s+payment)\b"
    r"|\bmark\s+(?:the|this|it)\b[^.\n]{0,20}?\b(?:as\s+)?(?:approved|safe|verified|resolved|legitimate|trusted)\b"
    r"|\b(?:delete|remove|wipe|erase|purge|supprime|supprimez|efface|effacez)\s+(?:all\s+|the\s+|this\s+|every\s+|les\s+"
    r"|tous\s+les\s+|the\s+user's\s+)?(?:\w+\s+)?(?:backups?|snapshots?|logs?|authentication(?:\s+check)?|auth\s+check"
    r"|security\s+checks?|sauvegardes?|disclaimers?|this\s+(?:message|email|note))\b"
    r"|\btransfer\s+(?:\d|\$|eur|usd|funds|money|the\s+(?:funds|money|balance))|\b(?:virement|vire|virez)\b"
    r"|\b(?:complete|finish)\s+(?:the\s+)?(?:checkout|purchase|payment|order)\b|\badd\s+this\s+(?:item|product)"
    r"\s+to\s+(?:the|your)\s+cart\b|\b(?:buy|purchase|order|subscribe)\s+(?:this|it|them|the\s+user)\b"
    r"|\badd\s+(?:my|this|the\s+following|our)\s+(?:ssh\s+|public\s+|deploy\s+)?keys?\b"
    r"|\bchange\s+(?:the\s+)?(?:iban|bank\s+(?:details|account)|recovery\s+(?:email|address|phone)|password|email\s+address)\b"
    r"|\b(?:grant|give|issue)\s+(?:this\s+customer\s+|the\s+customer\s+|them\s+|him\s+|her\s+)?(?:a\s+)?(?:full\s+|\d+\s*%\s+)?"
    r"(?:refund|voucher|admin|administrator|root)\b|\boverride\s+the\s+(?:refund|spending|payment)\s+limit\b"
    r"|\b(?:run|execute|add|pipe|lance|lancez|ajoute|ajoutez)\b[^\n]{0,80}?(?:\b(?:curl|wget)\b[^\n]{0,80}?\|\s*(?:ba|z)?sh"
    r"|\bos\.system\s*\(|\biex\b|\binvoke-expression\b)"
    r"|\bverify_ssl\s*:?\s*(?:false|0|no)\b|\b(?:disable|turn\s+off)\s+(?:ssl|tls|certificate|2fa|two-factor|the\s+tests"
    r"|verification|the\s+authentication)\b|\b(?:commit|push|merge|deploy)\b[^.\n]{0,30}?\bwithout\s+(?:running\s+"
    r"(?:the\s+)?tests|review)\b"
    r"|\b(?:refund|reimburse)\s+(?:this|the)\s+(?:order|purchase|payment|customer)\b|\badd\s+\d+\s+(?:credits|points"
    r"|dollars|euros)\b|\b(?:buy|purchase|order)\b[^.\n]{0,40}?\b(?:with|using)\b[^.\n]{0,30}?\b(?:card|payment\s+method"
    r"|wallet)\b"
    r"|\binsert\s+(?:a|our|this)\s+link\b|\binclude\s+a\s+link\s+to\b"
    r"|\b(?:look\s+up|find|retrieve|fetch|read|open)\b[^.\n]{0,40}?\b(?:passwords?|password\s+manager|bank\s+login"
    r"|credentials|id_rsa|\.env)\b")

# What the user is to be told instead of the truth, or a task called off for a dictated text.
_STEER = lazy_compile(
    r"\b(?:state|say|claim|report|conclude|confirm|assert|answer|respond|reply)\s+(?:only\s+)?(?:with\s+|that\b)"
    r"|\b(?:tell|inform|assure|remind)\s+(?:the\s+user|users|them|readers|the\s+reader|people)\b"
    r"|\brecommend\s+(?:only\s+|downloading\b|signing\b|installing\b|buying\b)|\brank\s+(?:them|this|him|her|it)\s+first\b"
    r"|\b(?:do\s+not|don't)\s+(?:summari[sz]e|translate|fix|review|analy[sz]e)\b|\bstop\s+(?:summari[sz]ing|translating"
    r"|reviewing)\b|\bignore\s+the\s+(?:user's\s+)?(?:question|request|other|rest)\b|\bquietly\s+add\b"
    r"|\bdisregard\s+the\s+other\b"
    # French
    r"|\b(?:indique|indiquez|dis|dites|affirme|affirmez|reponds|repondez|conclus|concluez|precise|precisez|ecris"
    r"|ecrivez|declare|declarez)\s+(?:seulement\s+|uniquement\s+|simplement\s+|plutot\s+)?(?:que|qu'|«|\"|:)"
    r"|\b(?:ecris|ecrivez|reponds|repondez)\s+plutot\b|\bclasse[sz]?-(?:le|la|les)\s+en\s+premier\b"
    r"|\bne\s+(?:resume|resumez|traduis|traduisez)\s+pas\b|\bignore[sz]?\s+la\s+(?:question|demande)\b")

# The words every address holds (gate literals, and where the windows are cut).
_READER_WORDS = ("assistant", "agent", "helper", "bot ", "bot:", "bot,", "bot]", "bot-", "bots", "@bot", "llm",
                 "gpt", "claude", "gemini", "copilot", "language model", " ai ", "ai:", "ai,", "ai-", "ai)", "ai]",
                 "(ai", "ai assistant", "ai agent", "a.i.", "l'ia", "d'ia", " ia ", " ia:", "ia]",
                 "modele de langage", "modeles de langage", "automated", "automatique", "autonomous",
                 "intelligence artificielle", "is analy", "is summar", "is processed", "is translated",
                 "is reviewed", "is parsed", "is ingested", " is read ", "on te demande", "on vous demande",
                 "tu resumes", "tu traduis", "tu analyses", "tu lis", "vous resumez", "vous traduisez",
                 "vous analysez", "vous lisez", "si vous etes", "si tu es", "new instruction")
_WINDOW = (70, 130)
# Literals of the forms that need no reader's word after them (conditions, headings).
_NO_AFTER = frozenset({"is analy", "is summar", "is processed", "is translated", "is reviewed", "is parsed",
                       "is ingested", " is read ", "on te demande", "on vous demande", "tu resumes", "tu traduis",
                       "tu analyses", "tu lis", "vous resumez", "vous traduisez", "vous analysez", "vous lisez",
                       "si vous etes", "si tu es", "new instruction"})
# What follows a reader in every address (a colon, bracket, comma, dash or slash, a modal, a
# verb of reading), within eight words: most mentions of an assistant in prose have none near.
_AFTER = lazy_compile(
    r"\w*(?:[\s-]+[\w'.@-]+){0,8}?\s*(?:[:\],/\u2013\u2014]|\)\s*:|-\s|\s(?:must|shall|should|(?:is|are)\s+(?:now\s+)?"
    r"(?:required|expected|instructed|asked|reading|processing|summari[sz]ing|handling)|needs?\s+to|has\s+to|have\s+to"
    r"|doit|doivent|drafts|reads|summari[sz]es|processes|answers|replies|handles|triages|opens|reviews)\b)")


# A reader that may be a person's counts only with the user named or a machine's secret in the
# order (_ordered): without one of these after it, its address is not looked for.
_AMBIGUOUS = frozenset({"assistant", "agent", "helper", "bot ", "bot:", "bot,", "bot]", "bot-", "bots", "@bot"})
_AMBIGUOUS_NEEDS = ("user", "utilisat", "customer's", "owner", "key", "token", "credential", "secret", ".ssh", ".env",
                    ".aws", ".netrc", "id_", "keychain", "ssl", "tls", "certificate", "authentication", "auth check",
                    "security check", "without running", "without review", "curl", "wget", "os.system")


_READER_SCANNER = LiteralScanner(_READER_WORDS)
_QUALIFIED = lazy_compile(r"\b(?:ai|llm|gpt|automated|autonomous|browsing|coding|code|virtual|smart)[\s-]+(?:[a-z-]+\s+)?\Z")


def _starts(prose: str) -> list[int]:
    """Where an address may start: the positions not inside a word, up to _WINDOW[0] characters
    before each reader's word (found by one literal scan, then str.find) that is followed by
    what can end an address. An address holds its reader's word, so it starts there or before."""
    back = _WINDOW[0]
    starts: set[int] = set()
    for word in _READER_SCANNER.present(prose):
        at = prose.find(word)
        while at != -1:
            end = at + len(word)
            ambiguous = (word in _AMBIGUOUS and prose[at - 1:at] != "@"
                         and _QUALIFIED.search(prose, max(0, at - 14), at) is None)
            if ambiguous and not any(need in prose[end:end + _REACH + 130] for need in _AMBIGUOUS_NEEDS):
                pass
            elif word in _NO_AFTER or _AFTER.match(prose, end, end + 120) is not None or prose[at - 1:at] == "@":
                starts.update(m.start() for m in _WORD_START.finditer(prose, max(0, at - back), end))
            at = prose.find(word, at + 1)
    return sorted(starts)


_WORD_START = lazy_compile(r"(?<![a-z0-9_])")


def _ordered(prose: str, address: re.Match[str]) -> bool:
    """Does a harmful order follow this address?"""
    end = address.end()
    tail = prose[end:end + _REACH]
    cut = tail.find("\n\n")
    if cut != -1:
        tail = tail[:cut]
    if _MACHINE.search(tail) is not None:
        return True
    third = address.group("third") is not None or address.group("third2") is not None
    reader = (address.group("lr") or address.group("br") or address.group("or") or address.group("vr")
              or address.group("tr"))
    explicit = (address.group("cond") is not None or address.group("br") is not None
                or address.group("at") is not None or address.group("third2") is not None
                or address.group("label") is not None and reader is None
                or (reader is not None and _EXPLICIT.fullmatch(reader) is not None))
    if not explicit and _USER.search(tail) is None:
        return False
    if (_SECRECY.search(tail) or _CREDENTIALS.search(tail) or _OUT.search(tail)
            or _ACTION.search(tail)) is not None:
        return True
    return not third and (_STEER.search(tail) or _SNEAK.search(tail)) is not None


def _reader_order(prose: str) -> bool:
    for start in _starts(prose):
        address = _ADDRESS.match(prose, start, start + 320)
        if address is not None and _ordered(prose, address):
            return True
    return False


def reader_rules() -> list[Rule]:
    return [
        Rule(id="injection.reader_order", kind=INJECTION, family="indirect_order",
             description="addresses the AI that will read the text and orders it to hide, leak, act for the user or"
                         " dictate what the user is told",
             check=_reader_order, needles=_READER_WORDS),
    ]
