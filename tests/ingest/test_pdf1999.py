"""Tests of the "cr-1999-pdf" parser (German rules booklet, Classic Sixth Edition, 1999).

Expected values were read from data/sources/001_0c3355379ebe2b1a.txt by eye and
counted with grep/awk, not taken from the parser's output:

* rules: ``sed -n 103,1730p | grep -cE '^\\s*[0-9]{3}\\.[0-9]+'`` gives 342, one of
  which is the continuation line 1479 ``410.8).``, so 341 rules and subrules;
  ``grep -cE '^\\s*[0-9]{3}\\.\\s'`` gives 63 sections, ``'^\\s*[0-9]\\.\\s'`` 5 chapters.
* examples: ``sed -n 103,1730p | grep -cE '^\\s*Beispiel:'`` = 35.
* glossary terms: unindented lines after a blank line between line 1731
  (``Glossar``) and 2870 (``Index``), with awk: 176.
* index: non-blank lines between 2870 and 3017 (``Danke``): 126, 51 of them tab-indented.
* toc: lines 1-74 ending in ``<TAB>page``: 71.
"""
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest
from ingest import SourceError
from tests.helpers import ROOT

SOURCE = ROOT / "data" / "sources" / "001_0c3355379ebe2b1a.txt"

SECTIONS = [*range(100, 104), *range(200, 218), *range(300, 315), *range(400, 423), *range(500, 503)]


@pytest.fixture(scope="module")
def parsed():
    return ingest.parse_document(str(SOURCE), "cr-1999-pdf", "de")


@pytest.fixture(scope="module")
def lines():
    return SOURCE.read_text(encoding="utf-8").split("\n")


def rule(parsed, number):
    (rec,) = [r for r in parsed.records if r.kind == "rule" and r.number == number]
    return rec


def at_line(parsed, line):
    (rec,) = [r for r in parsed.records if any(s.line == line for s in r.spans)]
    return rec


def parse(lines):
    return ingest.parse_lines(lines, "x.txt", "cr-1999-pdf", "de")


# --- the real file ----------------------------------------------------------------------


def test_no_unparsed_lines(parsed):
    assert [r for r in parsed.records if r.kind == "unparsed"] == []


def test_record_counts(parsed):
    counts = Counter(r.kind for r in parsed.records)
    assert counts["rule"] == 341 + 63 + 5
    assert counts["example"] == 35
    assert counts["glossary"] == 176
    assert counts["index"] == 126
    assert counts["toc"] == 71
    # Danke, 3 credit blocks, poem, closing line, copyright, date, 2 source lines
    assert counts["boilerplate"] == 10
    # title, subtitle, Einführung, Glossar, Index
    assert counts["heading"] == 5
    assert counts["paragraph"] == 4


def test_lossless_every_nonblank_line_covered_once(parsed, lines):
    covered = Counter()
    for rec in parsed.records:
        for span in rec.spans:
            assert span.start == 0 and span.end is None
            covered[span.line] += 1
    nonblank = {no for no, text in enumerate(lines, 1) if text.strip()}
    assert set(covered) == nonblank
    assert max(covered.values()) == 1


def test_toc_entries_have_pages_and_are_not_rules(parsed):
    toc = [r for r in parsed.records if r.kind == "toc"]
    assert [r.first_line for r in toc][:3] == [1, 2, 3]
    assert all(isinstance(r.meta["page"], int) for r in toc)
    assert (toc[0].title, toc[0].meta) == ("Einführung", {"page": 1, "number": None})
    assert (toc[2].title, toc[2].meta) == ("Allgemeines", {"page": 2, "number": "100"})
    assert (toc[-1].title, toc[-1].meta) == ("Index", {"page": 74, "number": None})
    glossar = [r for r in toc if r.title == "Glossar"]
    assert glossar[0].meta["page"] == 46
    # no rule record comes from the TOC lines 1-74
    assert all(r.first_line > 74 for r in parsed.records if r.kind == "rule")
    assert {r.meta["number"] for r in toc if r.meta["number"]} == {str(n) for n in [1, 2, 3, 4, 5, *SECTIONS]}


def test_chapters_and_sections_are_titled_rules(parsed):
    titles = {1: "Eine Partie", 2: "Die Karten", 3: "Der Ablauf eines Spielzuges",
              4: "Zaubersprüche, Fähigkeiten und Effekte", 5: "Zusätzliche Kampfregeln"}
    for n, title in titles.items():
        rec = rule(parsed, f"{n}.")
        assert (rec.title, rec.text) == (title, "")
    for n in SECTIONS:
        rec = rule(parsed, f"{n}.")
        assert rec.title and rec.text == ""
    assert rule(parsed, "102.").title == "Gewinnen und Verlieren"  # tab-indented heading, line 150
    assert rule(parsed, "209.").title == "Quellenangabe"  # trailing space, line 250
    assert rule(parsed, "502.").title == "Schlüsselwort-Fähigkeiten"


def test_rule_text_and_spans(parsed):
    rec = rule(parsed, "409.2f")
    assert rec.text.startswith("Der Spieler bezahlt alle Kosten. Teilzahlungen sind nicht erlaubt. Normalerweise")
    assert rec.text.endswith("gespielt werden (siehe Regel 411).")
    assert [s.line for s in rec.spans] == list(range(979, 989))
    assert rule(parsed, "100.4.").text == "Es gibt keine maximale Deckgröße."
    # wrapped across lines, the last one starting with a space (a lost web address)
    assert rule(parsed, "100.1.").text.endswith("auf der offiziellen Webseite von Wizards of the Coast finden.")
    # "Copyright-" + "Information": the hyphen stays before a capital
    assert "Quellenangabe, Copyright-Information und Kartensammelnummer." in rule(parsed, "201.1.").text
    # unindented rule lines (240, 571) and " \t217.1." (422)
    assert rule(parsed, "207.2.").first_line == 240
    assert rule(parsed, "306.1.").first_line == 571
    assert rule(parsed, "217.1.").first_line == 422
    # two rules without a blank line between them (1264/1265)
    assert rule(parsed, "416.2.").first_line == 1265
    assert rule(parsed, "416.1.").last_line == 1264
    assert rule(parsed, "214.8f").text == "Eine lokale Verzauberung kann sich nicht selbst zugeordnet werden."
    assert rule(parsed, "402.10.").text == ("Es gibt drei allgemeine Typen von Fähigkeiten: "
                                           "aktivierte, ausgelöste und statische.")


def test_continuation_starting_with_a_number_is_not_a_rule(parsed):
    rec = at_line(parsed, 1479)  # "410.8)." continues rule 420.1
    assert rec.number == "420.1."
    assert rec.text.endswith("(Siehe Regel 410.8).")


def test_hyphenated_word_joined_in_introduction(parsed):
    rec = at_line(parsed, 83)
    assert rec.kind == "paragraph"
    assert "alle möglichen Regelunklarheiten, die im Laufe" in rec.text
    assert [s.line for s in rec.spans] == list(range(81, 87))


def test_front_matter_headings(parsed):
    assert [(at_line(parsed, n).kind, at_line(parsed, n).title) for n in (75, 77, 80)] == [
        ("heading", "Magic: Die Zusammenkunft®"), ("heading", "Zusammenfassung der Regeln"), ("heading", "Einführung")]
    assert at_line(parsed, 102).kind == "paragraph"


def test_title_only_rules(parsed):
    for number, title in [("214.6.", "Artefakte"), ("214.8.", "Verzauberungen"),
                          ("217.7.", "Ganz aus dem Spiel entfernt"), ("406.1.", "Manafähigkeiten"),
                          ("408.1.", "Timing, Vorrang und der Stapel"), ("502.9.", "Trampelschaden")]:
        rec = rule(parsed, number)
        assert (rec.title, rec.text) == (title, ""), number
    # rules that have subrules but also text keep their text
    assert rule(parsed, "314.1.").text == "Das Aufräumsegment wird in folgender Reihenfolge durchlaufen:"
    assert rule(parsed, "310.1.").title is None
    assert rule(parsed, "214.6a").text.startswith("Artefakte haben keine speziellen Charakteristiken.")


def test_examples_hang_off_their_rule(parsed):
    examples = [r for r in parsed.records if r.kind == "example"]
    assert all(r.label == "Beispiel" and not r.text.startswith("Beispiel") for r in examples)
    assert all(parsed.records[r.owner].kind == "rule" for r in examples)
    owner = {r.first_line: parsed.records[r.owner].number for r in examples}
    assert owner[268] == "212.2."  # space-indented
    assert owner[765] == "402.8."  # tab-indented
    assert owner[1058] == "410.8b"
    assert owner[1723] == "502.9f"
    ex = at_line(parsed, 1723)
    assert ex.text.startswith("Eine 2/2 Kreatur besitzt eine Fähigkeit")
    assert [s.line for s in ex.spans] == list(range(1723, 1729))
    # the rule before the example does not swallow it
    assert rule(parsed, "502.9f").last_line == 1722


def test_glossary_entries(parsed):
    gloss = [r for r in parsed.records if r.kind == "glossary"]
    assert (gloss[0].title, gloss[0].first_line) == ("Abwerfen", 1733)
    assert gloss[-1].title == "Zusätzliche Kosten"
    assert at_line(parsed, 1731).kind == "heading" and at_line(parsed, 1731).title == "Glossar"
    eile = at_line(parsed, 2002)
    assert eile.title == "Eile" and eile.text.endswith('Siehe Regel 502.5 "Eile".')
    assert at_line(parsed, 2007) is eile  # '502.5 "Eile".' opens the line but is no rule
    assert at_line(parsed, 2362).title == "Manakosten"  # '203 "Manakosten".'
    ante = at_line(parsed, 1789)
    assert ante.title == "Ante (Hinfällig)"
    # indented paragraphs belong to the entry
    assert at_line(parsed, 1834).title == "Austauschen"


def test_glossary_expansion_symbol_table(parsed):
    entry = at_line(parsed, 2063)
    assert entry.title == "Erweiterungssymbol"
    assert entry.last_line == 2132
    rows = entry.text.split("\n")
    assert rows[0].endswith("Die bislang benutzten Erweiterungssymbole sind:")
    assert "Arabian Nights®\t1" in rows
    assert "Exodus™\t." in rows
    assert "Unglued™\te" in rows
    assert "Neuauflagen" in rows
    assert at_line(parsed, 2134).title == "Fähigkeit"


def test_index_entries(parsed):
    index = [r for r in parsed.records if r.kind == "index"]
    assert at_line(parsed, 2870).kind == "heading"
    first = index[0]
    assert (first.title, first.text, first.meta) == ("Abwerfen", "217.3b, 217.4a, 314.1a", {"parent_term": None})
    assert at_line(parsed, 2877).text == "404.1–2, 406.2b, 410.2, 410.6–7"
    assert at_line(parsed, 3002).text == "214.8a, 214.8c–i, 412.2, 420.5"
    sub = at_line(parsed, 2888)
    assert (sub.title, sub.text, sub.meta["parent_term"]) == ("Abhängige Effekte", "418.5c", "Effekte")
    assert at_line(parsed, 3016).meta["parent_term"] == "Zone"
    assert sum(1 for r in index if r.meta["parent_term"]) == 51
    # defects: missing comma, empty reference, double space
    missing = at_line(parsed, 2905)
    assert (missing.title, missing.meta["parent_term"]) == ("Ausgelöste Fähigkeiten", "Fähigkeiten")
    assert missing.text == "404, 408.1f, 408.2e, 410, 420.1"
    assert at_line(parsed, 3000).title == "Verzauberungen"
    assert at_line(parsed, 2897).text == "312.1, 314"
    codes = {(w.line, w.code) for w in parsed.warnings}
    assert {(2905, "index-missing-comma"), (2907, "index-missing-comma"),
            (3000, "index-empty-ref"), (2897, "index-spacing")} <= codes


def test_boilerplate(parsed):
    what = {r.first_line: r.meta["what"] for r in parsed.records if r.kind == "boilerplate"}
    assert what[3017] == "credits"
    assert what[3019] == "credits"
    assert what[3048] == "copyright"
    assert what[3057] == "date"
    assert what[3059] == "source"
    assert what[3061] == "source"
    assert at_line(parsed, 3055) is at_line(parsed, 3048)


def test_warnings_for_source_defects(parsed):
    codes = {(w.line, w.code) for w in parsed.warnings}
    assert (770, "lost-placeholder") in codes  # "Spiele  nur, wenn  in Deinem Friedhof liegt."
    assert (258, "lost-placeholder") in codes  # "in der Form  angegeben"
    assert (346, "lost-placeholder") in codes  # ' nur auf " dargestellt.'
    assert (157, "double-period") in codes  # "verliert.."
    assert (126, "toc-mismatch") in codes  # TOC "Eine Partei  beginnen"
    assert not [w for w in parsed.warnings if w.code in ("duplicate-number", "number-backwards")]
    lost = [w for w in parsed.warnings if w.code == "lost-placeholder"]
    assert len({w.line for w in lost}) == len(lost)


# --- small hand-made inputs --------------------------------------------------------------

HEAD = ["1. Erstes Kapitel", "100. Abschnitt"]


def records_of(parsed, kind):
    return [r for r in parsed.records if r.kind == kind]


def test_wrapped_lines_are_joined():
    p = parse(HEAD + ["\t100.1. Eine Regel über Regelun-", "klarheiten mit  ", "drei Zeilen."])
    (r,) = [r for r in p.records if r.number == "100.1."]
    assert r.text == "Eine Regel über Regelunklarheiten mit drei Zeilen."
    assert [s.line for s in r.spans] == [3, 4, 5]
    assert records_of(p, "unparsed") == []


def test_title_only_rule():
    p = parse(HEAD + ["\t100.1. Artefakte", "", "\t100.1a Der erste Unterpunkt.", "", "\t100.2. Kurz."])
    title, sub, short = (r for r in p.records if r.number and "." in r.number[:-1])
    assert (title.number, title.title, title.text) == ("100.1.", "Artefakte", "")
    assert (sub.number, sub.text) == ("100.1a", "Der erste Unterpunkt.")
    assert (short.title, short.text) == (None, "Kurz.")


def test_example_attached_to_its_rule():
    p = parse(HEAD + ["\t100.1. Eine Regel.", "\tBeispiel: Ein Fall ", "mit Fortsetzung.", "", "\t100.2. Noch eine."])
    (ex,) = records_of(p, "example")
    assert p.records[ex.owner].number == "100.1."
    assert (ex.label, ex.text) == ("Beispiel", "Ein Fall mit Fortsetzung.")
    assert [s.line for s in ex.spans] == [4, 5]
    assert p.records[ex.owner].text == "Eine Regel."


def test_truncated_file_raises():
    lines = ["1. Erstes Kapitel\t2", "     100. Abschnitt\t2", "", "Glossar\t3", "", "Index\t4",
             "1. Erstes Kapitel", "100. Abschnitt", "\t100.1. Text.", "Glossar", "", "Begriff", "Erklärung."]
    with pytest.raises(SourceError) as err:
        parse(lines)
    assert err.value.path == "x.txt" and err.value.line == 13
    assert "x.txt:13" in str(err.value)
    assert "promises 'Index'" in str(err.value)


def test_truncated_inside_the_rules_names_the_missing_chapter():
    lines = ["1. Erstes Kapitel\t2", "     100. Abschnitt\t2", "2. Zweites Kapitel\t3",
             "1. Erstes Kapitel", "100. Abschnitt", "\t100.1. Text, der abbricht"]
    with pytest.raises(SourceError, match=r"promises '2\. Zweites Kapitel' but the file ends at line 6"):
        parse(lines)


def test_complete_small_file_with_toc_parses():
    lines = ["1. Erstes Kapitel\t2", "Glossar\t3", "Index\t4", "Titel", "",
             "1. Erstes Kapitel", "100. Abschnitt", "\t100.1. Text.", "Glossar", "", "Begriff", "Erklärung.",
             "Index", "Begriff, 100.1", "\tUnterbegriff 100.1", "Danke", "", "©1999 Jemand"]
    p = parse(lines)
    assert records_of(p, "unparsed") == []
    assert [r.title for r in records_of(p, "glossary")] == ["Begriff"]
    sub = records_of(p, "index")[1]
    assert (sub.title, sub.text, sub.meta["parent_term"]) == ("Unterbegriff", "100.1", "Begriff")
    assert [w.code for w in p.warnings if w.line == 15] == ["index-missing-comma"]
    assert [r.meta["what"] for r in records_of(p, "boilerplate")] == ["credits", "copyright"]


def test_no_rules_at_all_is_a_source_error():
    with pytest.raises(SourceError, match="x.txt"):
        parse(["Nur ein Absatz ohne Regeln."])


LINE_POOL = [
    "", " ", "1. Erstes Kapitel", "2. Zweites Kapitel\t3", "100. Abschnitt", "\t100.1. Text ", "\t100.1a Unterpunkt",
    "100.2 ohne Punkt", "Fortsetzung ", " finden.", "\tBeispiel: Fall", "Glossar", "Index", "Danke", "Begriff",
    "    Tabelle\t\t1", "\tEintrag, 100.1", "Eintrag 100.1–2", "Eintrag, , 100", "Source: geocities.com/x",
    "Glossar\t46", "Index\t74", "©1999", "Spiele  nur, wenn", "410.8).", 'um " ,',
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_POOL), max_size=25))
def test_arbitrary_structure_never_crashes(lines):
    try:
        p = parse(lines)
    except SourceError as e:
        assert e.path == "x.txt"
        return
    covered = Counter(s.line for r in p.records for s in r.spans)
    assert all(lines[n - 1].strip() for n in covered)
    assert {n for n, t in enumerate(lines, 1) if t.strip()} == set(covered)
