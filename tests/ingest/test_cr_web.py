"""cr-web, the Comprehensive Rules as a web page (ingest.cr_text's ``_Machine``), on a hand-made page.

The page is modelled on the German seed (data/sources/000_*: "derzeit online: ..." and "zurück zu" navigation,
rules without the trailing dot, "Beispiel:" examples, a "Hinweis des Übersetzers:" note owned by 603.4); the seed
covers chapter 6 only, so the contents, glossary and credits of a whole page are hand-made here, with the
headings the parser knows in German, English and Italian.
"""
import pytest

import ingest
from ingest import SourceError

WORDS = {  # contents, glossary, credits
    "de": ("Inhalt", "Glossar", "Danksagungen"),
    "de-long": ("Inhaltsverzeichnis", "Glossar", "Danksagungen"),
    "en": ("Contents", "Glossary", "Credits"),
    "it": ("Indice", "Glossario", "Riconoscimenti"),
}


def page(contents: str, glossary: str | None, credits: str) -> list[str]:
    lines = [
        "derzeit online: 75 Besucher und 1 registrierter Benutzer",                              # 1
        "",
        "Das Ausführliche Regelwerk",                                                            # 3
        "",
        "Dieses Regelwerk gilt ab dem 8. November 2024. Bitte den Hinweis am Ende beachten.",   # 5
        "Eine zweite Zeile desselben Absatzes,",                                                # 6
        "und eine dritte.",                                                                      # 7
        "",
        contents,                                                                                # 9
        "6. Zaubersprüche, Fähigkeiten und Effekte",                                            # 10
        "601. Zaubersprüche wirken",                                                             # 11
    ] + ([glossary] if glossary else []) + [credits, ""]
    n = len(lines)
    body = [
        "6. Zaubersprüche, Fähigkeiten und Effekte",                                            # n+1
        "",
        "601. Zaubersprüche wirken",                                                             # n+3
        "",
        "601.1 Früher wurde die Aktion, einen Zauberspruch zu wirken, „spielen“ genannt.",      # n+5
        "",
        "Beispiel: Ein Spieler wirkt einen Zauberspruch.",                                        # n+7
        "601.2 Einen Zauberspruch zu wirken bedeutet, ihn auf den Stapel zu legen.",              # n+8
        "601.2a Um das Wirken anzusagen, bewegt ein Spieler die Karte auf den Stapel.",           # n+9
        "Hinweis des Übersetzers: „Stapel“ heißt im Original „stack“.",                           # n+10
        "601.2x3 Eine kaputte Nummer.",                                                           # n+11
        "Text ohne Regel",                                                                        # n+12
        "7. Zusätzliche Regeln →← 5. Zugstruktur",                                                # n+13
        "",
    ]
    back = ([glossary, "", "Abwerfen", "Eine Karte von der Hand auf den Friedhof legen.", "Siehe Regel 701.8.", "",
             "Aktiver Spieler", "Der Spieler, der am Zug ist."] if glossary else []) + [
        credits, "Übersetzung: Mario Haßler", "", "zurück zu \"Das Ausführliche Regelwerk\"",
        " / zurück zur Startseite",
        "Werbung Cardmarket", "Hinweis: Die Comprehensive Rules werden im Original veröffentlicht."]
    assert len(lines) == n
    return lines + body + back


def parse(lines):
    return ingest.parse_lines(lines, "seite.txt", "cr-web", "de")


def summary(parsed, kinds=None):
    return [(r.kind, r.first_line, r.number, r.title, r.text or None, r.label, r.owner, r.meta or None)
            for r in parsed.records if kinds is None or r.kind in kinds]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_front_matter_contents_and_rules(lang):
    contents, glossary, credits = WORDS[lang]
    parsed = parse(page(contents, glossary, credits))
    assert summary(parsed, {"heading", "paragraph", "toc"})[:7] == [
        ("heading", 3, None, "Das Ausführliche Regelwerk", None, None, None, None),
        ("paragraph", 5, None, None, "Dieses Regelwerk gilt ab dem 8. November 2024. Bitte den Hinweis am Ende "
         "beachten. Eine zweite Zeile desselben Absatzes, und eine dritte.", None, None, None),
        ("heading", 9, None, contents, None, None, None, None),
        ("toc", 10, None, "Zaubersprüche, Fähigkeiten und Effekte", None, None, None, {"number": "6", "page": None}),
        ("toc", 11, None, "Zaubersprüche wirken", None, None, None, {"number": "601", "page": None}),
        ("toc", 12, None, glossary, None, None, None, {"number": None, "page": None}),
        ("toc", 13, None, credits, None, None, None, {"number": None, "page": None}),
    ]
    rules = [(r.first_line, r.number, r.title, r.text or None) for r in parsed.records if r.kind == "rule"]
    assert rules == [
        (15, "6.", "Zaubersprüche, Fähigkeiten und Effekte", None), (17, "601.", "Zaubersprüche wirken", None),
        (19, "601.1", None, "Früher wurde die Aktion, einen Zauberspruch zu wirken, „spielen“ genannt."),
        (22, "601.2", None, "Einen Zauberspruch zu wirken bedeutet, ihn auf den Stapel zu legen."),
        (23, "601.2a", None, "Um das Wirken anzusagen, bewegt ein Spieler die Karte auf den Stapel."),
    ]


def test_examples_and_notes_belong_to_the_rule_above():
    parsed = parse(page(*WORDS["de"]))
    owned = [(r.kind, r.first_line, r.label, r.text, parsed.records[r.owner].number) for r in parsed.records
             if r.owner is not None]
    assert owned == [
        ("example", 21, "Beispiel", "Ein Spieler wirkt einen Zauberspruch.", "601.1"),
        ("note", 24, "Hinweis des Übersetzers", "„Stapel“ heißt im Original „stack“.", "601.2a"),
    ]


@pytest.mark.parametrize("label,kind", [("Beispiele", "example"), ("Example", "example"), ("Esempio", "example"),
                                        ("Examples", "example"), ("Esempi", "example"), ("Note", "note"),
                                        ("Nota", "note")])
def test_the_labels_of_examples_and_notes(label, kind):
    lines = ["601. Zaubersprüche wirken", "601.1 Eine Regel.", f"{label}: Ein Fall.", f"{label} : Noch einer."]
    parsed = parse(lines)
    assert [(r.kind, r.label, r.text, r.owner) for r in parsed.records[2:]] == [
        (kind, label, "Ein Fall.", 1), (kind, label, "Noch einer.", 1)]


def test_lines_outside_any_rule_are_kept_and_a_malformed_number_is_warned():
    parsed = parse(page(*WORDS["de"]))
    assert [(r.first_line, r.text, r.meta) for r in parsed.records if r.kind == "unparsed"] == [
        (25, "601.2x3 Eine kaputte Nummer.", {"reason": "malformed rule number"}),
        (26, "Text ohne Regel", {"reason": "text outside any rule, example or note"}),
    ]
    assert [(w.line, w.code, w.message) for w in parsed.warnings] == [
        (25, "malformed-number", "line starts with a malformed rule number: '601.2x3'")]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_glossary_and_credits(lang):
    contents, glossary, credits = WORDS[lang]
    parsed = parse(page(contents, glossary, credits))
    headings = [(r.first_line, r.title) for r in parsed.records if r.kind == "heading"]
    assert headings[-2:] == [(29, glossary), (37, credits)]
    assert [(r.title, r.text, [s.line for s in r.spans]) for r in parsed.records if r.kind == "glossary"] == [
        ("Abwerfen", "Eine Karte von der Hand auf den Friedhof legen.\nSiehe Regel 701.8.", [31, 32, 33]),
        ("Aktiver Spieler", "Der Spieler, der am Zug ist.", [35, 36]),
    ]
    assert [(r.first_line, r.meta["what"], r.text) for r in parsed.records if r.kind == "boilerplate"] == [
        (1, "site", "derzeit online: 75 Besucher und 1 registrierter Benutzer"),
        (27, "site", "7. Zusätzliche Regeln →← 5. Zugstruktur"), (38, "credits", "Übersetzung: Mario Haßler"),
        (40, "site", 'zurück zu "Das Ausführliche Regelwerk"'), (41, "site", "/ zurück zur Startseite"),
        (42, "site", "Werbung Cardmarket"),
        (43, "site", "Hinweis: Die Comprehensive Rules werden im Original veröffentlicht.")]


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_credits_right_after_the_rules(lang):
    contents, _, credits = WORDS[lang]
    parsed = parse(page(contents, None, credits))
    assert [(r.first_line, r.title) for r in parsed.records if r.kind == "heading"][-1] == (28, credits)
    assert [(r.first_line, r.meta["what"]) for r in parsed.records if r.kind == "boilerplate"][-5:] == [
        (29, "credits"), (31, "site"), (32, "site"), (33, "site"), (34, "site")]
    assert not [r for r in parsed.records if r.kind == "glossary"]


def test_a_page_without_contents_starts_with_its_rules():
    parsed = parse(["Das Ausführliche Regelwerk", "", "601.1 Eine Regel.", "", "601.2 Noch eine."])
    assert [(r.kind, r.number) for r in parsed.records] == [("heading", None), ("rule", "601.1"), ("rule", "601.2")]
    parsed = parse(["Vorwort", "601. Zaubersprüche wirken"])
    assert [(r.kind, r.number, r.title) for r in parsed.records] == [
        ("heading", None, "Vorwort"), ("rule", "601.", "Zaubersprüche wirken")]
    parsed = parse(["6. Zaubersprüche, Fähigkeiten und Effekte"])
    assert [(r.kind, r.number) for r in parsed.records] == [("rule", "6.")]


def test_short_unpunctuated_front_lines_are_headings():
    long_title = "Ü" * 79
    parsed = parse([long_title, "A" * 80, "Ende:", "Ende;", "Ende,", "Ende.", "", "Titel", "Absatz eins.", "601.1 R."])
    assert [(r.kind, r.first_line) for r in parsed.records] == [
        ("heading", 1), ("paragraph", 2), ("heading", 8), ("paragraph", 9), ("rule", 10)]
    assert parsed.records[1].text == " ".join(["A" * 80, "Ende:", "Ende;", "Ende,", "Ende."])


def test_a_page_that_ends_before_what_its_contents_promises_is_refused():
    lines = page(*WORDS["de"])
    cut = lines[:lines.index("Aktiver Spieler")]
    with pytest.raises(SourceError) as e:
        parse(cut)
    assert e.value.path == "seite.txt" and e.value.line == len(cut)
    assert e.value.message == f"truncated file: the table of contents promises 'Danksagungen' but the file ends at " \
                              f"line {len(cut)}"
    cut = lines[:lines.index("601.2 Einen Zauberspruch zu wirken bedeutet, ihn auf den Stapel zu legen.")]
    with pytest.raises(SourceError, match="promises 'Glossar' but the file ends at line 21$"):
        parse(cut)


def test_a_page_that_begins_with_a_paragraph():
    parsed = parse(["Dieses Regelwerk gilt ab dem 8. November 2024.", "Bitte beachten.", "", "601.1 Eine Regel."])
    assert [(r.kind, r.text) for r in parsed.records] == [
        ("paragraph", "Dieses Regelwerk gilt ab dem 8. November 2024. Bitte beachten."), ("rule", "Eine Regel.")]


def test_a_rule_number_without_text_and_an_example_after_a_section():
    parsed = parse(["601. Zaubersprüche wirken", "Beispiel: Ein Beispiel zum Abschnitt.", "601.3", "601.3a Text."])
    assert [(r.kind, r.number, r.text, r.owner) for r in parsed.records] == [
        ("rule", "601.", "", None), ("example", None, "Ein Beispiel zum Abschnitt.", 0), ("rule", "601.3", "", None),
        ("rule", "601.3a", "Text.", None)]


def test_an_example_before_any_rule_is_text_outside_the_rules():
    # the contents begins with an unnumbered entry; the body repeats it, and an example follows before any rule
    parsed = parse(["Inhalt", "Einleitung", "601. Zaubersprüche wirken", "", "Einleitung", "Beispiel: Zu früh.",
                    "601. Zaubersprüche wirken", "Beispiel: Danach."])
    assert [(r.kind, r.first_line, r.owner) for r in parsed.records[3:]] == [
        ("unparsed", 5, None), ("unparsed", 6, None), ("rule", 7, None), ("example", 8, 5)]
