"""An archive of a hundred editions stays readable: identical texts are folded, in search hits and in a rule's
counterparts, into one entry of the newest edition that says how many editions print it and from when to when."""
from __future__ import annotations

import pytest
from markupsafe import Markup

from kb.query import connect
from kb.site import read, search
from kb.site.search import Hit, fold_identical

DATES = {"en-2009-07-11": "2009-07-11", "en-2014-02-01": "2014-02-01", "en-2024-07-30": "2024-07-30",
         "en-2003-10-01": "2003-10-01"}


def _hit(edition, text, number="601.2c", score=-5.0):
    return Hit("rule", edition, "en", number, None, Markup(text), f"/rule/{edition}/{number}", score)


def test_search_folds_the_same_words_into_the_newest_edition():
    """Quotes and apostrophes aside (2014 printed ’ where 2009 printed '): one hit, the newest, the best score."""
    hits = [_hit("en-2009-07-11", "The same target can't be chosen", score=-7.5),
            _hit("en-2024-07-30", "The same target can’t be chosen", score=-7.0),
            _hit("en-2014-02-01", "The same target can’t be chosen", score=-7.2),
            _hit("en-2003-10-01", "The same target can't be chosen twice", number="409.1c", score=-9.0)]
    folded = fold_identical(hits, DATES)
    assert [(h.edition, h.number) for h in folded] == [("en-2003-10-01", "409.1c"), ("en-2024-07-30", "601.2c")]
    assert folded[1].editions == ["en-2024-07-30", "en-2014-02-01", "en-2009-07-11"]
    assert folded[1].span == ("2009-07-11", "2024-07-30") and folded[1].score == -7.5
    assert folded[0].editions == [] and folded[0].span is None   # printed once: nothing folded


def test_a_rules_counterparts_fold_the_same_text_and_relation():
    card = {"language": "en", "number": "601.2c", "title": None, "text": "The player announces …",
            "relation": "equivalent", "review": "", "edition": "", "date": "", "score": 1.0}
    cards = [{**card, "edition": "en-2024-07-30", "date": "2024-07-30", "score": 0.93},
             {**card, "edition": "en-2014-02-01", "date": "2014-02-01", "score": 0.88},
             {**card, "edition": "en-2009-07-11", "date": "2009-07-11", "relation": "split", "score": 0.37}]
    folded = read.fold_identical(cards)
    assert [(c["edition"], c["count"]) for c in folded] == [("en-2024-07-30", 2), ("en-2009-07-11", 1)]
    assert (folded[0]["first"], folded[0]["last"]) == ("2014-02-01", "2024-07-30")
    assert (folded[0]["score_min"], folded[0]["score_max"]) == (0.88, 0.93)


def test_the_home_page_groups_editions_by_language_and_folds_older_years():
    """A language with more editions than a screenful shows its newest year in full and folds the others; a
    language with a few editions shows them all."""
    eds = [{"id": f"en-{y}-0{m}-01", "language": "en", "date": f"{y}-0{m}-01"} for y in (2024, 2025, 2026)
           for m in (1, 5, 9)] + [{"id": "en-2026-11-01", "language": "en", "date": "2026-11-01"},
                                  {"id": "de-1999", "language": "de", "date": "1999-04-02"},
                                  {"id": "de-2024", "language": "de", "date": "2024-11-08"}]
    groups = read.edition_groups(eds)
    assert [(g["language"], g["count"]) for g in groups] == [("en", 10), ("de", 2)]
    assert [e["id"] for e in groups[1]["rows"]] == ["de-2024", "de-1999"] and groups[1]["folded"] == []
    eds.append({"id": "en-2023-01-01", "language": "en", "date": "2023-01-01"})   # eleven: fold the older years
    en = read.edition_groups(eds)[0]
    assert [e["id"] for e in en["rows"]] == ["en-2026-11-01", "en-2026-09-01", "en-2026-05-01", "en-2026-01-01"]
    assert [(y["year"], [e["id"] for e in y["editions"]]) for y in en["folded"]] == [
        ("2025", ["en-2025-09-01", "en-2025-05-01", "en-2025-01-01"]),
        ("2024", ["en-2024-09-01", "en-2024-05-01", "en-2024-01-01"]), ("2023", ["en-2023-01-01"])]


# --------------------------------------------------------------------------- search: the newest editions by default


@pytest.fixture(scope="module")
def kb(kb_db):
    conn = connect(kb_db)
    return conn, search.index(conn)


def test_search_reads_the_newest_edition_of_each_document_unless_asked_for_all(kb):
    conn, idx = kb
    res = search.search(conn, idx, "Zauberspruch", lang="de", limit=500)
    # the German rules (1999, 2024), the 2009 article and the Morph page: the newest edition of each
    assert res.searched == ["de-2024", "de-article-2009", "de-morph-2007"]
    assert {h.edition for h in res.hits} <= set(res.searched) and "de-2024" in {h.edition for h in res.hits}
    every = search.search(conn, idx, "Zauberspruch", lang="de", edition="all", limit=500)
    assert every.searched == [] and "de-1999" in {h.edition for h in every.hits}
    assert every.total > res.total


def test_a_hit_names_the_older_editions_that_print_the_same_text(kb):
    """English 1999 and 2024 print the glossary entry "Forestwalk" with the same words ("See Landwalk."), and
    "Active Player" with other words: the first hit names both editions, the second only its own."""
    conn, idx = kb
    same = next(h for h in search.search(conn, idx, "Forestwalk", lang="en").hits if h.title == "Forestwalk")
    assert (same.edition, same.editions, same.span) == ("en-2024-11-08", ["en-2024-11-08", "en-1999-04-23"],
                                                       ("1999-04-23", "2024-11-08"))
    changed = next(h for h in search.search(conn, idx, "Active Player", lang="en").hits if h.title == "Active Player")
    assert changed.edition == "en-2024-11-08" and changed.editions == [] and changed.span is None


def test_a_title_jumps_only_to_a_rule_of_the_editions_searched(kb):
    """German 1999 has a rule titled "Kreaturen" (214.7), German 2024 has none: searching German 2024 lists the
    texts that say "Kreaturen" instead of jumping to the 1999 rule."""
    conn, idx = kb
    scoped = search.search(conn, idx, "Kreaturen", edition="de-2024")
    assert scoped.jump is None and scoped.hits and {h.edition for h in scoped.hits} == {"de-2024"}
    assert search.search(conn, idx, "Kreaturen", edition="de-1999").jump == "/rule/de-1999/214.7"
    newest = search.search(conn, idx, "Kreaturen", lang="de")
    assert newest.jump is None and ("de-1999", "214.7") in {(k["edition"], k["norm"]) for k in newest.keywords}


def test_the_search_page_says_which_editions_it_searched_and_offers_all(site):
    page = site.get("/search?q=Zauberspruch&lang=de").text
    said = page.split('id="searched"')[1].split("</p>")[0]
    assert "de-2024, de-article-2009, de-morph-2007" in said and "edition=all" in said
    every = site.get("/search?q=Zauberspruch&lang=de&edition=all").text
    assert 'id="searched"' not in every and "<strong>de-1999</strong>" in every
