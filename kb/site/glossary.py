"""Glossary terms in rule text: which words link to which glossary entry, so that a reader can trust a link.

A word links to a glossary entry only where the sentence uses the defined term.  One mechanism decides it: each
term of the glossary becomes a :class:`Term` (its words as lemmas, its word class, whether it is everyday
vocabulary), and :meth:`Glossary.spans` walks a text's words once, longest term first:

* **Multi-word terms first**: "Triggered Ability" wins over "Ability"; a term's words match on lemmas (German
  adjectives also on their stem, :data:`STEM_ENDINGS`), so "triggered abilities", "dauerhaften Effekten" and
  "umgewandelten Manakosten" find their entries; they read across spaces and quotation marks, not across
  punctuation their title does not print ("spells, abilities" is not "Spell Ability").  The longest term claims
  its words even where its entry linked before: a second "delayed triggered ability" links nothing, not
  "Triggered Ability".
* **Function words and common verbs never**: a one-word term that is a stop word of its language (spaCy's lists,
  read from its files: "If", "Becomes", "Name", "Wenn", "Du") links nowhere.
* **Everyday vocabulary never**: a one-word term whose lemma is printed in more than :data:`EVERYDAY` of the
  edition's texts ("card", "player", "ability"; "Karte", "Fähigkeit") is the rules' own vocabulary; linking it
  in every rule is noise.
* **The word class where it matters**: the definition says whether a term is a verb ("To tap …"; German: the
  definition uses the term in lower case, "… zu spielen"); a verb links from any inflection ("tapping"; a regular
  ending the lemmatiser reads as a word of its own, "casting", "untapped", only with an object where its home always
  gives the verb one: "you keep playing" is the game's), any other term only from its own forms — English: the term
  and its plural or possessive ("Phase" not from "phased", "Hand" not from "handed", "Modified" not from "modifies");
  German: capitalised words only, the way German writes nouns ("Spielen" not from "Spiel", whose lemma simplemma
  confuses), but for the headword itself in lower case, the word it was made from ("endet die Partie unentschieden":
  "Unentschieden"), and a verb's infinitive after an article, the noun of its act ("das Spielen eines Zauberspruchs",
  :data:`NOMINALISERS`); an English subtype ("Case: An enchantment subtype.") only from a capitalised word ("Case",
  not "in some cases").  A German noun the lemmatiser does not know (a compound: "Ersatzeffekte", "Zählmarken") is
  read without each ending it may carry; a title naming several headwords ("Control, Controller") links from each.
  The headword is a base form too ("Quellen" is "Quelle", whose own lemma simplemma gives as "quell"), a plural
  headword's singular links where its home prints it ("a characteristic"; not "Dies": "a die roll"), and a word of the
  old German spelling is read in the new one where only that is known ("gepaßt" is "gepasst", "passen":
  :data:`REFORMS`).  An English capitalised word beside another inside a sentence is part of a name ("Magic Store &
  Event Locator", the card "Power Play"), unless one of them is a subtype (a type line, "Aura Role").  A state named
  by a participle ("Locked", "Modified", "Limited") followed by a preposition is the ordinary verb ("aren’t locked in
  ahead of time", "as modified by", "aren’t limited to"): no one-word term links it.
* **The sense where the frame doubts it** (English, :meth:`Glossary._fits`): a lower-case word that the closed-class
  words around it read as a verb ("don’t match"), a noun's complement ("the role of", "independent of", "the option
  to") or a bare singular after a preposition ("in general,"), in a frame its entry's home (definition and cited
  rules, :func:`homes_of`) never prints the term in, links only where its sentence shares a word of that home (one
  chance would not print there as often, :data:`KEYNESS`) or is a rule of it; a noun entry whose home never prints
  its word as a verb (no verb's own form, "dealt", "controlled", no verb's frame) never links where the frame reads a
  verb ("the call matches the result", "a card that matches the given description": after a relative "that", before
  its object's determiner), unless the article opens a contact clause ("or battle a defending player protects").
  The of-genitive is the s-genitive ("the characteristics of a split card" is "an object’s characteristics");
  after an indefinite noun "to" is the
  verb's ("chooses an opponent to become").  A verb entry is a noun where a name or an adjective modifies its base
  form ("Odyssey™ block cards", "limited play") and links there only if its definition has a noun's sense ("lore
  counter"); a verb links only with an object its home prints or a kind of one ("sacrifice a creature": "A creature
  is a permanent."), not "creates their own deck", "enters a “loop”" (one sense per collocation): the object's
  noun decides, not a word that modifies it ("passes the turn marker"), and everyday vocabulary is no exemption
  ("create a delayed triggered ability" is not "To create a token"); a passive's subject is its object ("Delayed
  triggered abilities are created"), as is a participle's noun ("effects created by the spell", "a melded
  permanent").  An object the sentence does not name (a pronoun: "the ability that created it") is read in the sense
  the verb has where the edition names its objects (:meth:`Glossary.learn_usage`); where the entry's sense is the
  minority of those ("create" takes an effect or an ability more often than a token), the sentence decides.
  A verb its home never prints with a preposition after it is another verb before one ("play with the top card of
  their library revealed" is not "play a land"); an everyday object ("effect", printed in a fifth of the rules) is
  evidence of a verb's sense only where the definition itself prints it ("creates a replacement effect" is not "To
  create a token").
* **A German verb by its clause** (:data:`CLAUSE_TESTS`): the noun of the object after it must be one its home
  prints, a kind of one or a compound of one ("bezahlt die Aktivierungskosten"), and a reflexive clause links only
  where the home prints one: "spielen keine Rolle" and "wenn sich eine Karte … bewegt" do not link.  A main clause
  that ends in a separable particle has the particle verb as its verb (:data:`PARTICLES`): "wirkt sich nicht auf …
  aus" is "auswirken", not "wirken" (Cast); "Diese lösen nur aus" is "auslösen" (Trigger).
* **The noun beside a noun** (German, :data:`COLLOCATE_TESTS`): where a definition prints its term beside a noun
  ("erhält der aktive Spieler Vorrang", "die Farbe einer Karte"), the text's noun there must be one it prints, or a
  kind of one: "hat die Karte Vorrang" (the golden rule) and "die Farbe des Erweiterungssymbols" do not link.
* **Notes of a title**: an obsolete entry ("Counts As (Obsolete)", German 1999 "Umleiten (Hinfällig)") links only from
  a quotation of its old wording (:data:`OBSOLETE`); players' jargon ("Antwort (inoffiziell)") from the phrase its
  definition quotes ("als Antwort"), not the ordinary word ("wird die Antwort … bestimmt": :data:`UNOFFICIAL`).
* **Quotations are units**: inside a short quotation (at most :data:`MAX_TERM_WORDS` words) a one-word term links
  only if it is the whole quotation ("“locked in”" is not the entry "Lock"; "the word “target”" is "Target"); a
  term of several words may be part of one ("“Am Ende des Zuges”-Fähigkeiten") or hold one ("intervening “if”
  clause").

* **A translation links where its original does** (:func:`glossary_of`): a term learnt from the aligned rules of
  the edition it translates (:func:`learn_translations`) links from a text only where the aligned original uses the
  entry in its sense (:meth:`Glossary.senses`): "bewegt ein Spieler diese Karte" is not "Move" (to move a counter),
  as "moves that card" is not.  A word the terminology table renames alone ("Vorrang" -> "Priorität") is, where the
  newer edition prints it, its ordinary word.

Each entry links once per text, at its first use.  :func:`census` counts the links of every term over a whole
edition (``kb glossary-links``); the tests fail on the known false links.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, overload

from .wordclass import (
    BE_EN,
    CLAUSE_TESTS,
    COLLOCATE_TESTS,
    CONJ_EN,
    DET_EN,
    FRAME_TESTS,
    GENITIVE_EN,
    GENITIVE_TESTS,
    KINDS,
    NAME_PARTS,
    NAME_TESTS,
    PARTICIPLE_TESTS,
    PREPOSITIONS,
    PRONOUN_BE_EN,
    RELATIVE_EN,
    SENTENCE_END,
    STATE_TESTS,
    VERB_TESTS,
    WORD,
    before_adverbs,
    infinitive,
    lemma,
    neighbour,
    particle_verbs,
    points_into_rules,
    starts_sentence,
    stem,
    stop_words,
    subject,
    unknown_noun,
    unnamed_object,
)

#: the longest glossary term matched, in words; also the longest quotation treated as one unit
MAX_TERM_WORDS = 5
#: a one-word term printed in more than this share of an edition's texts is everyday vocabulary
EVERYDAY = 0.2
#: opening -> closing quotation marks
_QUOTES = re.compile(r"“([^”„“]{1,80})”|„([^“”„]{1,80})[“”]|\"([^\"]{1,80})\"|«([^»]{1,80})»|‘([^’]{1,80})’")
_ENDINGS_EN = ("", "s", "es", "’s", "'s", "s’", "s'")

#: language -> the note of a glossary title that marks an obsolete entry ("Counts As (Obsolete)",
#: "Set Aside (Obsolete)"): old card wording that the rules print only when they quote it ("the phrases “in play,”
#: “from play,” …"); unquoted, the words are the ordinary ones ("counts as paying the original cost", "cards are
#: set aside", "Commander Legends")
OBSOLETE = {"en": "Obsolete", "de": "Hinfällig"}
#: language -> the notes of a glossary title that mark players' jargon ("Antwort (inoffiziell)", "Saboteur
#: (informell)"): the entry explains a phrase, which its definition quotes ('… wird "als Antwort" auf den früheren
#: gespielt'); the headword alone is the ordinary word ("wird die Antwort nur einmal ermittelt": the answer)
UNOFFICIAL = {"de": ("inoffiziell", "informell")}


#: a word of an entry's home is a word of its sense (:class:`Sense`) when chance would print it in as many of the
#: home's texts as seldom as this (the edition's share of texts that print it being the chance of each)
KEYNESS = 0.05
#: an entry's home shows a verb with no preposition of its own when it prints it at least this often, never with one
MIN_USES = 3


def _chance(n: int, texts: int, share: float) -> float:
    """The chance that a word printed in ``share`` of an edition's texts is printed in ``n`` or more of ``texts``
    texts drawn at random (the binomial tail): a word a home of two rules prints once is no evidence of its sense."""
    return sum(math.comb(texts, k) * share ** k * (1 - share) ** (texts - k) for k in range(n, texts + 1))


@dataclass(frozen=True)
class Sense:
    """What an entry's home (its definition and the rules it cites) shows of a one-word term: the lemmas printed
    there more often than chance would print them (:data:`KEYNESS`; everyday vocabulary aside), the frames it prints
    the term in, and whether it prints the term's plural (a count noun)."""

    words: frozenset[str]
    frames: frozenset[str]
    count: bool
    printed: frozenset[str] = frozenset()   # every lemma the home prints: the objects a verb of its sense takes
    home: frozenset[str] = frozenset()      # the home's texts: the term's uses there are in its sense
    noun: bool = False                      # a sense of the definition is not a verb's ("Counter: … 2. A marker …")
    defined: frozenset[str] = frozenset()   # the lemmas of the definition itself
    transitive: bool = False                # its home prints the term as a verb at least :data:`MIN_USES` times,
    #                                         never with a preposition after it ("play a land", "play that card")
    verbal: bool = False                    # its home prints the term's word as a verb: a verb's own form
    #                                         ("dealt", "controlled", "attacking") or in a verb's frame


def _form_en(word: str, term: Term, start_of_sentence: bool) -> bool:
    if term.name and not word[:1].isupper():
        return False
    w, t = word.lower(), term.words[0].lower()
    return any(w == t + e for e in _ENDINGS_EN) or (t.endswith("y") and w == t[:-1] + "ies") or (
        term.singular and w == term.key[0] != t)     # a plural headword's singular ("a characteristic")


#: language -> the articles (and a preposition fused with one) that make an infinitive a noun naming the act, and the
#: ending the noun takes after it: "für das *Spielen* eines Zauberspruchs", "beim *Aktivieren*", "der Prozess des
#: *Wirkens* eines Zauberspruchs" (a verb's entry, "Spielen: Die Aktion, … zu spielen")
NOMINALISERS = {"de": {"das": "", "dem": "", "beim": "", "zum": "", "vom": "", "des": "s"}}


def _form_de(word: str, term: Term, start_of_sentence: bool, before: str = "") -> bool:
    """German writes a noun capitalised, a verb in lower case; a noun headword printed in lower case letter for letter
    is the word it was made from, in the same sense ("endet die Partie unentschieden": "Unentschieden"); a verb's
    infinitive after an article is the noun of its act ("das Spielen eines Zauberspruchs")."""
    if term.verb and word[:1].isupper() and before in NOMINALISERS["de"] and (
            word.lower() == term.words[0].lower() + NOMINALISERS["de"][before]):
        return True
    return start_of_sentence or term.verb is None or word[:1].isupper() != term.verb or (
        len(term.words) == 1 and not term.learnt and word == term.words[0].lower())


#: language -> may this word be a use of this one-word term?  (the word already has the term's lemma)
FORM_TESTS = {"en": lambda w, t, s, b: (t.verb and not t.name) or _form_en(w, t, s), "de": _form_de}


@dataclass(frozen=True)
class Term:
    title: str
    anchor: str
    edition: str                    # the edition whose glossary defines it
    key: tuple[str, ...]            # its words' lemmas
    words: tuple[str, ...]          # its words as printed in the glossary
    verb: bool | None = False       # None: the definition does not show it
    name: bool = False              # a name the rules print capitalised (an English subtype)
    state: bool = False             # a state named by a participle (:data:`STATE_TESTS`)
    quoted: bool = False            # old card wording (:data:`OBSOLETE`): links only from a quotation of it
    singular: bool = False          # a plural headword whose home prints its singular ("Characteristics": "a
    #                                 characteristic"; not "Dies", whose home never prints "die", a die roll's)
    learnt: bool = False            # learnt from the aligned rules of the original (:func:`learn_translations`)
    rank: int = 0                   # of two terms printed alike, the lower rank links (the original's glossary)
    stems: tuple[str, ...] = ()     # a term of several words: its words' stems (:func:`stem`); of one word, the
    #                                 headword, a base form the lemmatiser may not return ("Quellen": "quelle", but
    #                                 "Quelle": "quell")
    gaps: tuple[str, ...] = ()      # the punctuation between its words (:func:`_gap`): "Base Power, Base Toughness"

    def __post_init__(self) -> None:
        if not self.stems:
            object.__setattr__(self, "stems", self.key)
        if not self.gaps:
            object.__setattr__(self, "gaps", ("",) * (len(self.key) - 1))


@dataclass
class Glossary:
    """The glossary terms that may link from the texts of one edition (``edition``, language ``lang``)."""

    edition: str
    lang: str
    prefix: str = "/"
    by_first: dict[str, list[Term]] = field(default_factory=dict)
    #: why a term links nowhere: title -> "stop word" | "everyday vocabulary"
    unlinked: dict[str, str] = field(default_factory=dict)
    #: lemma of the edition's wording -> lemmas of the glossary's terms (a newer edition reading an older glossary)
    synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: (defining edition, title) -> the entry's home: its definition, then the rules it cites (:func:`homes_of`)
    homes: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    #: lemma -> share of the edition's texts that print it
    share: dict[str, float] = field(default_factory=dict)
    #: lemma of a one-word entry -> what its definition says it is ("Creature: … A creature is a permanent."): a
    #: verb whose home takes a permanent takes a creature ("sacrifice a creature")
    kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    #: the words (lower case) the edition also prints with a plural -s: nouns, which may be a verb's subject
    counted: frozenset[str] = frozenset()
    #: the words (lower case) of the one-word terms that are names the rules print capitalised (English subtypes)
    types: frozenset[str] = frozenset()
    #: text -> the entries of the original's glossary that its aligned counterpart links (a translation): a term
    #: learnt from the original (:func:`learn_translations`) links from that text only where its counterpart does
    vouched: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    #: lemmas of the old wording the terminology table renames (:attr:`synonyms`): printed in the edition itself, such
    #: a word is its ordinary word, not the old glossary's term ("hat sie Vorrang vor dem Zeitstempel-System": the
    #: term is now "Priorität")
    retired: frozenset[str] = frozenset()
    #: title of a verb entry -> is its sense the usual one where the edition's texts name the verb's object
    #: (:meth:`learn_usage`): "create" takes a token in 64 of its 176 named objects in en-2024-11-08, an effect or an
    #: ability in the rest, so "the ability that created it" is read by its sentence
    usual: dict[str, bool] = field(default_factory=dict)
    #: the edition's texts, and the lemma of each verb entry -> the indices of the texts that print it: where
    #: :meth:`learn_usage` reads a verb's objects when a page first meets it with an unnamed object
    texts: list[str] = field(default_factory=list, repr=False)
    printing: dict[str, list[int]] = field(default_factory=dict, repr=False)
    _senses: dict[tuple[str, str], Sense | None] = field(default_factory=dict)

    @classmethod
    def build(cls, edition: str, lang: str, entries: list[tuple[str, str, str, str]], prefix: str = "/",
              share: dict[str, float] | None = None,
              synonyms: dict[str, tuple[str, ...]] | None = None, every_term: bool = False,
              homes: dict[tuple[str, str], list[str]] | None = None) -> Glossary:
        """``entries``: (term, anchor, definition, defining edition); ``share``: lemma -> share of the edition's
        texts that print it; ``synonyms``: lemma of the edition's wording -> lemma of the glossary's (a newer
        edition's words for an older glossary's terms); ``every_term``: keep stop words and everyday vocabulary
        (to resolve an entry's "See …"); ``homes``: (defining edition, title) -> its definition and the texts of the
        rules it cites (:func:`homes_of`), which decide a word whose frame doubts it (:meth:`_fits`)."""
        g = cls(edition, lang, prefix)
        g.synonyms, g.homes = synonyms or {}, homes or {}
        stops, share = stop_words(lang), share or {}
        g.share = share
        verb_test = VERB_TESTS.get(lang)
        for title, head, anchor, definition, source in _headwords(entries, lang):
            words = tuple(WORD.findall(head))
            if not words or len(words) > MAX_TERM_WORDS:
                continue
            verb = verb_test(title, definition) if verb_test else True
            name = NAME_TESTS[lang](title, definition) if lang in NAME_TESTS else False
            key = tuple(lemma(w.lower() if verb is not False else w, lang) for w in words)
            if len(key) == 1 and not every_term:
                if words[0].lower() in stops or key[0] in stops:
                    g.unlinked[title] = "stop word"
                    continue
                if share.get(key[0], 0) > EVERYDAY:
                    g.unlinked[title] = "everyday vocabulary"
                    continue
            if len(key) == 1:
                g.kinds[key[0]] = g.kinds[stem(words[0], lang)] = frozenset(lemma(w, lang) for m in (
                    KINDS[lang].finditer(definition or "") if lang in KINDS else ()) for w in WORD.findall(
                    next(x for x in m.groups() if x)) if w.lower() not in stops and (lang != "de" or w[:1].isupper()))
            spots = list(WORD.finditer(head))
            state = STATE_TESTS[lang](title, definition) if lang in STATE_TESTS else False
            quoted = _obsolete(title, lang, definition)
            singular = len(words) == 1 and words[0].lower() == key[0] + "s" and any(
                re.search(rf"\b{re.escape(key[0])}\b", h, re.I) for h in g.homes.get((source, title), [])[1:])
            term = Term(title, anchor, source, key, words, verb, name, state=state, quoted=quoted, singular=singular,
                        stems=tuple(stem(w, lang) for w in words) if len(words) > 1 else (words[0].lower(),),
                        gaps=tuple(_gap(head[a.end():b.start()]) for a, b in zip(spots, spots[1:])))
            for first in dict.fromkeys((key[0], term.stems[0])):
                g.by_first.setdefault(first, []).append(term)
        for cands in g.by_first.values():
            cands.sort(key=lambda t: -len(t.key))
        g.types = frozenset(t.words[0].lower() for c in g.by_first.values() for t in c if t.name and len(t.key) == 1)
        return g

    def add(self, terms: list[Term], share: dict[str, float] | None = None) -> None:
        """Add terms learnt elsewhere (:func:`learn_translations`); everyday one-word terms stay unlinked."""
        skipped, added = {}, set()
        for t in terms:
            if len(t.key) == 1 and t.key[0] in stop_words(self.lang):
                skipped[t.title] = "stop word"
            elif len(t.key) == 1 and (share or {}).get(t.key[0], 0) > EVERYDAY:
                skipped[t.title] = "everyday vocabulary"
            else:
                self.by_first.setdefault(t.key[0], []).append(t)
                added.add(t.title)
        self.unlinked.update({title: why for title, why in skipped.items() if title not in added})
        for cands in self.by_first.values():
            cands.sort(key=lambda t: -len(t.key))

    def titles(self) -> dict[str, Term]:
        """Lower-cased title (also without a bracketed note such as "(Obsolete)") -> term."""
        out = {}
        for cands in self.by_first.values():
            for t in cands:
                out[t.title.lower()] = t
                for name in [t.title.split("(")[0], *t.title.split(",")]:   # "Kicker, Kicked"; "(Obsolete)"
                    out.setdefault(name.strip().lower(), t)
        return out

    def url(self, term: Term) -> str:
        return f"{self.prefix}glossary/{term.edition}#{term.anchor}"

    def spans(self, text: str) -> list[tuple[int, int, Term]]:
        """(start, end, term) of the first use of each term in ``text``."""
        if not self.by_first or not text:
            return []
        words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
        particles = particle_verbs(text, words, self.lang)
        # "wirkt sich … aus" is "auswirken", "wirft eine Karte ab" is "abwerfen"
        keys = [self._keys(w, particles.get(j, "")) for j, (_, _, w) in enumerate(words)]
        quotes = _quotations(text, words)
        out: list[tuple[int, int, Term]] = []
        done: set = set()
        i = 0
        while i < len(words):
            hit = self._match(text, words, keys, quotes, i)
            if hit is None:
                i += 1
                continue
            n = len(hit.key)    # the longest term claims its words even where its entry has linked already
            seen = {(hit.edition, hit.anchor), ("words", tuple(k[0] for k in keys[i:i + n]))}
            if not seen & done:     # each entry once, and the same words link once, whatever entry they found
                out.append((words[i][0], words[i + n - 1][1], hit))
            done.update(seen)
            i += n
        return out

    def senses(self, text: str) -> frozenset[tuple[str, str]]:
        """(edition, anchor) of every entry that ``text`` uses in its sense: the entries it links (:meth:`spans`) and
        the one-word terms whose lemma it prints where their sense fits, in whatever form ("as it resolved" uses
        "Resolve", though only "resolve" and "resolves" link: its definition shows no verb)."""
        if "-" in text:                     # a compound's words too ("face-down cards" uses "Face Down")
            return self._senses_of(text) | self._senses_of(text.replace("-", " "))
        return self._senses_of(text)

    def _senses_of(self, text: str) -> frozenset[tuple[str, str]]:
        words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
        keys = [tuple(dict.fromkeys((lemma(w, self.lang), lemma(w.lower(), self.lang), *_bases(w.lower()))))
                for _, _, w in words]
        used = {(t.edition, t.anchor) for _, _, t in self.spans(text)}
        for i, ks in enumerate(keys):
            for t in (t for k in ks for t in self.by_first.get(k, ()) if len(t.key) == 1):
                if (t.edition, t.anchor) not in used and self._fits(text, words, keys, i, t):
                    used.add((t.edition, t.anchor))
        return frozenset(used)

    def _match(self, text: str, words: list, keys: list[tuple[str, ...]], quotes: dict[int, tuple[int, int]],
               i: int) -> Term | None:
        word = words[i][2].lower()
        passive = i + 1 < len(words) and text[words[i][1]:words[i + 1][0]] == " " and (
            words[i + 1][2].lower() in PREPOSITIONS.get(self.lang, ()))
        vetoed = 0
        for first in keys[i]:        # longest first; of equal length, the term printed as this word first
            cands = self.by_first.get(first, ())
            # a state's participle followed by a preposition is the ordinary verb: no one-word term links it
            ordinary = passive and any(t.state and t.words[0].lower() == word for t in cands)
            for term in sorted(cands, key=lambda t: (-len(t.key), t.words[0].lower() != word, t.rank)):
                n = len(term.key)
                if n == 1 and ordinary:
                    continue
                if i + n > len(words) or not all(
                        term.key[j] in keys[i + j] or term.stems[j] in keys[i + j] for j in range(n)):
                    continue
                if n > 1 and self.lang in PARTICIPLE_TESTS and any(
                        PARTICIPLE_TESTS[self.lang](w) and words[i + j][2].lower() != w.lower()
                        and stop_words(self.lang).isdisjoint(x.lower() for x in term.words[j + 1:-1])
                        for j, w in enumerate(term.words[:-1])):
                    continue    # a participle before the head is printed as one: "trigger abilities" is a verb's
                if term.learnt and (term.edition, term.anchor) not in self.vouched.get(text, {(term.edition,
                                                                                               term.anchor)}):
                    vetoed = n  # the original's counterpart does not use the entry here ("bewegt diese Karte"):
                    continue    # the words are no term of its length, in any glossary
                if n <= vetoed or n == 1 and term.key[0] in self.retired and first == term.key[0] and (
                        term.key[0] in keys[i][:2]):
                    continue    # the old glossary's word in its ordinary sense: the edition renamed the term
                if term.quoted and not all(j in quotes for j in range(i, i + n)):
                    continue
                if not _keeps_quotations(quotes, i, n) or any(
                        _gap(text[words[i + j][1]:words[i + j + 1][0]]) != term.gaps[j] for j in range(n - 1)):
                    continue
                if n == 1 and not (self._form(text, words, i, term) and self._fits(text, words, keys, i, term)):
                    continue
                return term
        return None

    def _fits(self, text: str, words: list, keys: list[tuple[str, ...]], i: int, term: Term) -> bool:
        """May word ``i`` be a use of the one-word ``term`` in its sense?  Where the word's frame reads it in another
        word class (:data:`FRAME_TESTS`), one its entry's home never prints the term in, the text must share a word of
        the entry's home (:class:`Sense`, the overlap of simplified Lesk) or be one of its rules: "… is considered to be
        independent of the other effect" is 613.8a, a rule of "Dependency" (the entry "Independent" says "See
        Dependency"); "independent of its card type" shares no word; nor do "don’t match", "the role of", "the
        option to", "in general" with their entries' homes.  Where the home prints the term as a verb too ("Enter":
        "A nontoken permanent enters the battlefield …"), and for a verb entry, the verb's object decides
        (:meth:`_takes`); a verb entry whose frame makes it a noun ("Odyssey™ block cards") links only if its
        definition has a noun's sense.  German nouns: :meth:`_collocates`."""
        test = FRAME_TESTS.get(self.lang)
        word = words[i][2]
        if points_into_rules(text, words, i, self.lang):
            return False        # "the steps listed below": a part of the rules' text
        if (term.edition, term.title) not in self.homes:
            return True
        if self.lang in COLLOCATE_TESTS and term.edition == self.edition and term.verb is False:
            return self._collocates(text, words, keys, i, term)
        if self.lang in CLAUSE_TESTS and term.verb and term.key[0].endswith("n"):
            return self._clause_fits(text, words, keys, i, term)
        if test is None or not word[:1].islower():
            return True
        frame = test(text, words, i, bool(term.verb), self.counted)
        sense = self._sense(term) if frame is not None or term.verb else None
        if term.verb and sense is not None:     # a verb: a noun where it defines one; its object decides
            if frame:
                return sense.noun
            nouns = self._object(text, words, i)
            unnamed = not nouns and unnamed_object(text, words, i, stop_words(self.lang))
            if not nouns and not unnamed and sense.transitive and term.key[0] not in (
                    lemma(word, self.lang), lemma(word.lower(), self.lang)):
                return False    # a form the lemmatiser reads otherwise, with no object: "you keep playing"
            if unnamed and not self._usual(term):     # "the ability that created it": the sentence decides
                return self._at_home(text, sense) or self._overlaps(text, words, keys, i, sense)
            return not self._particle(text, words, i, sense) and (
                self._takes(words, keys, nouns, sense) or self._at_home(text, sense)
                or not self._refuses(words, keys, i, nouns, sense) and self._overlaps(text, words, keys, i, sense))
        if frame is None or sense is None:
            return True
        if frame == "passive":      # its subject decides where the home prints the term after "be" or as a verb
            return ("passive" in sense.frames or sense.verbal) and self._takes(
                words, keys, self._object(text, words, i), sense)
        if frame == "verb" and not sense.verbal:
            return False
        if frame == "verb" and frame in sense.frames:
            return self._takes(words, keys, self._object(text, words, i), sense)
        if frame in sense.frames or frame == "bare" and not (sense.count and word.lower() == term.words[0].lower()):
            return True     # "bare" doubts only the singular of a count noun ("for generals" is the entry)
        return self._shares(text, words, keys, i, sense)

    def learn_usage(self, texts: list[str], terms: list[Term] | None = None) -> None:
        """Which verb entries (of ``terms``, else all) have their sense in most of the uses where ``texts`` name the
        verb's object (:attr:`usual`; one sense per collocation, the object deciding, :meth:`_takes`)?  Where the
        object is unnamed (a pronoun, a passive's relative subject) the entry's sense is assumed only if it is the
        usual one; else the sentence decides (the overlap with the entry's home)."""
        test = FRAME_TESTS.get(self.lang)
        verbs = {t.key[0]: t for c in ([terms] if terms is not None else self.by_first.values()) for t in c
                 if t.verb and len(t.key) == 1 and (t.edition, t.title) in self.homes}
        if test is None or not verbs:
            return
        starts = tuple({t.words[0].lower()[:2] for t in verbs.values()})   # a cheap test first: "pay", "paid"
        votes: dict[str, Counter] = {}
        for text in texts:
            words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
            for i, (_, _, w) in enumerate(words):
                term = verbs.get(lemma(w, self.lang)) if w[:1].islower() and w.startswith(starts) else None
                sense = self._sense(term) if term else None
                if term is None or sense is None or test(text, words, i, True, self.counted) or self._particle(
                        text, words, i, sense):
                    continue
                nouns = self._object(text, words, i)
                if nouns:
                    keys = {j: self._keys(words[j][2]) for j in nouns}
                    votes.setdefault(term.title, Counter())[self._takes(words, keys, nouns, sense)] += 1
        # unusual where the other objects outnumber the sense's more than chance would (:data:`KEYNESS`, a sign test)
        self.usual.update({t.title: _chance(votes[t.title][False], votes[t.title].total(), 0.5) >= KEYNESS
                           if t.title in votes else True for t in verbs.values()})

    def _usual(self, term: Term) -> bool:
        if term.title not in self.usual and self.texts:     # read once, from the texts that print the verb
            self.learn_usage([self.texts[j] for j in self.printing.get(term.key[0], ())], [term])
        return self.usual.get(term.title, True)

    def _keys(self, word: str, particle: str = "") -> tuple[str, ...]:
        """The lemmas a word may be read as, of its particle verb where a separable ``particle`` ends its clause."""
        own = dict.fromkeys(particle + k for k in (lemma(word, self.lang), lemma(word.lower(), self.lang),
                                                   *unknown_noun(word, self.lang), *infinitive(word, self.lang),
                                                   *(_bases(word.lower()) if self.lang == "en" else ())))
        return tuple(own) + tuple(x for k in own for x in self.synonyms.get(k, ())) + (stem(word, self.lang),)

    def _collocates(self, text: str, words: list, keys: list[tuple[str, ...]], i: int, term: Term) -> bool:
        """Where its entry's home prints a noun term beside a noun (:data:`COLLOCATE_TESTS`), the noun beside word
        ``i`` there must be one the home prints, or a kind of one (:attr:`kinds`), or its sentence must share a word
        of the home: one sense per collocation ("hat die Karte Vorrang" is not "erhält der Spieler Vorrang")."""
        at = COLLOCATE_TESTS[self.lang](text, words, i)
        sense = self._collocations(term)
        return at is None or at[0] not in sense.frames or not sense.printed.isdisjoint(
            [*keys[at[1]], *(x for k in keys[at[1]] for x in self.kinds.get(k, ()))]) or (
            self._shares(text, words, keys, i, sense))

    def _clause_fits(self, text: str, words: list, keys: list[tuple[str, ...]], i: int, term: Term) -> bool:
        """A German verb is judged by its clause (:data:`CLAUSE_TESTS`), one sense per collocation: a reflexive clause
        where its home never prints one ("wenn sich eine Karte … bewegt" is not "eine Zählmarke … bewegen") does
        not link; nor does one whose object's noun its home prints neither itself, nor a kind of it, nor the head of
        the compound ("bezahlt die Aktivierungskosten": "Kosten"): "Mehrzahl und Geschlecht spielen keine Rolle" is
        not "einen Zauberspruch … spielen"."""
        reflexive, nouns = CLAUSE_TESTS[self.lang](text, words, i)
        sense = self._collocations(term)
        if reflexive and "reflexive" not in sense.frames:
            return False
        return not nouns or any(k in sense.printed or not sense.printed.isdisjoint(self.kinds.get(k, ())) or any(
            k.endswith(p) for p in sense.printed if len(p) > 3) for j in nouns for k in keys[j])  # a compound's head

    @classmethod
    def _shares(cls, text: str, words: list, keys: list[tuple[str, ...]], i: int, sense: Sense) -> bool:
        """Does the sentence of word ``i`` share a word of its entry's sense (the overlap of simplified Lesk), or is
        its text one of the entry's home (613.8a, "… is considered to be independent of the other effect", is a rule
        of "Dependency")?"""
        return cls._overlaps(text, words, keys, i, sense) or cls._at_home(text, sense)

    @staticmethod
    def _overlaps(text: str, words: list, keys: list[tuple[str, ...]], i: int, sense: Sense) -> bool:
        """Does the sentence of word ``i`` share a word of its entry's sense?"""
        a = max((m.end() for m in SENTENCE_END.finditer(text, 0, words[i][0])), default=0)
        m = SENTENCE_END.search(text, words[i][1])
        sentence = [k for (s, e, _), ks in zip(words, keys) if a <= s and e <= (m.start() if m else len(text))
                    for k in ks]
        return not sense.words.isdisjoint(sentence)

    @staticmethod
    def _at_home(text: str, sense: Sense) -> bool:
        """Is ``text`` one of the texts of the entry's home?"""
        return any(h.endswith(text) for h in sense.home)

    def _takes(self, words: list, keys: Mapping[int, tuple[str, ...]] | list[tuple[str, ...]], nouns: list[int],
               sense: Sense) -> bool:
        """May a verb, which its frame and its entry's home both read as a verb, take the object whose nouns are
        ``nouns`` (:meth:`_object`) in its entry's sense?  Yes where it has none ("When this creature enters, …"),
        where it shares the object of the verb it is coordinated with ("drawn or discarded a split card"), or where the
        noun of the object (after its determiners, up to punctuation or a function word other than "and", "or"; each
        conjunct's words but those that modify the next, :meth:`_modifies`) is one its entry's home prints, a kind of
        one, or a name ("enter certain zones", "skip the declare blockers and combat damage steps"); not "enters a
        “loop”", "will enter Alex’s range of influence", "passes the turn marker", "create continuous effects" (one
        sense per collocation: the object decides)."""
        return not nouns or any(k in sense.printed and (self.share.get(k, 0) <= EVERYDAY or k in sense.defined)
                                or words[j][2][:1].isupper() or not sense.printed.isdisjoint(self.kinds.get(k, ()))
                                for j in nouns for k in keys[j])

    def _refuses(self, words: list, keys: list[tuple[str, ...]], i: int, nouns: list[int], sense: Sense) -> bool:
        """Is a noun of the object of verb ``i`` (its ``nouns``) everyday vocabulary that its entry's home prints but
        its definition does not ("Static abilities create continuous effects", "creates a continuous effect stating":
        "To create a token …")?  Such an object is evidence of another sense, which no word its sentence shares with
        the home outweighs."""
        if i + 1 < len(words) and self._modifies(words[i][2], words[i + 1][2]):
            return False        # the first word of a compound noun ("a copy effect"), not a verb and its object
        return bool(nouns) and any(any(k in sense.printed and self.share.get(k, 0) > EVERYDAY and k not in sense.defined
                                       for k in keys[j]) for j in nouns)

    def _object(self, text: str, words: list, i: int) -> list[int]:
        """The nouns of the object of verb ``i`` (:meth:`_takes`); none for a passive or attributive participle or a
        verb coordinated with the next."""
        j, stops = i + 1, stop_words(self.lang)
        b = before_adverbs(text, words, i)
        prev = neighbour(text, words, b, b + 1)
        if words[i][2].lower().endswith("ed"):
            nxt = neighbour(text, words, i + 1, i)
            if prev in BE_EN:
                return subject(text, words, b, stops)  # a passive: "abilities are created"
            if prev is not None and PRONOUN_BE_EN.fullmatch(prev):
                return []       # a passive whose subject is a pronoun: "when it’s tapped"
            if prev not in DET_EN | stops | {None} and nxt in PREPOSITIONS.get(self.lang, ()):
                return [b]      # a participle after its noun: "effects created by the spell", "zones created for"
            if prev in (DET_EN | stops) - RELATIVE_EN and nxt is not None and nxt not in stops:
                return [i + 1]  # an attributive one: the noun after it ("a melded permanent", "the most recently
                #                 created turn"); after "that" a verb in the past ("the effect that created the token")
        while j < len(words) and not _gap(text[words[j - 1][1]:words[j][0]]) and (
                re.sub(r"[’']s$", "", words[j][2].lower()) in DET_EN | {"own", "other"} or GENITIVE_EN.search(
                    text, 0, words[j][1]) or " ".join(w.lower() for _, _, w in words[j - 1:j + 2]).find(
                    "number of") in (0, len(words[j - 1][2]) + 1) or (   # "any number of"
                    words[j][2].lower() in CONJ_EN and neighbour(text, words, j + 1, j) in ("more", "fewer"))):
            j += 2 if words[j][2].lower() in CONJ_EN else 1     # "one or more"
        head = []           # up to a function word, or a word that contracts one ("a token that’s a copy")
        while j < len(words) and not _gap(text[words[j - 1][1]:words[j][0]]) and (
                re.split(r"[’']", words[j][2].lower())[0] not in stops or words[j][2].lower() in CONJ_EN):
            head.append(j)
            j += 1
        if head and words[head[0]][2].lower() in CONJ_EN:
            return []           # a verb coordinated with the next ("drawn or discarded a split card") shares its object
        return [j for j, after in zip(head, [*head[1:], None]) if words[j][2].lower() not in CONJ_EN and (
            after is None or not self._modifies(words[j][2], words[after][2]))]

    def _particle(self, text: str, words: list, i: int, sense: Sense) -> bool:
        """Is verb ``i`` followed by a preposition its home never prints after it (:attr:`Sense.transitive`)?  Then
        it is another verb ("play with the top card of their library revealed" is not "play a land"); not a
        participle, whose preposition is the passive's ("created for that player"), nor a noun after a preposition
        ("a card in exile to become plotted"); "to" may open an infinitive ("meld to form")."""
        prev, preps = neighbour(text, words, i - 1, i), PREPOSITIONS.get(self.lang, frozenset()) - {"to"}
        return sense.transitive and neighbour(text, words, i + 1, i) in preps and not (   # "to": an infinitive's
            words[i][2].lower().endswith("ed") or prev in preps or prev in DET_EN)

    def _modifies(self, word: str, noun: str) -> bool:
        """Does ``word`` modify the ``noun`` after it ("the turn marker")?  Not a name ("cast Lobotomy searches"), nor
        a plural ("cards equal to"); the next word is a noun: one the edition prints with a plural -s
        (:attr:`counted`), or a plural of one."""
        w, n = word.lower(), noun.lower()
        plural = w.endswith("s") and lemma(w, "en") != w
        return not word[:1].isupper() and not plural and (
            n in self.counted or n.endswith("s") and n[:-1] in self.counted)

    def _collocations(self, term: Term) -> Sense:
        """Where an entry's home prints its one-word term with a noun (:data:`COLLOCATE_TESTS`: "erhält der aktive
        Spieler Vorrang", "die Farbe einer Karte"; the :class:`Sense`'s frames), the lemmas and stems it prints, and
        the words of its sense."""
        key = (term.edition, term.title)
        sense = self._senses.get(key)
        if sense is None:
            home, test, t0 = self.homes[key], COLLOCATE_TESTS[self.lang], term.key[0]
            slots: set[str] = set()
            printed: set[str] = set()
            for t in home:
                ws = [(m.start(), m.end(), m.group()) for m in WORD.finditer(t)]
                for j, (_, _, w) in enumerate(ws):
                    printed.update((lemma(w, self.lang), stem(w, self.lang)))
                    at = test(t, ws, j) if lemma(w, self.lang) == t0 and w[:1].isupper() else None
                    slots.update([at[0]] if at else [])
                    if term.verb and w[:1].islower() and lemma(w, self.lang) == t0 and CLAUSE_TESTS[self.lang](
                            t, ws, j)[0]:
                        slots.add("reflexive")
            sense = self._senses[key] = Sense(self._keywords(home, term), frozenset(slots), False, frozenset(printed))
        return sense

    def _keywords(self, texts: list[str], term: Term) -> frozenset[str]:
        """The lemmas of an entry's home that chance would print in as many of its texts seldom (:data:`KEYNESS`),
        everyday vocabulary aside: the words of its sense."""
        stops = stop_words(self.lang)
        bags = Counter(w for t in texts for w in {lemma(x.lower() if term.verb is not False or self.lang != "de"
                                                         else x, self.lang) for x in WORD.findall(t)
                                                  if x.lower() not in stops and len(x) > 2})
        return frozenset(w for w, n in bags.items() if self.share.get(w, 0) <= EVERYDAY
                         and _chance(n, len(texts), self.share.get(w, 0)) < KEYNESS) - set(term.key)

    def _sense(self, term: Term) -> Sense | None:
        """The :class:`Sense` of a one-word term; None when its entry cites no rule, not even through "See …" (a
        definition alone is too short to judge a sentence by: the 1999 glossary's "Target")."""
        key = (term.edition, term.title)
        if key not in self._senses:
            own = self.homes[key]
            seen = [self.homes[other] for other in _see_titles(own[0], self.lang, term.edition, self.homes)]
            texts = own + [t for home in seen for t in home]
            if len(own) == 1 and all(len(home) == 1 for home in seen):
                self._senses[key] = None
                return None
            test, words = FRAME_TESTS[self.lang], self._keywords(texts, term)
            printed = frozenset(lemma(x, self.lang) for t in texts for x in WORD.findall(t.lower()))
            frames, count, t0 = set(), False, term.words[0].lower()
            forms = {t0 + e for e in ("", "s", "es")} | ({t0[:-1] + "ies"} if t0.endswith("y") else set())
            for t in own:
                ws = [(m.start(), m.end(), m.group()) for m in WORD.finditer(t)]
                for j, (_, _, w) in enumerate(ws):
                    if w in forms:
                        count = count or w != t0
                        frame = test(t, ws, j, bool(term.verb), self.counted) or ""
                        frames.add(frame if frame != "bare" or w == t0 else "")     # "bare" is of a singular
                        if GENITIVE_TESTS[self.lang](t, ws, j):
                            frames.add("of")            # "an object’s characteristics": "the characteristics of"
            noun = any(not re.match(r"\s*(?:To\s|\(Obsolete\))", d)      # a sense of the definition not a verb's
                       for d in re.split(r"(?:^|\n)\s*\d\.", own[0]) if d.strip())
            defined = frozenset(lemma(x, self.lang) for x in WORD.findall(own[0].lower()))
            after = [neighbour(t, ws, k + 1, k) for t in own for ws in [[(m.start(), m.end(), m.group())
                     for m in WORD.finditer(t)]] for k, (_, _, w) in enumerate(ws)
                     if w[:1].islower() and lemma(w, self.lang) == term.key[0] and not w.lower().endswith("ed")]
            pairs = [(w, n) for t in texts for ws in [WORD.findall(t.lower())] for w, n in zip(ws, [*ws[1:], ""])]
            verbal = "verb" in frames or any(     # a verb's own form, or a pronoun its object ("controls it")
                lemma(w, self.lang) == term.key[0] and (w not in forms or n in ("it", "them")) for w, n in pairs)
            transitive = len(after) >= MIN_USES and not set(after) & (PREPOSITIONS.get(self.lang, frozenset()) - {"to"})
            self._senses[key] = Sense(words, frozenset(frames), count, printed, frozenset(texts), noun, defined,
                                      transitive, verbal)
        return self._senses[key]

    def _form(self, text: str, words: list, i: int, term: Term) -> bool:
        if not term.name and self.lang in NAME_PARTS and NAME_PARTS[self.lang](text, words, i, self.types):
            return False        # a word of a name ("Magic Store & Event Locator")
        test = FORM_TESTS.get(self.lang)
        if test is None:
            return True
        return test(words[i][2], term, starts_sentence(text, words[i][0]), neighbour(text, words, i - 1, i) or "")


def _obsolete(title: str, lang: str, definition: str = "") -> bool:
    """Is the entry old card wording ("Totem Armor (Obsolete)"; "Placed: (Obsolete) Some spells and abilities
    previously referred to a counter being “placed” …")?  It links only from a quotation of it, as printed."""
    return lang in OBSOLETE and (re.search(rf"\(\s*{OBSOLETE[lang]}\s*\)", title) is not None or re.match(
        rf"\s*\(\s*{OBSOLETE[lang]}\s*\)", definition or "") is not None)


def _jargon(title: str, definition: str, lang: str) -> str | None:
    """The phrase a jargon entry explains (:data:`UNOFFICIAL`): the quotation of its definition that holds its headword
    ("als Antwort"), or None."""
    note = re.search(r"\(\s*(\w+)\s*\)", title)
    if note is None or note.group(1).lower() not in UNOFFICIAL.get(lang, ()):
        return None
    head = lemma(title.split("(")[0].strip(), lang)
    return next((q for m in _QUOTES.finditer(definition or "") for q in m.groups() if q and len(q.split()) > 1
                 and head in (lemma(w, lang) for w in WORD.findall(q))), None)


def _headwords(entries: list[tuple[str, str, str, str]], lang: str) -> list[tuple[str, str, str, str, str]]:
    """(title, words it links from, anchor, definition, defining edition) of each entry: its headword, and each
    headword of a title that names several ("Control, Controller"; "Life, Life Total") that no entry of its own
    defines ("Active Player, Nonactive Player Order" does not claim "Active Player")."""
    own = {t.split("(")[0].strip().lower() for t, *_ in entries}
    out = []
    for title, anchor, definition, source in entries:
        name = title.split("(")[0]
        out.append((title, _jargon(title, definition, lang) or name, anchor, definition, source))
        parts = [p.strip(" \"“”") for p in name.split(",")] if "," in name and not _obsolete(title, lang) else []
        out += [(title, p, anchor, definition, source) for p in parts if p and p.lower() not in own]
    return out


def _bases(word: str) -> tuple[str, ...]:
    """The base forms a word may inflect with a regular ending ("casting": "cast", "caste"; "drawing": "draw";
    "untapped": "untap"), for the words a lemmatiser reads as nouns or adjectives of their own."""
    stems = [word[:-len(e)] for e in ("ing", "ed", "s") if word.endswith(e) and len(word) > len(e) + 2]
    return tuple(b + r for b in stems for r in ("", "e")) + tuple(b[:-1] for b in stems if b[-1] == b[-2:-1])


def _gap(between: str) -> str:
    """The punctuation between two words, but for spaces and quotation marks: a term's words are read across a
    quotation mark ("“summoning sickness” rule") and across the punctuation its title prints, no other."""
    return re.sub(r"[\s“”„‘’\"«»]", "", between)


def _keeps_quotations(quotes: dict[int, tuple[int, int]], i: int, n: int) -> bool:
    """A quotation is one unit: a term of words ``i`` to ``i + n`` may hold whole quotations (Intervening “If”
    Clause) and be a whole quotation; only a term of several words may be part of one (“Am Ende des Zuges”-
    Fähigkeiten); a single word is part of a quotation in another sense ("becomes “locked in”")."""
    for j in range(i, i + n):
        a, b = quotes.get(j, (i, i + n))
        if not (i <= a and b <= i + n or n > 1 and a <= i and i + n <= b):
            return False
    return True


def _quotations(text: str, words: list[tuple[int, int, str]]) -> dict[int, tuple[int, int]]:
    """Word index -> (first, end) word indexes of the short quotation it is in."""
    out: dict[int, tuple[int, int]] = {}
    for m in _QUOTES.finditer(text):
        inside = [k for k, (s, e, _) in enumerate(words) if m.start() < s and e < m.end()]
        if inside and len(inside) <= MAX_TERM_WORDS:
            for k in inside:
                out[k] = (inside[0], inside[-1] + 1)
    return out


def _see_titles(definition: str, lang: str, edition: str, homes: dict) -> list[tuple[str, str]]:
    """The entries of ``edition`` that a definition refers to by "See …" ("Independent: See Dependency.")."""
    titles = {title.lower(): (ed, title) for ed, title in homes if ed == edition}
    opener = "|".join(re.escape(w) for w in SEE.get(lang, ()))
    names = [p.strip().strip("„“”\"").lower() for m in re.finditer(rf"\b(?:{opener})\s+([^.;:()\n]+)", definition)
             for p in re.split(r",|\band\b", m.group(1))] if opener else []
    return [titles[n] for n in names if n in titles]


def homes_of(conn, edition: str) -> dict[tuple[str, str], list[str]]:
    """(edition, title) -> the home of each glossary entry of ``edition``: its definition, then the title and text of
    every rule it cites and of their subrules (the references the build resolved)."""
    from . import read

    out = {(edition, t): [d] for t, _, d, _ in read.glossary_terms(conn, edition)}
    for title, text in conn.execute("""
            with recursive home(title, id) as (
              select i.title, f.target_rule_id from items i join refs f on f.from_item_id = i.id
               where i.edition_id = ? and i.kind = 'glossary' and f.target_rule_id is not null
              union select home.title, r.id from rules r join home on r.parent_id = home.id)
            select home.title, coalesce(r.title || ' ', '') || coalesce(r.text, '') from home join rules r
              on r.id = home.id order by r.seq""", (edition,)):
        if (edition, title) in out:
            out[(edition, title)].append(text)
    return out


def census(glossary: Glossary, texts: list[str]) -> Counter:
    """(term title, defining edition) -> how many of ``texts`` link to it."""
    return Counter((term.title, term.edition) for t in texts for _, _, term in glossary.spans(t))


#: language -> the words that open a reference to another entry, longest first ("See also", "Siehe auch")
SEE = {"en": ("See also", "See"), "de": ("Siehe auch", "Siehe"), "it": ("Vedi anche", "Vedi")}
#: a reference to a rule, not to an entry
_RULE_WORDS = re.compile(r"(?i)(rules?|regeln?|regola|regole|abschnitt|kapitel|section|chapter|capitolo)\b|\d")


def see_references(text: str, lang: str, glossary: Glossary) -> list[tuple[int, int, Term]]:
    """(start, end, entry) of each "See …" reference of a glossary entry to another entry ("See Typecycling.",
    "Siehe auch dauerhafte Effekte"): the title as printed, else the one term that is the whole phrase (lemmas)."""
    out: list[tuple[int, int, Term]] = []
    opener = "|".join(re.escape(w) for w in SEE.get(lang, ()))
    if not opener:
        return out
    titles = glossary.titles()
    for m in re.finditer(rf"\b(?:{opener})\s+([^.;:()\n]+)", text):
        if _RULE_WORDS.match(m.group(1).strip().strip("„“”\"")):
            continue
        whole = _entry(m.start(1), m.group(1), glossary, titles)
        parts = [_entry(m.start(1) + p.start(), p.group(), glossary, titles)
                 for p in re.finditer(r"[^,]+", m.group(1))] if whole is None else [whole]
        out.extend(p for p in parts if p is not None)
    return out


def _entry(offset: int, phrase: str, glossary: Glossary, titles: dict[str, Term]) -> tuple[int, int, Term] | None:
    """The entry a phrase names (its title, or one term that is the whole phrase), with the phrase's place."""
    core = phrase.strip().strip("„“”\"").strip()
    if not core:
        return None
    start = offset + phrase.index(core)
    term = titles.get(core.lower())
    if term is None:
        spans = glossary.spans(core)
        if len(spans) == 1 and spans[0][0] == 0 and spans[0][1] == len(core):
            term = spans[0][2]
    return (start, start + len(core), term) if term is not None else None


#: a translated term is learnt when its words and the term meet in at least this many aligned rule pairs, with at
#: least this Dice coefficient (2·both / (rules with the words + rules with the term)); two pairs, because a term of
#: several words is seldom printed more often in a chapter ("kopierbaren Eigenschaften": "Copiable Values", 613.1a and
#: 613.2c), and a translation links only where its original does (:attr:`Glossary.vouched`)
LEARN_MIN_PAIRS = 2
LEARN_MIN_DICE = 0.6


def learn_translations(pairs: list[tuple[str, str]], lang: str, original: Glossary) -> list[Term]:
    """The terms of ``original`` (another language's glossary) as they are printed in ``lang``, learnt from aligned
    rule pairs (text in ``lang``, text of the original): for each term, the one or two content words (lemmas) whose
    presence in a rule best matches the term's presence in its counterpart (Dice coefficient).  Each word or pair of
    words goes to the term it matches best."""
    stops = stop_words(lang)
    # abbreviations, a word whose period no new sentence follows ("gewirkt bzw. aktiviert"): function words
    abbreviations = {m.group(1).lower() for text, _ in pairs for m in re.finditer(r"\b([^\W\d_]+)\.\s+[^\W\d_A-ZÄÖÜ]",
                                                                                   text)}
    has_term: dict[Term, set[int]] = {}
    has_words: dict[tuple[str, ...], set[int]] = {}
    lowercase: Counter = Counter()
    for k, (text, other) in enumerate(pairs):
        for _, _, term in original.spans(other):
            has_term.setdefault(term, set()).add(k)
        words = [w for w in WORD.findall(text) if w.lower() not in stops | abbreviations and len(w) > 2]
        lemmas_ = [lemma(w, lang) for w in words]
        for w, lem in zip(words, lemmas_):
            lowercase[lem] += 1 if w[:1].islower() else -1
        for n in (1, 2):
            for j in range(len(lemmas_) - n + 1):
                has_words.setdefault(tuple(lemmas_[j:j + n]), set()).add(k)
    best: dict[tuple[str, ...], tuple[float, Term]] = {}
    for term, where in has_term.items():
        scored = [(2 * len(where & rules) / (len(where) + len(rules)), len(key), key)
                  for key, rules in has_words.items() if len(where & rules) >= LEARN_MIN_PAIRS]
        if not scored:
            continue
        dice, _, key = max(scored)
        if dice >= LEARN_MIN_DICE and dice > best.get(key, (0.0, term))[0]:
            best[key] = (dice, term)
    return [Term(t.title, t.anchor, t.edition, key, key, lowercase[key[0]] > 0, False, learnt=True, rank=-1)
            for key, (_, t) in best.items()]


def glossary_of(conn, edition: str, lang: str, prefix: str = "/") -> Glossary:
    """The glossary terms that link from the texts of ``edition``: its own glossary; else the glossary of the
    edition it translates, its terms found in this language by :func:`learn_translations` over the aligned rules,
    and the glossaries of the editions of its language aligned with it, their old terms found in its new wording
    through the terminology table (a 2024 text's "wirken" is the 1999 glossary's "Spielen")."""
    from .. import terminology
    from . import read

    sources = read.glossary_sources(conn, edition, lang)
    entries = [e for source in sources for e in read.glossary_terms(conn, source)]
    synonyms: dict[str, list[str]] = {}
    retired: set[str] = set()
    if sources and sources != [edition]:
        try:
            rows_ = terminology.load(lang=lang)
        except (OSError, ValueError):
            rows_ = []
        for t in rows_:
            if t.new and " " not in t.new.strip() and " " not in t.old.strip():
                synonyms.setdefault(lemma(t.new, lang), []).append(lemma(t.old, lang))
                retired.add(lemma(t.old, lang))
        # a word the table renames only beside another ("Zauberspruch spielen" -> "Zauberspruch wirken") keeps its
        # old sense elsewhere ("ein Land spielen"); one renamed alone is retired
        retired -= {lemma(w, lang) for t in rows_ if " " in t.old.strip() for w in t.old.split()}
    share = read.lemma_shares(conn, edition)
    homes = {k: v for source in sources for k, v in homes_of(conn, source).items()} if (
        lang in FRAME_TESTS or lang in COLLOCATE_TESTS) else {}
    g = Glossary.build(edition, lang, entries, prefix, share, {k: tuple(v) for k, v in synonyms.items()},
                       homes=homes)
    g.retired = frozenset(retired)
    if homes and lang in FRAME_TESTS:
        texts, bags = edition_texts(conn, edition, with_lemmas=True)
        printed = {w.lower() for t in texts for w in WORD.findall(t)}
        g.counted = frozenset(w[:-1] for w in printed if w.endswith("s") and w[:-1] in printed)
        verbs = {t.key[0] for c in g.by_first.values() for t in c if t.verb and len(t.key) == 1}
        g.texts = texts     # read by :meth:`Glossary.learn_usage` where a verb's object is first unnamed
        for j, bag in enumerate(bags):
            for k in verbs.intersection(bag.split()):
                g.printing.setdefault(k, []).append(j)
    original = read.original_of(conn, edition) if sources != [edition] else None
    if original is not None and read.glossary_terms(conn, original["id"]):
        theirs = Glossary.build(original["id"], original["language"], read.glossary_terms(conn, original["id"]),
                                every_term=True)
        pairs = read.aligned_texts(conn, edition, original["id"])
        g.add(learn_translations(pairs, lang, theirs), share)
        judge = glossary_of(conn, original["id"], original["language"], prefix)
        for text, other in pairs:       # the original's own judgement of its words: the entries its rule links
            g.vouched[text] = g.vouched.get(text, frozenset()) | judge.senses(other)
    return g


@overload
def edition_texts(conn, edition: str) -> list[str]: ...
@overload
def edition_texts(conn, edition: str, with_lemmas: Literal[True]) -> tuple[list[str], list[str]]: ...


def edition_texts(conn, edition: str, with_lemmas: bool = False):
    """The texts of an edition that rule pages print with glossary links: rules, examples and notes (and, with
    ``with_lemmas``, the lemmas each prints, as the build wrote them)."""
    found = conn.execute(
        "select text, coalesce(lemmas, '') from rules where edition_id = ? and text is not null union all "
        "select text, coalesce(lemmas, '') from items where edition_id = ? and kind in ('example', 'note') "
        "and text is not null", (edition, edition)).fetchall()
    texts = [r[0] for r in found]
    return (texts, [r[1] for r in found]) if with_lemmas else texts
