"""What a search answers, as `kb search --json` and /search.json give it to a program: every field, every hit's
fields, and the near terms offered when nothing matches (glossary terms with their edition, terminology
terms with their language)."""
import json

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.query import connect
from kb.site import search as S

FIELDS = {"query", "lang", "edition", "jump", "widened", "notes", "suggestions", "glossary", "keywords",
          "languages", "hits", "page", "total", "first", "last", "more", "searched"}
HIT_FIELDS = {"kind", "edition", "language", "number", "title", "snippet", "url", "score", "editions", "span"}


@pytest.fixture(scope="module")
def kb(kb_db):
    conn = connect(kb_db)
    return conn, S.index(conn)


def cli_json(kb_db, *args) -> dict:
    out = CliRunner().invoke(main, ["search", *args, "--json", "--db", str(kb_db)])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def test_the_json_answer_carries_every_field_of_the_result(kb, kb_db):
    conn, idx = kb
    data = cli_json(kb_db, "Zaubersprüche", "--lang", "de", "--limit", "5")
    res = S.search(conn, idx, "Zaubersprüche", lang="de", limit=5)
    assert set(data) == FIELDS
    assert (data["query"], data["lang"], data["edition"], data["jump"]) == ("Zaubersprüche", "de", None, None)
    assert data["languages"] == idx.languages == ["de", "en", "it"]
    assert len(data["hits"]) == 5 and all(set(h) == HIT_FIELDS for h in data["hits"])
    # the page: results 1-5 of all that match (more than five texts print the word)
    assert (data["page"], data["first"], data["last"], data["more"]) == (1, 1, 5, True)
    assert data["total"] == res.total > 5
    for got, hit in zip(data["hits"], res.hits):
        assert got == {"kind": hit.kind, "edition": hit.edition, "language": "de", "number": hit.number,
                       "title": hit.title, "snippet": str(hit.snippet), "url": hit.url, "score": hit.score,
                       "editions": hit.editions, "span": list(hit.span) if hit.span else hit.span}
        assert got["url"].startswith(("/rule/", "/kb/items/")) and "<mark>" in got["snippet"]
        assert got["score"] < 0   # bm25
    widened = cli_json(kb_db, "spielen", "--lang", "de", "--limit", "1")
    assert widened["widened"] and {"word": "spielen", "also": "wirken", "language": "de"}.items() <= \
        widened["widened"][0].items()
    scoped = cli_json(kb_db, "magia", "--edition", "it-wiki", "--limit", "3")
    assert scoped["edition"] == "it-wiki" and {h["edition"] for h in scoped["hits"]} == {"it-wiki"}


def test_nothing_found_offers_near_glossary_and_terminology_terms(kb, kb_db):
    conn, idx = kb
    data = cli_json(kb_db, "Abwerfn")
    assert data["hits"] == [] and data["notes"] == ["no rule or text in any edition matches 'Abwerfn'"]
    assert {"term": "Abwerfen", "edition": "de-1999"} in data["suggestions"]
    assert data["glossary"][0]["title"] == "Abwerfen" and data["glossary"][0]["edition"] == "de-1999"
    # a phrase of the terminology table (data/terminology.tsv), typed with two typos: offered with its language
    near = S.suggestions(idx, "cast a spel or activate an abilty")
    assert near[0] == {"term": "cast a spell or activate an ability", "edition": None, "language": "en"}
    assert len(near) == 6 and all(set(s) <= {"term", "edition", "language"} for s in near)
    assert len(S.suggestions(idx, "cast a spel or activate an abilty", limit=2)) == 2
    assert S.suggestions(idx, "qqqqqqqqqq") == []    # nothing near enough
