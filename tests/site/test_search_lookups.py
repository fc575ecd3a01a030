"""The lookups around a search and what it says about a query: a rule number after "rule", "Regel" or "regola"
jumps where the number alone jumps; titles typed exactly are offered as keywords; glossary terms are found despite
a typo, in the edition searched; a word is widened through a one-word row of the terminology table either way; and
every note a query can earn, word for word.

The seed KB (``kb_db``) and its terminology table (data/terminology.tsv)."""
from __future__ import annotations

import pytest

from kb.query import connect
from kb.site import search as S


@pytest.fixture(scope="module")
def kb(kb_db):
    conn = connect(kb_db)
    return conn, S.index(conn)


@pytest.mark.parametrize("typed", ["Rule 601.2f", "RULE 601.2F", "regel 601.2f", "Regola  601.2f"])
def test_a_rule_number_after_the_word_rule_jumps_where_the_number_does(kb, typed):
    conn, idx = kb
    plain = S.search(conn, idx, "601.2f").jump
    assert plain and plain.endswith("/601.2f")
    assert S.search(conn, idx, typed).jump == plain
    assert S.search(conn, idx, typed.replace("601.2", "601.2c")[:-1], edition="it-wiki").jump == "/rule/it-wiki/601.2c"


def test_a_number_no_edition_has_is_searched_as_words(kb):
    conn, idx = kb
    res = S.search(conn, idx, "Regel 999.9", lang="de")
    assert res.jump is None and res.hits == []
    assert res.notes == ["no rule or text in language de matches 'Regel 999.9'"]


def test_titles_typed_exactly_are_offered_as_keywords(kb):
    conn, idx = kb
    for typed in ("Zaubersprüche", "zaubersprüche"):
        res = S.search(conn, idx, typed, lang="de", limit=1)
        assert res.jump is None
        # two sections of de-1999 carry the title (213 and 401); a section is offered, not jumped to
        assert [(k["edition"], k["norm"], k["title"], k["level"]) for k in res.keywords] == [
            ("de-1999", "213", "Zaubersprüche", "section"), ("de-1999", "401", "Zaubersprüche", "section")]
    assert S.search(conn, idx, "Zaubersprüch", lang="de", limit=1).keywords == []


def test_glossary_terms_despite_a_typo_in_the_edition_searched(kb):
    conn, idx = kb
    (found,) = S.glossary_lookup(idx, "Abwerfn")
    assert (found["edition"], found["title"], found["anchor"], found["language"], found["score"]) == (
        "de-1999", "Abwerfen", "t-abwerfen", "de", 93.3)
    assert [g["score"] for g in S.glossary_lookup(idx, "abwerfen", edition="de-1999")] == [100.0]
    assert S.glossary_lookup(idx, "Abwerfen", edition="de-2024") == []      # de-2024 prints no glossary
    assert S.glossary_lookup(idx, "Abw") == [] and S.glossary_lookup(idx, "  ") == []
    # each term of a language once (in the newest edition that has it), best first, down to a score of 80
    # (inclusive: "Creature" is 80 from "Kreatur"), at most five
    wide = S.glossary_lookup(idx, "Blocking Creature", limit=50)
    assert [(g["title"], g["edition"]) for g in wide] == [
        ("Blocking Creature", "en-2024-11-08"), ("Blocked Creature", "en-2024-11-08"),
        ("Attacking Creature", "en-2024-11-08"), ("Unblocked Creature", "en-2024-11-08")]
    assert len(S.glossary_lookup(idx, "Blocking Creature", limit=50, cutoff=50)) > 5
    assert len(S.glossary_lookup(idx, "Blocking Creature", cutoff=50)) == 5
    assert [(g["title"], g["score"]) for g in S.glossary_lookup(idx, "Kreatur")] == [
        ("Kreatur", 100.0), ("Creature", 80.0)]
    near = S.glossary_lookup(idx, "Zauber", limit=3, cutoff=50)
    assert len(near) == 3 and [g["score"] for g in near] == sorted((g["score"] for g in near), reverse=True)
    assert all(g["score"] >= 50 for g in near) and len(S.glossary_lookup(idx, "Zauber", limit=9, cutoff=50)) == 9
    assert [g["title"] for g in S.search(conn, idx, "Abwerfn").glossary] == ["Abwerfen"]
    assert S.search(conn, idx, "Abwerfen", edition="de-2024").glossary == []


def test_a_word_is_widened_through_the_terminology_table_either_way(kb):
    _, idx = kb
    terms = idx.terms["de"]
    assert [(other, t.old, t.new) for other, t in S.widenings("spielen", "de", terms)] == [
        ("wirken", "spielen", "wirken")]
    # the newer word, in another form: its lemma finds the rows of the verb and of the noun
    assert [(other, t.old, t.new) for other, t in S.widenings("gewirkt", "de", terms)] == [
        ("spielen", "spielen", "wirken"), ("Ausspielen", "Ausspielen", "Wirken")]
    assert S.widenings("Schmurgel", "de", terms) == []
    # rows whose terms are inflected: each side by its lemma
    assert [(other, t.old) for other, t in S.widenings("Charakteristik", "de", terms)] == [
        ("Eigenschaften", "Charakteristiken")]
    assert [(other, t.new) for other, t in S.widenings("Eigenschaft", "de", terms)] == [
        ("Charakteristiken", "Eigenschaften")]
    # a term whose concept is gone (no newer term: "Pseudospruch") widens to nothing
    assert any(t.old == "Pseudospruch" and not t.new for t in terms)
    assert S.widenings("Pseudospruch", "de", terms) == []
    # rows of several words are not widened word by word
    phrases = [t for t in terms if " " in t.old or " " in t.new]
    assert phrases
    for t in phrases:
        for word in (t.old.split() + t.new.split()):
            assert all(" " not in w.old and " " not in w.new for _, w in S.widenings(word, "de", terms))


def test_every_word_is_required_as_printed_or_by_lemma():
    assert S.fts_query(["Zaubersprüche"], "de", {}) == '("zaubersprüche" OR lemmas : "zauberspruch")'
    assert S.fts_query(["Zaubersprüche", "spielen"], "de", {"spielen": ["wirken", "gewirkt"]}) == (
        '("zaubersprüche" OR lemmas : "zauberspruch") AND ("spielen" OR lemmas : "spielen" OR lemmas : "wirken")')
    assert S.fts_query(['say"s'], "xx", {}) == '("says" OR lemmas : "says")'      # (a quote cannot end a term)


def test_what_a_query_is_told(kb):
    conn, idx = kb
    assert S.search(conn, idx, "?! …", lang="de").notes == ["the query has no words to search for"]
    blank = S.search(conn, idx, "   ")
    assert (blank.notes, blank.hits, blank.jump, blank.glossary) == ([], [], None, [])
    long = S.search(conn, idx, "Zauberspruch " * 20, lang="de", limit=1)
    assert long.notes[0] == f"the query was cut to its first {S.MAX_QUERY_CHARS} characters" and long.hits
    assert S.search(conn, idx, "Zauberspruch " * 15, lang="de", limit=1).notes == []     # (195 characters)
    assert S.search(conn, idx, "Schmurgel", edition="de-2024").notes == [
        "no rule or text in edition de-2024 matches 'Schmurgel'"]
    assert S.search(conn, idx, "Schmurgel").notes == ["no rule or text in any edition matches 'Schmurgel'"]
    other = S.search(conn, idx, "magia", lang="xx")
    assert other.notes[0] == ("unknown language 'xx': the editions are in de, en, it; searched all of them")
    assert other.lang is None and other.hits
    unknown = S.search(conn, idx, "magia", edition="xx-1")
    ids = ", ".join(e["id"] for e in idx.editions)
    assert unknown.notes[0] == f"unknown edition 'xx-1': searched the newest edition of each document (editions: {ids})"
    assert unknown.edition is None and {h.edition for h in unknown.hits} == {"it-wiki"}


def test_near_terms_come_from_rule_titles_too(kb):
    _, idx = kb
    # section titles of the 2024 editions, which no glossary prints
    assert {"term": "Casting Spells", "edition": "en-2024-11-08"} in S.suggestions(idx, "Castng Speels")
    assert {"term": "Zaubersprüche wirken", "edition": "de-2024"} in S.suggestions(idx, "Zauberspruch wirkn")
    assert not any(g["title"].lower() == "casting spells" for g in idx.glossary)


def test_the_index_a_search_reads(kb_db):
    """What :func:`kb.site.search.index` reads once, asked for here itself (the fixture's index is made before the
    other tests run): the editions newest first, each glossary term with its anchor and language, the titles
    of sections and rules (and the rules whose whole text is a name, "702.33. Kicker"), the terminology of each
    language."""
    conn = connect(kb_db)
    idx = S.index(conn)
    dates = [str(e["date"]) for e in idx.editions]
    assert [e["id"] for e in idx.editions][:2] == ["de-2024", "en-2024-11-08"] and idx.editions[-1]["id"] == "de-1999"
    assert all(e["language"] in ("de", "en", "it") for e in idx.editions) and dates[0] == "2024-11-08"
    assert (idx.language_of("it-wiki"), idx.language_of("xx-1")) == ("it", None)
    assert {"edition": "de-1999", "title": "Abwerfen", "kind": "glossary", "anchor": "t-abwerfen",
            "language": "de"} in idx.glossary
    assert all(g["title"] and g["anchor"].startswith("t-") and g["language"] for g in idx.glossary)
    assert {"edition": "en-2024-11-08", "norm": "702.33", "title": "Kicker", "level": "rule", "language": "en",
            "date": "2024-11-08"} in idx.titles
    assert {"edition": "en-2024-11-08", "norm": "601", "title": "Casting Spells", "level": "section",
            "language": "en", "date": "2024-11-08"} in idx.titles
    # a rule whose text is a sentence has no title
    assert not any(t["edition"] == "en-2024-11-08" and t["norm"] in ("601.2c", "702.33a") for t in idx.titles)
    assert sorted(idx.terms) == ["de", "en", "it"] and idx.terms["de"] and idx.terms["en"]
    assert idx.languages == ["de", "en", "it"]


def test_an_edition_in_a_family_of_its_own_is_searched_as_the_newest_of_it(kb_db, tmp_path):
    """The manifest's ``family`` puts an edition in a chain of its own (editions table, column family): a search
    without an edition then reads it too, as the newest (and only) edition of that family."""
    import shutil
    import sqlite3

    path = tmp_path / "kb.db"
    shutil.copy(kb_db, path)
    assert "en-1999-04-23" not in S.index(connect(path)).newest
    with sqlite3.connect(path) as writer:
        writer.execute("update editions set family = 'en-1999-rules' where id = 'en-1999-04-23'")
    conn = connect(path)
    idx = S.index(conn)
    assert "en-1999-04-23" in idx.newest and "en-2024-11-08" in idx.newest
    res = S.search(conn, idx, "Forestwalk")
    assert "en-1999-04-23" in res.searched
    assert {(h.edition, tuple(h.editions)) for h in res.hits if h.kind == "glossary"} == {
        ("en-2024-11-08", ()), ("en-1999-04-23", ())}


def test_near_terms_are_those_at_least_70_percent_alike(kb):
    """A near term is offered when rapidfuzz's WRatio rates it at least 70 of 100 against the query, six at most:
    for the typo "forestwlk", "Forestwalk" and the terms just at the edge ("Foretell", 70.6) alike."""
    from rapidfuzz import fuzz

    _, idx = kb
    offered = S.suggestions(idx, "forestwlk")
    scores = [fuzz.WRatio("forestwlk", s["term"].lower()) for s in offered]
    assert len(offered) == 6 and all(score >= 70 for score in scores) and min(scores) < 71
    assert offered[0]["term"].lower() == "forestwalk"


def test_the_same_text_in_three_editions_is_named_newest_first_by_date(kb_db, tmp_path):
    """A third English edition (hand-made in a copy of the seed KB: named "en-cr-2015", which sorts after
    "en-2024-11-08" but is older) that prints "Forestwalk: See Landwalk." too: the hit of the newest edition names
    all three by date, and its span runs from the oldest to the newest; a glossary term whose words changed
    ("Active Player") names no other edition."""
    import shutil
    import sqlite3

    path = tmp_path / "kb.db"
    shutil.copy(kb_db, path)
    with sqlite3.connect(path) as writer:
        writer.execute("insert into editions (id, document_id, language, date, kind, title) "
                       "values ('en-cr-2015', 'en-cr-2015', 'en', '2015-01-23', 'cr', 'hand-made')")
        writer.execute("insert into items (edition_id, language, document_id, kind, title, text, text_norm, seq) "
                       "select 'en-cr-2015', language, 'en-cr-2015', kind, title, text, text_norm, seq from items "
                       "where edition_id = 'en-1999-04-23' and kind = 'glossary' and title = 'Forestwalk'")
        # and the landwalk rule 702.14d of 2024 with its example, word for word
        for table, where in (("rules", "edition_id = 'en-2024-11-08' and norm = '702.14d'"),
                             ("items", "rule_id = (select id from rules where edition_id = 'en-2024-11-08' and "
                                       "norm = '702.14d') and kind = 'example'")):
            cols = [r[1] for r in writer.execute(f"pragma table_info({table})") if r[1] != "id"]
            made = {"edition_id": "'en-cr-2015'", "document_id": "'en-cr-2015'", "key": "'en-cr-2015/702.14d'",
                    "rule_id": "(select id from rules where edition_id = 'en-cr-2015' and norm = '702.14d')"}
            writer.execute(f"insert into {table} ({', '.join(cols)}) select {', '.join(made.get(c, c) for c in cols)} "
                           f"from {table} where {where}")
    conn = connect(path)
    idx = S.index(conn)
    (hit,) = [h for h in S.search(conn, idx, "Forestwalk").hits if h.kind == "glossary"]
    assert (hit.edition, hit.editions, hit.span) == (
        "en-2024-11-08", ["en-2024-11-08", "en-cr-2015", "en-1999-04-23"], ("1999-04-23", "2024-11-08"))
    landwalk = {h.kind: (h.edition, h.number, h.editions) for h in S.search(conn, idx, "Landwalk cancel").hits}
    assert landwalk["rule"] == ("en-2024-11-08", "702.14d", ["en-2024-11-08", "en-cr-2015"])
    example = [h for h in S.search(conn, idx, "snow Forest block").hits if h.kind == "example"]
    assert [(h.edition, h.number, h.editions) for h in example] == [
        ("en-2024-11-08", "702.14d", ["en-2024-11-08", "en-cr-2015"])]
    active = [h for h in S.search(conn, idx, "Active Player").hits if h.title == "Active Player"]
    assert [(h.edition, h.editions) for h in active] == [("en-2024-11-08", [])]
    assert conn.execute("select count(*) from items where kind = 'glossary' and title = 'Active Player' "
                        "and edition_id = 'en-1999-04-23'").fetchone()[0] == 1     # (1999 has it, in other words)
    # the 1999 edition put in a family of its own: its hit, first, names no other edition, and the next hit still
    # names its family's
    with sqlite3.connect(path) as writer:
        writer.execute("update editions set family = 'en-1999-rules' where id = 'en-1999-04-23'")
    conn = connect(path)
    idx = S.index(conn)
    glossary = [(h.edition, h.editions) for h in S.search(conn, idx, "Forestwalk").hits if h.kind == "glossary"]
    assert glossary[:2] == [("en-1999-04-23", []), ("en-2024-11-08", ["en-2024-11-08", "en-cr-2015"])]


def test_a_glossary_term_in_the_old_spelling_is_its_own_entry():
    """The German spelling reform: "Einfluß" (1999) and "Einfluss" (2024) are two entries, each found."""
    idx = S.Index(editions=[{"id": "de-2024", "language": "de", "date": "2024-11-08"},
                            {"id": "de-1999", "language": "de", "date": "1999-04-02"}],
                  glossary=[{"edition": "de-2024", "title": "Einfluss", "anchor": "t-einfluss", "language": "de"},
                            {"edition": "de-1999", "title": "Einfluß", "anchor": "t-einflu", "language": "de"}],
                  titles=[], terms={})
    assert sorted(g["edition"] for g in S.glossary_lookup(idx, "Einfluss")) == ["de-1999", "de-2024"]


def test_numbers_and_keywords_are_looked_up_in_the_editions_searched(kb):
    """A rule number searched without an edition goes to the newest edition that has it (702.14 is in the whole
    English rules, not in the German chapter-6 edition listed first); a rule title goes to a rule of the editions
    searched ("Kicker" came with Invasion in 2000: the 1999 rules have no such rule), in the language asked for
    first (the German Morph page before the English rules)."""
    conn, idx = kb
    assert idx.newest[0] == "de-2024"
    assert S.search(conn, idx, "702.14").jump == "/rule/en-2024-11-08/702.14"
    assert S.search(conn, idx, "Kicker", edition="de-1999").jump is None
    assert S.search(conn, idx, "Kicker", edition="en-1999-04-23").jump is None
    assert S.search(conn, idx, "Kicker", edition="all").jump == "/rule/en-2024-11-08/702.33"
    assert S.search(conn, idx, "Morph", lang="de", edition="all").jump == "/rule/de-morph-2007/702.34"
    assert S.search(conn, idx, "Morph", lang="en", edition="all").jump == "/rule/en-2024-11-08/702.37"


def test_a_language_asked_for_is_the_only_one_searched_and_a_page_holds_fifty(kb):
    conn, idx = kb
    res = S.search(conn, idx, "Zaubersprüche", lang="de")
    assert res.searched == [e for e in idx.newest if idx.language_of(e) == "de"] and "en-2024-11-08" not in res.searched
    assert {h.language for h in res.hits} == {"de"}
    assert len(res.hits) == 50 and res.more           # (the default page: fifty results)
    morph = S.search(conn, idx, "Morph verdeckt", lang="en")
    assert {h.language for h in morph.hits} <= {"en"}
    assert all(idx.language_of(e) == "en" for e in morph.searched)


def test_what_a_search_answers_around_its_hits(kb):
    """Around the hits: a widened word names the terminology row's note and its forms are marked in the snippets
    ("spielt" also finds "wirken", and "gewirkt", "wirkt" are marked); at most ten keywords ("General" titles 13
    sections of the seed KB); the glossary look-up of a search of every edition; a query of exactly 200
    characters is not cut."""
    import re

    conn, idx = kb
    res = S.search(conn, idx, "spielt", lang="de")
    row = next(t for t in idx.terms["de"] if (t.old, t.new) == ("spielen", "wirken"))
    assert {"word": "spielt", "also": "wirken", "language": "de", "old": "spielen", "new": "wirken",
            "note": row.note} in res.widened
    marked = {m for h in res.hits for m in re.findall("<mark>([^<]*)</mark>", str(h.snippet))}
    assert {"gewirkt", "wirkt", "spielt"} <= marked
    # a word typed in lower case is marked as printed, whatever its lemma ("stapel" reads as the verb "stapeln")
    stapel = S.search(conn, idx, "stapel", lang="de").hits
    assert stapel and all("<mark>Stapel</mark>" in str(h.snippet) for h in stapel if "Stapel" in h.snippet.striptags())
    assert len([t for t in idx.titles if t["title"].lower() == "general"]) > 10
    assert len(S.search(conn, idx, "General").keywords) == 10
    assert [g["title"] for g in S.search(conn, idx, "Forestwalk", edition="all").glossary] == ["Forestwalk"]
    assert not any("cut" in n for n in S.search(conn, idx, "x" * S.MAX_QUERY_CHARS).notes)
    assert "the query was cut to its first 200 characters" in S.search(conn, idx, "x" * 201).notes


def test_a_number_searched_in_every_edition_goes_to_the_newest_that_has_it(kb):
    """"all" names no one edition: 702.14 is in the whole English rules only, 601.2f in both 2024 editions."""
    conn, idx = kb
    assert S.search(conn, idx, "702.14", edition="all").jump == "/rule/en-2024-11-08/702.14"
    assert S.search(conn, idx, "regel 601.2f", edition="all").jump == S.search(conn, idx, "601.2f").jump


def test_a_widened_word_is_marked_in_every_form_of_its_lemma(kb):
    """"Charakteristik" is widened to the row's newer term "Eigenschaften" (data/terminology.tsv); de-2024 608.2j
    prints it in the plural and the singular, and both are marked."""
    conn, idx = kb
    res = S.search(conn, idx, "Charakteristik", edition="de-2024")
    assert [w["also"] for w in res.widened] == ["Eigenschaften"]
    hit = next(h for h in res.hits if h.number == "608.2j")
    assert "<mark>Eigenschaften</mark>" in hit.snippet and "<mark>Eigenschaft</mark>," in hit.snippet


def test_a_search_of_every_edition_reads_enough_rows_to_fold_and_fill_a_page(kb):
    """Folded results (edition "all"): the section "General" is printed by both English editions, and a page of
    one result shows the newest with the other listed; "Forestwalk" matches more texts than a page of one shows."""
    conn, idx = kb
    (general,) = S.search(conn, idx, "General", edition="all", limit=1).hits
    assert (general.edition, general.number, general.editions) == ("en-2024-11-08", "100.",
                                                                  ["en-2024-11-08", "en-1999-04-23"])
    forestwalk = S.search(conn, idx, "Forestwalk", edition="all", limit=1)
    assert len(forestwalk.hits) == 1 and forestwalk.more
