"""What a search result counts and how it pages: the total names every rule and text that matches, a text printed
in several editions is one hit naming them all (newest first, with their first and last date), the pages cut
that list in ``limit``-sized pieces without losing or repeating a hit, and a page outside the list says so.

The seed KB (``kb_db``), queried with a language or an edition named, and hand-made hits for the folding."""
from __future__ import annotations

import pytest
from markupsafe import Markup

from kb.query import connect
from kb.site import search as S
from kb.site.read import anchor


@pytest.fixture(scope="module")
def kb(kb_db):
    conn = connect(kb_db)
    return conn, S.index(conn)


def hit(kind: str, edition: str, number: str | None, title: str | None, snippet: str, score: float,
        language: str = "en") -> S.Hit:
    return S.Hit(kind, edition, language, number, title, Markup(snippet), f"/{edition}/{number}", score)


DATES = {"en-2009-07-11": "2009-07-11", "en-2015-01-23": "2015-01-23", "en-2024-11-08": "2024-11-08"}


def test_one_text_printed_in_several_editions_is_one_hit_of_the_newest():
    words = "To cast a <mark>spell</mark> is to take it from where it is"
    hits = [
        hit("rule", "en-2009-07-11", "601.2.", None, words.replace("it is", "it’s"), -5.0),
        hit("rule", "en-2024-11-08", "601.2", None, words.replace("it is", "it's"), -3.0),
        hit("rule", "en-2015-01-23", "601.2", None, words.replace("it is", "it's"), -4.0),
        hit("rule", "en-2024-11-08", "601.3", None, words, -6.0),                 # another rule
        hit("glossary", "en-2024-11-08", None, "Cast", words, -1.0),              # another kind
        hit("glossary", "en-2015-01-23", None, "cast", words, -0.5),              # the same entry
        hit("rule", "it-2024", "601.2", None, words, -2.0, language="it"),        # another language
        hit("rule", "en-2015-01-23", "601.2", None, words + " now", -0.1),        # other words
    ]
    folded = S.fold_identical(hits, DATES)
    # best score first; a group at the best score of its members
    assert [(h.kind, h.edition, h.number, h.score) for h in folded] == [
        ("rule", "en-2024-11-08", "601.3", -6.0),
        ("rule", "en-2024-11-08", "601.2", -5.0),
        ("rule", "it-2024", "601.2", -2.0),
        ("glossary", "en-2024-11-08", None, -1.0),
        ("rule", "en-2015-01-23", "601.2", -0.1),
    ]
    group = folded[1]
    assert group.editions == ["en-2024-11-08", "en-2015-01-23", "en-2009-07-11"]
    assert group.span == ("2009-07-11", "2024-11-08")
    assert str(group.snippet) == words.replace("it is", "it's")       # the newest edition's words
    assert (folded[3].editions, folded[3].span) == (["en-2024-11-08", "en-2015-01-23"], ("2015-01-23", "2024-11-08"))
    for alone in (folded[0], folded[2], folded[4]):
        assert (alone.editions, alone.span) == ([], None)
    # as a program gets it (kb search --json, /search.json)
    shown = S.Result(query="spell", hits=folded).as_json()["hits"]
    assert [(h["editions"], h["span"]) for h in shown] == [
        ([], None), (["en-2024-11-08", "en-2015-01-23", "en-2009-07-11"], ["2009-07-11", "2024-11-08"]), ([], None),
        (["en-2024-11-08", "en-2015-01-23"], ["2015-01-23", "2024-11-08"]), ([], None)]


@pytest.mark.parametrize("query, scope", [("Zaubersprüche", {"lang": "de"}), ("Fähigkeit", {"edition": "de-2024"}),
                                          ("magia", {"lang": "it"}), ("spell", {"edition": "en-2024-11-08"})])
def test_the_total_counts_every_matching_text_once_whatever_the_folding(kb, query, scope):
    conn, idx = kb
    res = S.search(conn, idx, query, limit=5000, **scope)
    assert res.hits and not res.more
    assert sum(len(h.editions) or 1 for h in res.hits) == res.total
    if "edition" in scope:
        assert {h.edition for h in res.hits} == {scope["edition"]}
        assert res.total < S.search(conn, idx, query, lang=idx.language_of(scope["edition"]), limit=1).total
    # a widened query finds more
    narrow = S.search(conn, idx, query, widen=False, limit=1, **scope)
    assert narrow.total <= res.total


def test_pages_cut_the_list_without_losing_or_repeating_a_hit(kb):
    conn, idx = kb
    whole = S.search(conn, idx, "Zaubersprüche", lang="de", limit=12)
    assert whole.more and len(whole.hits) == 12
    pages = [S.search(conn, idx, "Zaubersprüche", lang="de", limit=5, page=p) for p in (1, 2, 3)]
    assert [h.url for p in pages for h in p.hits][:12] == [h.url for h in whole.hits]
    assert [(p.page, p.first, len(p.hits), p.more) for p in pages] == [(1, 0, 5, True), (2, 5, 5, True),
                                                                         (3, 10, 5, True)]
    data = pages[1].as_json()
    assert (data["page"], data["first"], data["last"], data["total"]) == (2, 6, 10, whole.total)


def test_a_page_outside_the_list_says_so(kb):
    conn, idx = kb
    every = S.search(conn, idx, "Zaubersprüche", lang="de", limit=5000)
    limit = 50
    last = -(-len(every.hits) // limit)
    assert 1 < last < S.MAX_PAGE
    past = S.search(conn, idx, "Zaubersprüche", lang="de", limit=limit, page=last + 1)
    assert past.hits == [] and not past.more and past.notes == [f"page {last + 1} is past the last result "
                                                                 f"({every.total} in all)"]
    assert past.suggestions == []           # (there are results: no near terms offered)
    at_last = S.search(conn, idx, "Zaubersprüche", lang="de", limit=limit, page=last)
    assert [h.url for h in at_last.hits] == [h.url for h in every.hits[(last - 1) * limit:]] and not at_last.more
    assert (at_last.as_json()["first"], at_last.as_json()["last"]) == ((last - 1) * limit + 1, len(every.hits))
    for asked, shown in ((0, 1), (-3, 1), (S.MAX_PAGE + 1, S.MAX_PAGE), (10_000, S.MAX_PAGE)):
        res = S.search(conn, idx, "Zaubersprüche", lang="de", limit=1, page=asked)
        assert res.page == shown and res.first == shown - 1
        assert res.notes[0] == f"pages run from 1 to {S.MAX_PAGE}; showing page {shown}"
    assert S.search(conn, idx, "Zaubersprüche", lang="de", limit=1, page=S.MAX_PAGE).notes == []
    empty = S.search(conn, idx, "Zaubersprüche", lang="de", limit=1, page=2).as_json()
    assert (empty["first"], empty["last"]) == (2, 2)
    nothing = S.search(conn, idx, "Schmurgelwort", lang="de").as_json()
    assert (nothing["first"], nothing["last"], nothing["total"]) == (0, 0, 0)


def test_every_hit_links_to_where_its_text_is(kb):
    """A rule to its page, a glossary entry to its anchor on the glossary page, an example or a note to the rule
    it belongs to (whose number it carries), any other text to its row; tables of contents and boilerplate are no
    results."""
    conn, idx = kb
    items = {r["id"]: r for r in conn.execute("select i.id, i.kind, i.title, i.text, o.norm owner, o.number "
                                              "from items i left join rules o on o.id = i.rule_id "
                                              "where i.edition_id = 'de-1999'")}
    rules = {r["number"]: r for r in conn.execute("select number, norm, title, text from rules "
                                                  "where edition_id = 'de-1999'")}
    kinds = set()
    for query in ("Spieler", "Regel", "Zauberspruch"):
        for h in S.search(conn, idx, query, edition="de-1999", limit=5000).hits:
            kinds.add(h.kind)
            assert (h.edition, h.language) == ("de-1999", "de")
            if h.kind == "rule":
                r = rules[h.number]
                assert h.url == f"/rule/de-1999/{r['norm']}" and h.title == r["title"]
            elif h.kind == "glossary":
                # (the anchor the glossary page gives the term)
                assert h.url == f"/glossary/de-1999#{anchor(h.title)}" and h.number is None
            elif h.url.startswith("/rule/"):
                owned = [i for i in items.values() if i["owner"] == h.url.split("/")[-1] and i["kind"] == h.kind]
                assert owned and h.number == owned[0]["number"]
            else:
                row = items[int(h.url.rsplit("/", 1)[1])]
                assert h.url == f"/kb/items/{row['id']}" and (row["kind"], row["owner"]) == (h.kind, None)
                assert h.title == row["title"]
    assert kinds >= {"rule", "glossary", "example", "paragraph", "index", "heading"}
    assert not kinds & {"toc", "boilerplate"}


def test_the_newest_edition_names_the_hit_by_its_date_not_its_id():
    """Editions named by their users need not sort by date: "en-cr-2001" sorts after "en-2024-11-08"."""
    dates = {"en-cr-2001": "2001-10-01", "en-2024-11-08": "2024-11-08"}
    words = "Plurality and gender are ignored"
    folded = S.fold_identical([hit("rule", "en-cr-2001", "214.7b", None, words, -2.0),
                               hit("rule", "en-2024-11-08", "214.7b", None, words, -1.0)], dates)
    assert [(h.edition, h.editions, h.span, h.score) for h in folded] == [
        ("en-2024-11-08", ["en-2024-11-08", "en-cr-2001"], ("2001-10-01", "2024-11-08"), -2.0)]
    # a title is the same in any case, but "Straße" is not "Strasse" (whose upper case both are)
    titled = S.fold_identical([hit("glossary", "en-cr-2001", None, "Straße", words, -2.0),
                               hit("glossary", "en-2024-11-08", None, "STRASSE", words, -1.0)], dates)
    assert [h.edition for h in titled] == ["en-cr-2001", "en-2024-11-08"]
    # a full stop at the end is no word: the same text; "daß" (1999) is not "dass" (2024): another text
    stops = S.fold_identical([hit("rule", "en-cr-2001", "214.7b", None, words + ".", -2.0),
                              hit("rule", "en-2024-11-08", "214.7b", None, "(" + words, -1.0)], dates)
    assert [h.editions for h in stops] == [["en-2024-11-08", "en-cr-2001"]]
    spelled = S.fold_identical([hit("rule", "de-1999", "409.1", None, "so daß er", -2.0, language="de"),
                                hit("rule", "de-2024", "409.1", None, "so dass er", -1.0, language="de")],
                               {"de-1999": "1999-04-02", "de-2024": "2024-11-08"})
    assert len(spelled) == 2


def test_the_newest_edition_of_each_family_names_its_older_editions_with_the_same_text(kb):
    """Searched by default (the newest edition of each family), a hit names the older editions of its family that
    print the same text: the English sections 100–400 are "General" in 1999 and 2024 (500 and 600 are other
    sections in 1999), and the glossary's "Forestwalk: See Landwalk." is in both."""
    conn, idx = kb
    both = (["en-2024-11-08", "en-1999-04-23"], ("1999-04-23", "2024-11-08"))
    general = {h.number: (h.editions, h.span) for h in S.search(conn, idx, "General", limit=50).hits
               if h.edition == "en-2024-11-08" and h.kind == "rule"}
    assert general["100."] == general["400."] == both
    assert general["600."] == ([], None)
    forestwalk = [h for h in S.search(conn, idx, "Forestwalk").hits if h.kind == "glossary"]
    assert [(h.edition, h.editions, h.span) for h in forestwalk] == [("en-2024-11-08", *both)]
    # one edition named: that edition only, no others named
    one = S.search(conn, idx, "Forestwalk", edition="en-2024-11-08").hits
    assert one and all(h.editions == [] and h.span is None for h in one)


def test_the_pages_of_a_search_of_every_edition_and_of_every_language(kb):
    """A search of every edition fills its page with folded hits (the five "General" sections printed in 1999 and
    2024 are more than five texts) and names their span of dates; a search of every language counts the matches of
    each ("Mana" is German and English); a page that ends exactly at the last result has no next page."""
    conn, idx = kb
    every = S.search(conn, idx, "General", edition="all", limit=5)
    assert len(every.hits) == 5 and every.more
    assert ("1999-04-23", "2024-11-08") in [h.span for h in every.hits]
    both = S.search(conn, idx, "Mana", lang=None, limit=5000, widen=False)
    assert {h.language for h in both.hits} >= {"de", "en"} and both.total == len(both.hits)
    whole = S.search(conn, idx, "Zaubersprüche", edition="de-2024", limit=5000)
    exact = S.search(conn, idx, "Zaubersprüche", edition="de-2024", limit=len(whole.hits))
    assert len(exact.hits) == whole.total and not exact.more
