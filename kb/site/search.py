"""Search that understands the languages: the library behind the site's search box and ``kb search``.

* Every word of a query is lemmatised in the language of the editions searched, and matched both as
  printed and by lemma, so "Zauberspruch" finds "Zaubersprüche" and "Zaubersprüche" finds
  "Zauberspruch" (the FTS index holds each text's lemmas beside its words, see :mod:`kb.lemmas`).
* Widening: a word whose lemma is a term of the curated terminology table (``data/terminology.tsv``,
  :mod:`kb.terminology`) also searches the other side of the row in that language ("spielen" also
  finds "wirken"), and the result says so.
* A rule number jumps to the rule; a rule title typed exactly (a keyword: "Morph") lands on that rule.
* Glossary lookup is fuzzy (rapidfuzz), so a typo still finds the term; an empty result suggests
  near terms.
* Scope: by default the newest edition of each document (each family: the English Comprehensive Rules, the German
  ones, the Italian wiki, the Morph page, …), each hit naming the older editions of its family that print the same
  text ("same text in 47 editions, 2009-07-11 → 2024-08-02"); ``edition="all"`` searches every edition, the
  identical texts folded into one hit of the newest of them; or one edition.

:func:`index` reads what the lookups need once (editions, glossary terms, titles, terminology);
:func:`search` answers one query.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from ingest import numbers

from .. import lemmas, terminology
from ..align.pairs import EditionSpec
from . import read
from .urls import Urls

#: a query is cut to this many characters and words (the rest is ignored, and the result says so)
MAX_QUERY_CHARS = 200
MAX_QUERY_WORDS = 12
#: item kinds that are search results (tables of contents and boilerplate are not)
#: the last page of results a search serves (pages of ``limit`` results; bounds the work of one request)
MAX_PAGE = 20
ITEM_KINDS = ("example", "note", "faq", "glossary", "index", "paragraph", "step", "heading")
_WORD = re.compile(r"[^\W_]+(?:[.'’][^\W_]+)*", re.UNICODE)
_LETTERS = re.compile(r"[^\W\d_]{2,}")
#: the ``edition`` that searches every edition (else: one edition; none: the newest edition of each family)
ALL = "all"


@dataclass
class Index:
    """What the lookups read once: editions, glossary terms, rule titles and the terminology table."""

    editions: list[dict]
    glossary: list[dict]           # edition, title, anchor, language
    titles: list[dict]             # edition, norm, title, level, language, date
    terms: dict[str, list[terminology.Term]]

    @property
    def languages(self) -> list[str]:
        return sorted({e["language"] for e in self.editions})

    def language_of(self, edition: str) -> str | None:
        return next((e["language"] for e in self.editions if e["id"] == edition), None)

    @property
    def families(self) -> dict[str, list[str]]:
        """The editions of each family (:attr:`kb.align.pairs.EditionSpec.family_key`), the newest first."""
        out: dict[str, list[str]] = {}
        for e in self.editions:   # (newest first)
            key = EditionSpec(e["id"], e["language"], str(e["date"] or ""), e.get("kind") or "cr",
                              e.get("family") or "").family_key
            out.setdefault(key, []).append(e["id"])
        return out

    @property
    def newest(self) -> list[str]:
        """The newest edition of each family: what a search without an edition reads."""
        return [eds[0] for eds in self.families.values()]


def index(conn, terms_path=terminology.TERMINOLOGY) -> Index:
    cols = {r[1] for r in conn.execute("pragma table_info(editions)")}
    extra = "".join(f", {c}" for c in ("kind", "family") if c in cols)
    eds = read.rows(conn, f"select id, language, date, title{extra} from editions order by date desc, id")
    langs = {e["id"]: e["language"] for e in eds}
    gloss = read.rows(conn, "select edition_id edition, title, kind from items where kind = 'glossary' "
                            "and title is not null order by edition_id, seq")
    for g in gloss:
        g["anchor"] = read.anchor(g["title"])
        g["language"] = langs.get(g["edition"])
    # a rule's title, or the whole text of a rule that is only a name ("702.33. Kicker" in the official text)
    titles = read.rows(conn, "select r.edition_id edition, r.norm, coalesce(nullif(r.title, ''), r.text) title, "
                             "r.level, e.language, e.date from rules r join editions e on e.id = r.edition_id "
                             "where (r.title is not null and r.title != '') or (r.level = 'rule' and "
                             "length(r.text) between 1 and 40 and r.text not like '%.%' and r.text not like '% % % %') "
                             "order by e.date desc, r.edition_id, r.seq")
    return Index(eds, gloss, titles, {lang: terminology.load(terms_path, lang) for lang in set(langs.values())})


@dataclass
class Hit:
    kind: str                      # "rule" or the item kind
    edition: str
    language: str
    number: str | None
    title: str | None
    snippet: Markup
    url: str
    score: float
    #: the editions that print this same text (newest first), when several do: the hit names the newest
    editions: list[str] = field(default_factory=list)
    #: the first and the last of their dates
    span: tuple[str, str] | None = None
    #: what makes a text the same in another edition: its rule's number (an item: its owner's) and its words
    key: tuple[str | None, str] = field(default=(None, ""), repr=False, compare=False)


_NOT_WORD = re.compile(r"[^\w]+")
#: rows read per language before identical texts are folded (an archive prints most texts in dozens of editions),
#: per result shown, and at most (each row makes a snippet)
FOLD_READ = 20
FOLD_READ_MAX = 4_000


def _words(text: str | None) -> str:
    """A text's words, lower-cased (quotes, apostrophes and other typography aside)."""
    return " ".join(_NOT_WORD.sub(" ", (text or "").lower()).split())


def same_text(conn, idx: Index, hits: list[Hit]) -> None:
    """Name on each hit the editions of its family that print the same text (same kind, number or owner's number,
    title and words; the hit's own edition first, then older ones) and the span of their dates, when several do.
    An item of no rule (a glossary entry) is the item of that kind and title; the entries of a page are read at
    once."""
    family_of = {e: eds for eds in idx.families.values() for e in eds}
    dates = {e["id"]: str(e["date"] or "") for e in idx.editions}
    titled: dict[tuple[str, tuple[str, ...]], list[Hit]] = {}
    found: dict[int, list[tuple]] = {}
    for n, h in enumerate(hits):
        eds = family_of.get(h.edition, [])
        norm = h.key[0]
        if len(eds) < 2:
            continue
        marks = ", ".join("?" for _ in eds)
        if h.kind == "rule" and norm:
            found[n] = conn.execute(f"select edition_id, title, text from rules where edition_id in ({marks}) "
                                    f"and norm = ?", [*eds, norm]).fetchall()
        elif norm:   # an item of a rule: the items of that kind of the rules of that number
            found[n] = conn.execute(f"""select i.edition_id, i.title, i.text from rules o
                                        join items i on i.rule_id = o.id
                                        where o.edition_id in ({marks}) and o.norm = ? and i.kind = ?""",
                                    [*eds, norm, h.kind]).fetchall()
        elif h.title:
            titled.setdefault((h.kind, tuple(eds)), []).append(h)
    for (kind, family), group in titled.items():
        marks = ", ".join("?" for _ in family)
        titles = sorted({h.title for h in group if h.title})
        rows = conn.execute(f"""select edition_id, title, text from items where edition_id in ({marks}) and kind = ?
                                and title in ({', '.join('?' for _ in titles)})""", [*family, kind, *titles]).fetchall()
        for h in group:
            found[hits.index(h)] = rows
    for n, rows in found.items():
        h = hits[n]
        title, words = (h.title or "").lower(), h.key[1]
        same = sorted({ed for ed, t, text in rows if (t or "").lower() == title and _words(text) == words},
                      key=lambda e: (dates.get(e, ""), e), reverse=True)
        if len(same) > 1:
            h.editions = same
            h.span = (dates.get(same[-1], ""), dates.get(same[0], ""))


def fold_identical(hits: list[Hit], dates: dict[str, str]) -> list[Hit]:
    """Hits of one text printed in several editions (same kind, language, number, title and words: quotes and
    apostrophes aside) as one hit of the newest of them, at the best score of the group, naming how many print it
    and from when to when ("same words in 47 editions, 2009-07-11 → 2024-08-02")."""
    groups: dict[tuple, list[Hit]] = {}
    for h in hits:
        words = _words(h.snippet.striptags())
        groups.setdefault((h.kind, h.language, (h.number or "").rstrip("."), (h.title or "").lower(), words),
                          []).append(h)
    out = []
    for same in groups.values():
        same.sort(key=lambda h: (dates.get(h.edition, ""), h.edition), reverse=True)
        first = same[0]
        if len(same) > 1:
            first.editions = [h.edition for h in same]
            first.span = (dates.get(same[-1].edition, ""), dates.get(first.edition, ""))
            first.score = min(h.score for h in same)
        out.append(first)
    out.sort(key=lambda h: h.score)
    return out


@dataclass
class Result:
    query: str
    lang: str | None = None
    edition: str | None = None
    jump: str | None = None        # a URL to go to instead of a result list (rule number, keyword)
    hits: list[Hit] = field(default_factory=list)
    widened: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    suggestions: list[dict] = field(default_factory=list)
    glossary: list[dict] = field(default_factory=list)
    keywords: list[dict] = field(default_factory=list)
    languages: list[str] = field(default_factory=list)
    page: int = 1
    first: int = 0                 # the rank of the first hit shown, from 0
    total: int = 0                 # every rule and text that matches (all pages)
    more: bool = False             # a next page exists
    searched: list[str] = field(default_factory=list)   # the editions searched (none named: every edition)

    def as_json(self) -> dict:
        return {"query": self.query, "lang": self.lang, "edition": self.edition, "jump": self.jump,
                "page": self.page, "total": self.total, "first": self.first + 1 if self.hits else 0,
                "last": self.first + len(self.hits), "more": self.more,
                "widened": self.widened, "notes": self.notes, "suggestions": self.suggestions,
                "glossary": self.glossary, "keywords": self.keywords, "languages": self.languages,
                "searched": self.searched,
                "hits": [{"kind": h.kind, "edition": h.edition, "language": h.language, "number": h.number,
                          "title": h.title, "snippet": str(h.snippet), "url": h.url, "score": h.score,
                          "editions": h.editions, "span": list(h.span) if h.span else None}
                         for h in self.hits]}


def query_words(q: str) -> list[str]:
    return _WORD.findall(q[:MAX_QUERY_CHARS])[:MAX_QUERY_WORDS]


def _lemma(word: str, lang: str) -> str:
    return lemmas.lemma(word, lang) if lang in lemmas.SUPPORTED else word.lower()


def widenings(word: str, lang: str, terms: list[terminology.Term]) -> list[tuple[str, terminology.Term]]:
    """(other term, row) for each one-word terminology row of ``lang`` whose old or new term is ``word``'s lemma."""
    lem = _lemma(word, lang)
    out = []
    for t in terms:
        if not t.old or not t.new or " " in t.old or " " in t.new:
            continue
        old, new = _lemma(t.old, lang), _lemma(t.new, lang)
        if old == lem and new != lem:
            out.append((t.new, t))
        elif new == lem and old != lem:
            out.append((t.old, t))
    return list({_lemma(o, lang): (o, t) for o, t in out}.values())


def _quote(s: str) -> str:
    return '"' + s.replace('"', "") + '"'


def fts_query(words: list[str], lang: str, extra: dict[str, list[str]]) -> str:
    """FTS5 query: every word as printed or by lemma (or by a widened lemma), all words required."""
    parts = []
    for w in words:
        alts = [_quote(w.lower()), "lemmas : " + _quote(_lemma(w, lang))]
        alts += ["lemmas : " + _quote(_lemma(x, lang)) for x in extra.get(w, [])]
        parts.append("(" + " OR ".join(dict.fromkeys(alts)) + ")")
    return " AND ".join(parts)


def snippet(text: str, marks: set[str], lang: str, width: int = 32) -> Markup:
    """About ``width`` words of ``text`` around the first word whose lemma (or lower-cased form) is in
    ``marks``, the matching words in ``<mark>``; escaped."""
    words = list(_LETTERS.finditer(text))
    hit = [m for m in words if m.group().lower() in marks or _lemma(m.group(), lang) in marks]
    if not words:
        return escape(text[:200])
    first = words.index(hit[0]) if hit else 0
    lo = max(0, first - width // 3)
    hi = min(len(words), lo + width)
    start = 0 if lo == 0 else words[lo].start()
    end = len(text) if hi == len(words) else words[hi - 1].end()
    out: list[Markup] = [Markup("… ")] if start else []
    pos = start
    for m in hit:
        if start <= m.start() and m.end() <= end:
            out.append(escape(text[pos:m.start()]))
            out.append(Markup("<mark>{}</mark>").format(m.group()))
            pos = m.end()
    out.append(escape(text[pos:end]))
    if end < len(text):
        out.append(Markup(" …"))
    return Markup("").join(out)


def _jump(conn, idx: Index, q: str, editions: list[str] | None, lang: str | None, urls: Urls) -> str | None:
    """The URL of a rule number typed as a query (in the one edition searched, else the newest that has it), or of
    the rule of the editions searched (None: any) whose title is the query (a keyword), the newest first."""
    text = q.strip()
    for prefix in ("rule ", "regel ", "regola "):
        if text.lower().startswith(prefix):
            text = text[len(prefix):].strip()
    if numbers.is_number(numbers.normalize(text)):
        found = read.lookup_edition(conn, text, editions[0] if editions and len(editions) == 1 else None)
        return urls.rule(*found) if found else None
    rules = [t for t in idx.titles if t["level"] == "rule" and t["title"].lower() == text.lower()
             and (editions is None or t["edition"] in editions)]
    rules.sort(key=lambda t: t["language"] != lang)   # (stable: the newest edition first)
    return urls.rule(rules[0]["edition"], rules[0]["norm"]) if rules else None


def glossary_lookup(idx: Index, q: str, edition: str | None = None, limit: int = 5, cutoff: float = 80) -> list[dict]:
    """Glossary entries whose term is ``q`` or close to it (typos included), best first: of ``edition``, else of
    every edition, each term of a language once, in the newest edition that has it."""
    from rapidfuzz import fuzz, process

    if edition is not None:
        entries = [g for g in idx.glossary if g["edition"] == edition]
    else:
        rank = {e["id"]: n for n, e in enumerate(idx.editions)}   # (newest first)
        newest: dict[tuple, dict] = {}
        for g in sorted(idx.glossary, key=lambda g: rank.get(g["edition"], len(rank))):
            newest.setdefault((g["language"], g["title"].lower()), g)
        entries = list(newest.values())
    if not entries or not q.strip():
        return []
    found = process.extract(q.lower(), [g["title"].lower() for g in entries], scorer=fuzz.ratio,
                            limit=limit, score_cutoff=cutoff)
    return [{**entries[i], "score": round(score, 1)} for _, score, i in found]


def suggestions(idx: Index, q: str, limit: int = 6) -> list[dict]:
    """Terms near ``q`` among glossary terms, rule titles and the terminology table."""
    from rapidfuzz import fuzz, process

    vocab: dict[str, dict] = {}
    for g in idx.glossary:
        vocab.setdefault(g["title"].lower(), {"term": g["title"], "edition": g["edition"]})
    for t in idx.titles:
        vocab.setdefault(t["title"].lower(), {"term": t["title"], "edition": t["edition"]})
    for lang, terms in idx.terms.items():
        for term in terms:
            for w in (term.old, term.new):
                if w:
                    vocab.setdefault(w.lower(), {"term": w, "edition": None, "language": lang})
    keys = list(vocab)
    found = process.extract(q.lower(), keys, scorer=fuzz.WRatio, limit=limit, score_cutoff=70)
    return [vocab[keys[i]] for _, _, i in found]


def _scope(idx: Index, lang: str | None, edition: str | None, res: Result) -> tuple[list[str], list[str] | None]:
    """The languages to search and the editions (None: every edition of them), with a note for an unknown language
    or edition.  Without an edition: the newest edition of each family."""
    if edition and edition != ALL and idx.language_of(edition) is None:
        res.notes.append(f"unknown edition {edition!r}: searched the newest edition of each document "
                         f"(editions: {', '.join(e['id'] for e in idx.editions)})")
        res.edition = edition = None
    if edition and edition != ALL:
        return [idx.language_of(edition) or ""], [edition]
    if lang and lang not in idx.languages:
        res.notes.append(f"unknown language {lang!r}: the editions are in {', '.join(idx.languages)}; "
                         "searched all of them")
        res.lang = lang = None
    langs = [lang] if lang else idx.languages
    if edition == ALL:
        return langs, None
    return langs, [e for e in idx.newest if idx.language_of(e) in langs]


def search(conn, idx: Index, q: str, lang: str | None = None, edition: str | None = None, widen: bool = True,
           limit: int = 50, urls: Urls | None = None, page: int = 1) -> Result:
    """Answer one query (see the module docstring): the ``page``-th ``limit`` best results, and how many match."""
    urls = urls or Urls()
    res = Result(query=q, lang=lang or None, edition=edition or None, languages=idx.languages)
    res.page = min(max(page, 1), MAX_PAGE)
    if res.page != page:
        res.notes.append(f"pages run from 1 to {MAX_PAGE}; showing page {res.page}")
    res.first = (res.page - 1) * limit
    if len(q) > MAX_QUERY_CHARS:
        res.notes.append(f"the query was cut to its first {MAX_QUERY_CHARS} characters")
    q = q[:MAX_QUERY_CHARS].strip()
    if not q:
        return res
    langs, editions = _scope(idx, res.lang, res.edition, res)
    res.searched = editions or []
    res.jump = _jump(conn, idx, q, editions, res.lang, urls)
    if res.jump:
        return res
    words = query_words(q)
    res.glossary = glossary_lookup(idx, q, res.edition if res.edition != ALL else None)
    res.keywords = [t for t in idx.titles if t["title"].lower() == q.lower()][:10]
    if not words:
        res.notes.append("the query has no words to search for")
        return res
    hits: list[Hit] = []
    for lg in langs:
        extra: dict[str, list[str]] = {}
        if widen:
            for w in words:
                for other, t in widenings(w, lg, idx.terms.get(lg, [])):
                    extra.setdefault(w, []).append(other)
                    res.widened.append({"word": w, "also": other, "language": lg, "old": t.old, "new": t.new,
                                        "note": t.note})
        marks = {w.lower() for w in words} | {_lemma(w, lg) for w in words} | {
            _lemma(x, lg) for xs in extra.values() for x in xs}
        match = fts_query(words, lg, extra)
        read_rows = res.first + limit + 1
        hits.extend(_hits(conn, match, lg, editions, marks,
                          read_rows if editions else min(read_rows * FOLD_READ, FOLD_READ_MAX), urls))
        res.total += _count(conn, match, lg, editions)
    dates = {e["id"]: str(e["date"] or "") for e in idx.editions}
    if editions is None:
        hits = fold_identical(hits, dates)
    else:
        hits.sort(key=lambda h: h.score)
    res.hits = hits[res.first:res.first + limit]
    res.more = len(hits) > res.first + limit
    if editions is not None and res.edition is None:
        same_text(conn, idx, res.hits)
    if not res.hits and res.total:
        res.notes.append(f"page {res.page} is past the last result ({res.total} in all)")
    elif not res.hits:
        where = (f"edition {res.edition}" if res.edition and res.edition != ALL else
                 ("language " + res.lang if res.lang else "any edition"))
        res.notes.append(f"no rule or text in {where} matches {q!r}")
        res.suggestions = suggestions(idx, q)
    return res


def _where(match: str, lang: str, editions: list[str] | None) -> tuple[str, list]:
    """The condition on the rows of ``lang`` (and of ``editions``, unless None) and its parameters."""
    cond, params = "and r.language = ?", [match, lang]
    if editions is not None:
        cond += f" and r.edition_id in ({', '.join('?' for _ in editions)})"
        params += editions
    return cond, params


def _count(conn, match: str, lang: str, editions: list[str] | None) -> int:
    """How many rules and texts of ``lang`` (and of ``editions``) match."""
    cond, params = _where(match, lang, editions)
    kinds = ",".join(f"'{k}'" for k in ITEM_KINDS)
    n = conn.execute(f"select count(*) from rules_fts join rules r on r.rowid = rules_fts.rowid "
                     f"where rules_fts match ? {cond}", params).fetchone()[0]
    return n + conn.execute(f"select count(*) from items_fts join items r on r.rowid = items_fts.rowid "
                            f"where items_fts match ? {cond} and r.kind in ({kinds})", params).fetchone()[0]


def _hits(conn, match: str, lang: str, editions: list[str] | None, marks: set[str], limit: int,
          urls: Urls) -> list[Hit]:
    cond, params = _where(match, lang, editions)
    out = []
    for r in read.rows(conn, f"""select r.edition_id, r.number, r.norm, r.title, r.text, bm25(rules_fts) score
            from rules_fts join rules r on r.rowid = rules_fts.rowid
            where rules_fts match ? {cond} order by score limit {int(limit)}""", params):
        out.append(Hit("rule", r["edition_id"], lang, r["number"], r["title"],
                       snippet(r["text"] or r["title"] or "", marks, lang), urls.rule(r["edition_id"], r["norm"]),
                       r["score"], key=(r["norm"], _words(r["text"]))))
    kinds = ",".join(f"'{k}'" for k in ITEM_KINDS)
    for i in read.rows(conn, f"""select r.id, r.kind, r.edition_id, r.title, r.text, o.norm owner,
                o.number owner_number, bm25(items_fts) score
            from items_fts join items r on r.rowid = items_fts.rowid left join rules o on o.id = r.rule_id
            where items_fts match ? {cond} and r.kind in ({kinds}) order by score limit {int(limit)}""", params):
        if i["kind"] == "glossary" and i["title"]:
            url = urls.glossary(i["edition_id"], read.anchor(i["title"]))
        elif i["owner"]:
            url = urls.rule(i["edition_id"], i["owner"])
        else:
            url = urls.row("items", i["id"])
        out.append(Hit(i["kind"], i["edition_id"], lang, i["owner_number"], i["title"],
                       snippet(i["text"] or i["title"] or "", marks, lang), url, i["score"],
                       key=(i["owner"], _words(i["text"]))))
    return out
