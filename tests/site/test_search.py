"""Search that understands German and Italian: lemmas both ways, terminology widening, jumps, lookups."""
import re

import pytest

from kb.query import connect
from kb.site import search as S


@pytest.fixture(scope="module")
def kb(kb_db):
    conn = connect(kb_db)
    return conn, S.index(conn)


def texts(res):
    return [re.sub(r"<[^>]+>", "", str(h.snippet)) for h in res.hits]


@pytest.mark.parametrize("query,form", [("Zauberspruch", "Zaubersprüche"), ("Zaubersprüche", "Zauberspruch"),
                                        ("wirken", "gewirkt"), ("gewirkt", "wirken")])
def test_lemmatised_in_both_directions(kb, query, form):
    conn, idx = kb
    res = S.search(conn, idx, query, lang="de", widen=False)
    assert any(re.search(rf"\b{form}\b", t) for t in texts(res)), (query, form)


def test_italian(kb):
    conn, idx = kb
    res = S.search(conn, idx, "magia", lang="it")
    assert any(re.search(r"\bmagie\b", t) for t in texts(res))
    assert {h.edition for h in res.hits} == {"it-wiki"}


def test_widening_through_the_terminology_table(kb):
    conn, idx = kb
    res = S.search(conn, idx, "spielen", lang="de", limit=500)
    assert {"word": "spielen", "also": "wirken"}.items() <= res.widened[0].items()
    narrow = S.search(conn, idx, "spielen", lang="de", widen=False, limit=500)
    assert not narrow.widened
    found_by_widening = [h for h in res.hits if h.url not in {n.url for n in narrow.hits}]
    assert any(h.edition == "de-2024" and "<mark>wirk" in str(h.snippet) for h in found_by_widening)


def test_a_rule_number_jumps_to_the_rule(kb):
    conn, idx = kb
    assert S.search(conn, idx, "601.2F").jump == "/rule/de-2024/601.2f"
    assert S.search(conn, idx, "601.2c", edition="it-wiki").jump == "/rule/it-wiki/601.2c"
    assert S.search(conn, idx, "Regel 409.2f").jump == "/rule/de-1999/409.2f"


def test_keyword_lands_on_its_rule(kb):
    conn, idx = kb
    assert S.search(conn, idx, "Morph", lang="de").jump == "/rule/de-morph-2007/702.34"
    assert S.search(conn, idx, "morph").jump == "/rule/en-2024-11-08/702.37"  # the newest edition first
    # a keyword rule of the official text is a rule whose whole text is its name ("702.33. Kicker")
    assert S.search(conn, idx, "Kicker").jump == "/rule/en-2024-11-08/702.33"


def test_unknown_keyword_and_empty_results_say_so_with_suggestions(kb):
    conn, idx = kb
    res = S.search(conn, idx, "Schmurgel")
    assert not res.hits and not res.jump and "no rule or text" in res.notes[-1]
    typo = S.search(conn, idx, "Abwerfn")
    assert [g["title"] for g in typo.glossary][:1] == ["Abwerfen"]
    assert "Abwerfen" in [s["term"] for s in typo.suggestions]


def test_unknown_language_and_edition_say_so(kb):
    conn, idx = kb
    res = S.search(conn, idx, "magia", lang="xx")
    assert "unknown language 'xx'" in res.notes[0] and res.hits
    res = S.search(conn, idx, "magia", edition="xx-1")
    assert "unknown edition 'xx-1'" in res.notes[0]


def test_hostile_queries_are_bounded(kb):
    conn, idx = kb
    res = S.search(conn, idx, '" OR * NEAR( ' * 200)
    assert res.notes and "cut" in res.notes[0]
    assert len(S.query_words("wort " * 1000)) == S.MAX_QUERY_WORDS


def test_search_page(site):
    r = site.get("/search?q=spielen&lang=de")
    assert r.status_code == 200
    assert 'id="widened"' in r.text and "also searched" in r.text and "spielen → wirken" in r.text
    results = r.text.split('id="results"')[1]
    assert "<mark>" in results and re.search(r'href="/rule/de-2024/[0-9.a-z]+"', results)
    assert site.get("/search?q=601.2f").headers["location"] == "/rule/de-2024/601.2f"
    assert site.get("/search?q=Morph&lang=de").headers["location"] == "/rule/de-morph-2007/702.34"
    none = site.get("/search?q=Abwerfn")
    assert 'id="suggestions"' in none.text and "Abwerfen" in none.text
    assert "unknown language" in site.get("/search?q=x&lang=xx").text
    data = site.get("/search.json?q=Zaubersprüche&lang=de").json()
    assert data["hits"] and data["hits"][0]["url"].startswith("/rule/")


def test_table_search_is_lemmatised_both_ways(site):
    for query, form in (("Zauberspruch", "Zaubersprüche"), ("Zaubersprüche", "Zauberspruch")):
        rows = site.get(f"/kb/rules.json?_search={query}&edition_id=de-2024&_shape=array&_size=max").json()
        assert any(re.search(rf"\b{form}\b", r["text"] or "") and not re.search(rf"\b{query}\b", r["text"] or "")
                   for r in rows), (query, form)


def test_lemma_search_canned_query_says_what_it_did(site):
    rows = site.get("/kb/lemma_search.json?q=601.2F&lang=xx&_shape=array").json()
    assert rows[0]["kind"] == "note" and "unknown language 'xx'" in rows[0]["text"]
    assert any(r["kind"] == "rule" and r["number"] == "601.2f" for r in rows)
    empty = site.get("/kb/lemma_search.json?q=xyzzyq&lang=de&_shape=array").json()
    assert [r["kind"] for r in empty] == ["note"] and "no rule or text matches" in empty[0]["text"]
