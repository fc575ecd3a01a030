"""Word classes of a text's words, per language, as the glossary reads them (:mod:`kb.site.glossary`): lemmas and stems,
the closed word classes (spaCy's stop words, articles, auxiliaries, prepositions), what a definition says its term is
(a verb, a name, a state), and the frames that read a word's class from the words around it — English: a verb after
an auxiliary or before its object's article, a noun's complement, a passive's subject; German: the clause of a verb,
the noun beside a noun, a separable particle.  spaCy has no tagger without a trained pipeline: these closed classes
stand in for one."""
from __future__ import annotations

import ast
import importlib.util
import re
from functools import lru_cache
from pathlib import Path

from .. import lemmas

WORD = re.compile(r"[^\W\d_]+(?:[-’'][^\W\d_]+)*")


@lru_cache(maxsize=8)
def stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words of ``lang`` (function words and the commonest verbs), read from its source file without
    importing spaCy; empty when spaCy or the language is missing."""
    spec = importlib.util.find_spec("spacy")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    path = Path(list(spec.submodule_search_locations)[0]) / "lang" / lang / "stop_words.py"
    if not path.is_file():
        return frozenset()
    words: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 200:
            words.update(w.lower() for w in node.value.split())
    return frozenset(words)


#: language -> (old spelling, new spelling) of a spelling reform: a word the lemmatiser knows only in the new spelling
#: ("gepaßt", 1999, is "gepasst", the participle of "passen"; German's 1996 reform wrote "ss" after a short vowel)
REFORMS = {"de": ("ß", "ss")}


def lemma(word: str, lang: str) -> str:
    if lang not in lemmas.SUPPORTED:
        return word.lower()
    out = lemmas.lemma(word, lang)
    old, new = REFORMS.get(lang, ("", ""))
    if old and old in word and out == word.lower():     # unknown in the old spelling: its new spelling's lemma,
        reformed = word.replace(old, new)               # if the lemmatiser knows it as an inflection there
        alt = lemmas.lemma(reformed, lang)
        return alt if alt != reformed.lower() else out
    return out


def _is_verb_en(title: str, definition: str) -> bool:
    """A verb: a sense of the definition starts "To …" ("Tap: To turn …"; "Exile: 1. A zone. … 2. To put …"), or the
    entry is a keyword action (the glossary's own "Keyword Action: A verb, such as “destroy” or “cast” …")."""
    d = definition or ""
    return (re.search(r"(?:^|\n)\s*(?:\d\.\s*)?To\s", d) is not None
            or re.match(r"\s*(?:An? |[\w ]+ is an? )keyword action\b", d) is not None)


def _is_name_en(title: str, definition: str) -> bool:
    """A subtype ("Case: An enchantment subtype."): the rules print it capitalised, as a name."""
    return re.match(r"\s*(?:1\.\s*)?An? (?!card\b)[\w-]+ (?:sub)?type\b", definition or "") is not None


def _is_verb_de(title: str, definition: str) -> bool | None:
    """True when the definition uses the term in lower case ("… zu spielen", "abzuwerfen", "verrechnet"), False when
    only capitalised (a noun), None when it does not use it at all ("Abwerfen: … wirft eine Karte ab")."""
    key, low = lemma(title.lower(), "de"), title.lower()
    uses = [w for w in WORD.findall(definition or "")
            if lemma(w.lower(), "de") == key or w.lower().replace("zu", "", 1) == low]
    if any(w[0].islower() for w in uses):
        return True
    return False if uses else None


#: language -> the inflectional endings a word of a term of several words may differ by, longest first (German
#: adjectives: "umgewandelten Manakosten" is the entry "Umgewandelte Manakosten"; simplemma has no lemma for them)
STEM_ENDINGS = {"de": ("en", "em", "er", "es", "e", "n", "s")}


def stem(word: str, lang: str) -> str:
    """The word without one inflectional ending of its language, marked so that it never equals a lemma."""
    w = word.lower()
    for e in STEM_ENDINGS.get(lang, ()):
        if w.endswith(e) and len(w) - len(e) >= 4:
            return "~" + w[:-len(e)]
    return "~" + w


def unknown_noun(word: str, lang: str) -> tuple[str, ...]:
    """A German noun the lemmatiser does not know (mostly compounds: "Ersatzeffekte", "Zählmarken",
    "Kreaturentypen"): the word without each inflectional ending its language may add, as lemmas it may have."""
    w = word.lower()
    if lang not in STEM_ENDINGS or not word[:1].isupper() or lemma(word, lang) != w:
        return ()
    return tuple(w[:-len(e)] for e in STEM_ENDINGS[lang] if w.endswith(e) and len(w) - len(e) >= 4)


#: language -> the ending a verb's present participle adds to its infinitive, before an adjective's endings ("das zu
#: *verrechnende* Objekt": "verrechnen"; "das *auslösende* Ereignis": "auslösen")
PARTICIPLE_ENDINGS = {"de": "d"}


def infinitive(word: str, lang: str) -> tuple[str, ...]:
    """The infinitive of a present participle used as an adjective, which the lemmatiser gives as the participle
    ("verrechnende": "verrechnend"): the verb it is a form of."""
    w, end = lemma(word, lang), PARTICIPLE_ENDINGS.get(lang)
    return (w[:-len(end)],) if end and word[:1].islower() and w.endswith("en" + end) and len(w) > 6 else ()


#: language -> what follows a noun whose phrase points into the rules' own text: "follows the steps (listed) below",
#: "any of the steps above", "the steps described in 601.2a–h", "follows steps 601.2a–h of rule 601" — the noun names
#: a part of the rules (their numbered steps), not what a glossary entry defines (*Step*, a subsection of a phase)
POINTERS = {"en": re.compile(r"\s*(?:(?:listed|described|shown|given|specified|in|of)\s+){0,2}(?:rules?\s+)?"
                             r"(?:below|above|\d{3}\.\d+[a-z]?)\b")}
#: language -> its indefinite articles: a phrase that points into the text is definite ("the steps below", "any step
#: listed below"); after "a" the pointer belongs to a phrase before ("the process for casting a spell listed in rules
#: 601.2b–i")
INDEFINITE = {"en": frozenset(["a", "an"])}


def points_into_rules(text: str, words: list, i: int, lang: str) -> bool:
    """Does the phrase of word ``i`` point into the rules' own text (:data:`POINTERS`)?"""
    return lang in POINTERS and POINTERS[lang].match(text, words[i][1]) is not None and (
        neighbour(text, words, i - 1, i) not in INDEFINITE[lang])


#: language -> does the definition show a verb?  (other languages: every term matches any inflection)
VERB_TESTS = {"en": _is_verb_en, "de": _is_verb_de}
#: language -> does the definition show a name, printed capitalised?  (German capitalises every noun anyway)
NAME_TESTS = {"en": _is_name_en}


def _is_state_en(title: str, definition: str) -> bool:
    """A state named by a past participle ("Locked", "Modified", "Limited"): the headword is an inflected verb."""
    word = title.split("(")[0].strip()
    return " " not in word and word.lower().endswith("ed") and lemma(word, "en") != word.lower()


def _is_participle_en(word: str) -> bool:
    """A participle: "Triggered", "Activated", "Blocking" (an inflected verb)."""
    return word.lower().endswith(("ed", "ing")) and lemma(word, "en") != word.lower()


#: language -> is this word of a term of several words a participle?  Modifying the term's last word (no function word
#: between, unlike "Flipping a Coin") it is printed as one
#: ("triggered abilities", "blocking creatures"); its verb's other forms there are the verb and its object ("may in
#: turn trigger abilities", "activate abilities", "can block creatures attacking …"), the entries "Trigger", "Activate"
PARTICIPLE_TESTS = {"en": _is_participle_en}
#: language -> does the headword name a state by a participle?  Followed by a preposition, such a word is the
#: passive of the ordinary verb ("aren’t locked in ahead of time", "as modified by", "aren’t limited to"), which
#: the rules never use for the state ("a locked door", "if it isn’t modified")
STATE_TESTS = {"en": _is_state_en}
#: language -> its prepositions and verb particles (a closed word class, as spaCy's stop words are)
PREPOSITIONS = {"en": frozenset("about as at by for from in into of off on onto out over to toward up upon with "
                                "within".split())}


#: English closed word classes that frame a word (spaCy has no tagger without a trained pipeline)
_AUX_EN = frozenset("can can’t cannot could couldn’t may might must will won’t would wouldn’t shall should do does "
                    "did don’t doesn’t didn’t".split())
_ARTICLES_EN = frozenset("a an the these those".split())
DET_EN = _ARTICLES_EN | frozenset("this that each every any all some no its their his her your my our one another "
                                   "both either neither".split())
CONJ_EN = frozenset("and or nor".split())
#: adverbs that modify a verb, not a noun, and do not end in "-ly" ("you may instead mill N cards", "the game state
#: still matches", "the properties no longer match", "now match those of")
_ADVERBS_EN = frozenset("instead still longer now already never always".split())
#: a relative pronoun after a noun opens a clause whose verb follows it, before its object's determiner ("a card that
#: matches the given description"); after a preposition or another function word "that" is a determiner ("in that
#: match"), and before anything else it may be one ("the permanent that object becomes")
RELATIVE_EN = frozenset(["that"])
BE_EN = frozenset("be is are was were been being isn’t aren’t wasn’t weren’t".split())
#: a personal pronoun as a verb's object names no noun ("the effect that created it")
PRONOUNS_EN = frozenset("it them itself themselves".split())
#: a pronoun and "be" in one word: the subject of a passive that names no noun ("at the time it’s created")
PRONOUN_BE_EN = re.compile(r"(?:it|that|they|which|this|these|those)[’'](?:s|re)")
#: language -> what a definition says its term is: "A creature is a permanent.", "A card or token on the battlefield.";
#: "Ein Spielstein ist ein im Spiel befindliches Objekt, das eine bleibende Karte repräsentiert, …" (its first
#: sentence: the predicate and the relative clause that describes it)
KINDS = {"en": re.compile(r"^\s*(?:1\.\s*)?An? ((?:[^\W\d_]+ ){0,2}?[^\W\d_]+)\b(?! of)|\b(?:is|are) (?:an? |the )?"
                        r"([^\W\d_]+)\."),
         "de": re.compile(r"^[^.]*?\bist ([^.,;:()]+(?:, (?:der|die|das|den|dem|deren|dessen) [^.,;:()]+)?)")}
SENTENCE_END = re.compile(r"[.!?;](?=\s|$)")


def neighbour(text: str, words: list, j: int, k: int) -> str | None:
    """Word ``j``, lower-cased, when only spaces (or a trademark sign) part it from word ``k`` (no punctuation closes
    the phrase between)."""
    if not 0 <= j < len(words):
        return None
    a, b = sorted((j, k))
    between = text[words[a][1]:words[b][0]].strip().strip("™®")
    return words[j][2].lower().replace("'", "’") if not between else None


def starts_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t“„\"«‘(")
    return not before or before[-1] in ".:!?\n"


def _in_name_en(text: str, words: list, i: int, types: frozenset[str]) -> bool:
    """Is capitalised word ``i`` part of a name of several capitalised words ("Magic Store & Event Locator", the card
    "Power Play")?  English capitalises a word inside a sentence for a name; a term of several words ("Triggered
    Ability") was matched before any of its words, and a subtype beside it (``types``) makes a type line ("a
    colorless Aura Role enchantment token"), not a name; a quotation opens a sentence ("“Sacrifice Seal of …")."""
    for a, b in ((i - 1, i), (i, i + 1)):
        if 0 <= a and b < len(words) and text[words[a][1]:words[b][0]].strip() in ("", "&") and all(
                words[k][2][:1].isupper() for k in (a, b)) and not starts_sentence(text, words[a][0]) and (
                text[:words[a][0]].rstrip()[-1:] not in "“„\"") and (
                words[a + b - i][2].lower() not in types):
            return True
    return False


#: language -> is this capitalised word part of a name?  (German capitalises every noun: no test)
NAME_PARTS = {"en": _in_name_en}


_POSSESSIVE_EN = frozenset("its their his her your my our whose".split())
GENITIVE_EN = re.compile(r"(?:[’']s|s[’'])\s*$")


def _genitive_en(text: str, words: list, i: int) -> bool:
    """Has word ``i`` a possessor before it ("an object’s characteristics", "a player’s opponent", "its power")?  The
    s-genitive is the of-genitive's other form: "the characteristics of an object"."""
    prev = neighbour(text, words, i - 1, i)
    return prev in _POSSESSIVE_EN or GENITIVE_EN.search(text, 0, words[i][0]) is not None


def _contact_en(text: str, words: list, j: int) -> bool:
    """Does the noun phrase that article ``j`` opens have a verb of its own, a contact clause ("or battle a defending
    player protects", "creatures a player controls")?  Within the phrase (up to punctuation) a form of "be", an
    auxiliary, or a singular noun followed by a verb's -s form ("player controls"); not "matches the result,",
    nor "a triggered ability’s" (a genitive)."""
    for k in range(j + 1, min(j + 5, len(words))):
        w, before = neighbour(text, words, k, k - 1), words[k - 1][2].lower()
        if w is None:
            return False
        if w in BE_EN | _AUX_EN or k > j + 1 and re.search(r"[^s’']s$", w) and not before.endswith("s"):
            return True
    return False


def before_adverbs(text: str, words: list, i: int) -> int:
    """The index of the word before word ``i``, adverbs in -ly aside ("are currently revealed": "are")."""
    b = i - 1
    while b > 0 and (neighbour(text, words, b, b + 1) or "").endswith("ly"):
        b -= 1
    return b


def unnamed_object(text: str, words: list, i: int, stops: frozenset[str]) -> bool:
    """Does verb ``i`` have an object its sentence does not name: a personal pronoun ("the ability that created it"),
    or a passive whose subject is a function word ("abilities that may be created", "it’s created")?"""
    if neighbour(text, words, i + 1, i) in PRONOUNS_EN:
        return True
    k = i - 1
    while k >= 0 and neighbour(text, words, k, k + 1) in _AUX_EN | _ADVERBS_EN | {"not"}:
        k -= 1
    be = neighbour(text, words, k, k + 1) or ""
    return words[i][2].lower().endswith("ed") and (be in BE_EN and not subject(text, words, k, stops) or bool(
        PRONOUN_BE_EN.fullmatch(be)))


def subject(text: str, words: list, j: int, stops: frozenset[str]) -> list[int]:
    """The noun of the subject of a passive whose "be" is word ``j``: the object of its verb in the active ("Delayed
    triggered abilities are created", "A restriction may be created", "the copy isn’t created"), after the auxiliaries
    and adverbs before "be"; none where a function word (``stops``) stands there ("it’s created")."""
    k = j - 1
    while k >= 0 and neighbour(text, words, k, k + 1) in _AUX_EN | _ADVERBS_EN | BE_EN | {"not"}:
        k -= 1
    w = neighbour(text, words, k, k + 1)
    return [k] if w is not None and re.split(r"[’']", w)[0] not in stops else []


def _frame_en(text: str, words: list, i: int, verb: bool = False, counted: frozenset[str] = frozenset()) -> str | None:
    """The word class its frame gives word ``i`` where that is not the entry's.  For a noun entry: "verb" after an
    auxiliary or an adverb of a verb ("don’t match", "still matches") or before the article of an object ("matches
    the result"); "passive" for a participle after "be" ("decks are usually constructed", "is modified
    accordingly"); "of" before "of" ("the role of", "independent of"); "to" after "the" before an infinitive ("the
    option to pay"; after another determiner it is the infinitive of the verb's object, "chooses an opponent to
    become", or a preposition, "from the battlefield to another zone"); "bare" after a preposition, closing its
    phrase without an article ("in general,", "in general or that").  For a verb entry (``verb``): "noun" where its
    base form follows a word that can modify a noun but not be its subject: a name ("Odyssey™ block cards", "the
    Innistrad block"), a word the edition never prints with a plural -s (not in ``counted``: "limited play", "the
    illegal play"), or a noun right after a preposition, with no article to open a subject ("no effect on game
    play") — not a function word, an adverb or another noun ("players play", "can normally play", "counters on a
    permanent create"); after an article alone it names the verb's act ("the exchange", "a legal block")."""
    prev, nxt = neighbour(text, words, i - 1, i), neighbour(text, words, i + 1, i)
    if verb:
        if prev is None or lemma(words[i][2], "en") != words[i][2].lower():
            return None
        modifier = prev not in stop_words("en") | _AUX_EN | _ADVERBS_EN and not prev.endswith(("s", "ly", "n’t")) and (
            prev not in counted or words[i - 1][2][:1].isupper()
            or neighbour(text, words, i - 2, i - 1) in PREPOSITIONS["en"] - {"to"})   # "no effect on game play"
        return "noun" if modifier and nxt not in DET_EN | {"to"} else None    # "… and Gix meld to form …": a verb
    b = before_adverbs(text, words, i)  # a passive: a participle after "be" ("are usually constructed using")
    if words[i][2].lower().endswith("ed") and neighbour(text, words, b, b + 1) in BE_EN:
        return "passive"
    if prev in _AUX_EN | _ADVERBS_EN or nxt in _ARTICLES_EN and prev not in DET_EN and not (
            prev not in PREPOSITIONS["en"] and _contact_en(text, words, i + 1)) or prev in RELATIVE_EN and (
            nxt in DET_EN and neighbour(text, words, i - 2, i - 1) not in stop_words("en") | {None}):
        return "verb"
    if nxt == "of":
        return "of"
    if nxt == "to" and prev == "the" and neighbour(text, words, i + 2, i + 1) not in DET_EN:
        return "to"
    if prev in PREPOSITIONS["en"] and (i + 1 == len(words) or nxt is None or nxt in CONJ_EN and (
            neighbour(text, words, i + 2, i + 1) in stop_words("en"))):
        return "bare"
    return None


_GENITIVE_DE = frozenset("des eines der einer".split())


def _collocate_de(text: str, words: list, i: int) -> tuple[str, int] | None:
    """The noun a German noun is printed with, and where: "before", the noun right before it, its subject or object in
    the German word order ("hat die Karte Vorrang"), else "genitive", the noun of the genitive after it ("die Farbe
    des Erweiterungssymbols", "die Farbe einer bleibenden Karte")."""
    prev = neighbour(text, words, i - 1, i)
    if prev is not None and words[i - 1][2][:1].isupper() and prev not in stop_words("de"):
        return "before", i - 1
    if neighbour(text, words, i + 1, i) not in _GENITIVE_DE:
        return None
    j = i + 2
    while j < len(words) and neighbour(text, words, j, j - 1) is not None and not words[j][2][:1].isupper():
        j += 1      # its adjectives
    return ("genitive", j) if j < len(words) and neighbour(text, words, j, j - 1) is not None else None


_CLAUSE_END_DE = re.compile(r"[,;:.!?()„“”\"–—]")
_REFLEXIVE_DE = frozenset(["sich"])
_ARTICLES_DE = frozenset("der die das den dem des ein eine einen einem einer eines kein keine keinen keinem keiner "
                         "keines".split())


def _clause_de(text: str, words: list, i: int) -> tuple[bool, list[int]]:
    """The clause of German verb ``i`` (up to punctuation): is it reflexive ("wenn sich eine Karte … bewegt"); and the
    noun of the object that follows it in a main clause, after its article ("spielen keine Rolle")."""
    a = max((m.end() for m in _CLAUSE_END_DE.finditer(text, 0, words[i][0])), default=0)
    m = _CLAUSE_END_DE.search(text, words[i][1])
    inside = [j for j, (s, e, _) in enumerate(words) if a <= s and e <= (m.start() if m else len(text)) and j != i]
    obj = [i + 2] if i + 2 < len(words) and neighbour(text, words, i + 1, i) in _ARTICLES_DE and (
        neighbour(text, words, i + 2, i + 1) is not None and words[i + 2][2][:1].isupper()) else []
    return any(words[j][2].lower() in _REFLEXIVE_DE for j in inside), obj


#: language -> a verb's clause: reflexive?, its nouns (one sense per collocation, :meth:`Glossary._clause_fits`)
CLAUSE_TESTS = {"de": _clause_de}
#: language -> the noun a noun is printed with (one sense per collocation, :meth:`Glossary._fits`), where no frame
#: test judges the language's words
COLLOCATE_TESTS = {"de": _collocate_de}
#: language -> the frame that reads a lower-case word in another word class than a noun's (:meth:`Glossary._fits`)
FRAME_TESTS = {"en": _frame_en}
#: language -> has this word a possessor before it (the frame "of" in its other form)?
GENITIVE_TESTS = {"en": _genitive_en}

#: language -> its separable verb particles: a main clause that ends in one has the particle verb as its finite verb
PARTICLES = {"de": frozenset("ab an auf aus bei ein fest fort her hin hinzu los mit nach um vor weg zu zurück".split())}


def particle_verbs(text: str, words: list, lang: str) -> dict[int, str]:
    """Index of the finite verb of each clause that ends in a separable particle -> the particle: the clause's first
    word in lower case that is no stop word ("Das Aktivieren …, die Kosten ändert, *wirkt* sich nicht auf … aus")."""
    out: dict[int, str] = {}
    if lang not in PARTICLES:
        return out
    stops, start = stop_words(lang), 0
    for j, (_, end, w) in enumerate(words):
        if j + 1 < len(words) and not _CLAUSE_END_DE.search(text, end, words[j + 1][0]):
            continue
        if w in PARTICLES[lang] and (j + 1 == len(words) or re.match(r"\s*[^\w\s]", text[end:words[j + 1][0]])):
            verb = next((k for k in range(start, j) if words[k][2][:1].islower() and words[k][2] not in stops), None)
            if verb is not None:
                out[verb] = w
        start = j + 1
    return out
