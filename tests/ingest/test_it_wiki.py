"""Tests of the "it-wiki" parser (Italian CR chapter 6 copied from a wiki).

Expected values were read from data/sources/002_d585925650711c17.txt (line
numbers, grep counts), not taken from the parser's output.
"""
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest
from ingest.it_wiki import card_names
from ingest.model import Span
from tests.helpers import ROOT

SOURCE = ROOT / "data" / "sources" / "002_d585925650711c17.txt"


@pytest.fixture(scope="module")
def parsed():
    return ingest.parse_document(SOURCE, "it-wiki", "it")


def by_line(parsed, line):
    recs = [r for r in parsed.records if any(s.line == line for s in r.spans)]
    assert len(recs) == 1, f"line {line} is covered by {len(recs)} records"
    return recs[0]


def rules(parsed, number):
    return [r for r in parsed.records if r.kind == "rule" and r.number == number]


def warnings(parsed, code):
    return sorted(w.line for w in parsed.warnings if w.code == code)


# -- the real file --------------------------------------------------------------
def test_no_unparsed_lines(parsed):
    assert [r for r in parsed.records if r.kind == "unparsed"] == []


def test_record_counts(parsed):
    # grep -cE '^ *• [0-9]{3}\.' -> 304 numbered bullets; grep -cE '^[0-9]{3} - ' -> 17 sections (600-616);
    # grep -c '• Esempio:' -> 66; site title + 2 x "Advertisement" (first and last line)
    kinds = Counter(r.kind for r in parsed.records)
    assert kinds == {"rule": 304 + 17, "example": 66, "boilerplate": 3}


def test_boilerplate(parsed):
    assert by_line(parsed, 1).meta == {"what": "site-title"}
    assert by_line(parsed, 2).meta == {"what": "advertisement"}
    assert by_line(parsed, 435).meta == {"what": "advertisement"}


def test_section_headings(parsed):
    (sec,) = rules(parsed, "601")
    assert (sec.title, sec.text, sec.first_line) == ("Lanciare Magie", "", 6)
    (empty,) = rules(parsed, "600")
    assert empty.title == "Generale"
    (quoted,) = rules(parsed, "610")
    assert quoted.title == 'Effetti "One-Shot"'
    sections = [r.number for r in parsed.records if r.kind == "rule" and r.title]
    assert sections == [str(n) for n in range(600, 617)]


def test_rule_text_is_cleaned_and_complete(parsed):
    rec = by_line(parsed, 9)
    assert rec.number == "601.1a"
    assert rec.text.startswith("Alcuni effetti si riferiscono a “giocare” una carta.")
    assert rec.text.endswith("quale dei due è più appropriato.")


def test_duplicated_616_1f_kept_twice(parsed):
    dups = rules(parsed, "616.1f")
    assert [r.first_line for r in dups] == [429, 433]
    assert dups[0].text.startswith("Dopo che è stato applicato")
    assert dups[1].text.startswith("Mentre si seguono i passi")
    assert warnings(parsed, "duplicate-number") == [433]


def test_misnumbered_613_13c_stays_inside_614(parsed):
    order = [r.number for r in parsed.records if r.kind == "rule"]
    i = order.index("613.13c")
    assert order[i - 1:i + 2] == ["614.13b", "613.13c", "614.14"]
    assert by_line(parsed, 390).number == "613.13c"
    assert warnings(parsed, "section-mismatch") == [390]
    assert 390 in warnings(parsed, "number-backwards")


def test_missing_space_after_number(parsed):
    rec = by_line(parsed, 217)
    assert rec.number == "608.2h"
    assert rec.text.startswith("Se un effetto richiede informazioni dal gioco")
    assert by_line(parsed, 258).number == "610.3b"
    assert by_line(parsed, 258).text.startswith("Se la risoluzione di un'abilità innescata")
    assert warnings(parsed, "missing-space") == [217, 258]


def test_trailing_dots_kept_and_reported(parsed):
    assert [by_line(parsed, n).number for n in (10, 293, 298)] == ["601.2.", "612.5.", "612.10."]
    assert warnings(parsed, "trailing-dot") == [10, 293, 298]


def test_continuation_line_belongs_to_610_3b(parsed):
    rec = by_line(parsed, 259)
    assert rec.number == "610.3b"
    assert [s.line for s in rec.spans] == [258, 259]
    first, second = rec.text.split("\n")
    assert first.startswith("Se la risoluzione")
    assert second.startswith("Se un evento specifico deve necessariamente accadere")
    assert warnings(parsed, "continuation-line") == [259]


def test_list_items_appended_to_their_rule(parsed):
    rec = by_line(parsed, 130)
    assert rec.number == "604.3a"
    assert [s.line for s in rec.spans] == list(range(130, 136))
    items = rec.text.split("\n")
    assert len(items) == 6
    assert items[1].startswith("1) definisce i colori")
    assert items[5].startswith("5) non imposta i valori")
    rec = by_line(parsed, 144)
    assert rec.number == "605.1a"
    assert [s.line for s in rec.spans] == [144, 145, 146, 147]
    assert rec.text.split("\n")[1:] == [
        "Non richiede bersagli (vedi regola 114.6);",
        "Alla sua risoluzione potrebbe aggiungere mana alla riserva di un giocatore;",
        "Non è un'abilità di fedeltà (vedi regola 606, “Abilità di Fedeltà”).",
    ]
    assert [s.line for s in by_line(parsed, 148).spans] == [148, 149, 150, 151]


def test_examples_hang_off_the_preceding_rule(parsed):
    recs = parsed.records
    ex = by_line(parsed, 20)
    assert (ex.kind, ex.label) == ("example", "Esempio")
    assert ex.text.startswith("Lanci un Raccolto dell'Altare")
    assert recs[ex.owner].number == "601.2h"
    assert recs[by_line(parsed, 34).owner].number == "601.4"      # example of a rule (indent 4)
    assert recs[by_line(parsed, 389).owner].number == "614.13b"
    owners = Counter(recs[r.owner].number for r in recs if r.kind == "example")
    assert owners["613.6"] == 4       # lines 327-330
    assert owners["614.12"] == 3      # lines 380-382, before 614.12a
    assert owners["601.3e"] == 2      # lines 30-31


def test_every_example_owner_is_the_last_rule_before_it(parsed):
    last_rule = None
    for i, rec in enumerate(parsed.records):
        if rec.kind == "rule":
            last_rule = i
        elif rec.kind == "example":
            assert rec.owner == last_rule


def test_example_at_unexpected_indent(parsed):
    # line 433: "616.1f" printed at the rule indent (2); its example at 4 instead of 6
    ex = by_line(parsed, 434)
    assert ex.kind == "example"
    assert parsed.records[ex.owner].first_line == 433
    assert warnings(parsed, "example-indent") == [434]
    # 615.13 at the subrule indent, the second 616.1f at the rule indent
    assert warnings(parsed, "rule-indent") == [419, 433]


def test_all_warnings(parsed):
    assert sorted((w.line, w.code) for w in parsed.warnings) == sorted([
        (10, "trailing-dot"), (217, "missing-space"), (258, "missing-space"), (259, "continuation-line"),
        (293, "trailing-dot"), (298, "trailing-dot"), (390, "section-mismatch"), (390, "number-backwards"),
        (419, "rule-indent"), (433, "rule-indent"), (433, "duplicate-number"), (433, "number-backwards"),
        (434, "example-indent"),
    ])


def test_card_names(parsed):
    assert by_line(parsed, 20).meta["card_names"] == ["Altar's Reap", "Nightscape Familiar"]
    assert by_line(parsed, 31).meta["card_names"] == ["Melek, Izzet Paragon", "Giant Killer"]
    assert by_line(parsed, 294).meta["card_names"] == ["Volrath's Shapeshifter"]   # nested parentheses
    assert by_line(parsed, 293).meta["card_names"] == ["Exchange of Words"]         # a rule, not an example
    assert "card_names" not in by_line(parsed, 59).meta                              # "(T)", "(Q)"
    assert "card_names" not in by_line(parsed, 89).meta                              # "(zone-change triggers)"
    found = set()
    for rec in parsed.records:
        found.update(rec.meta.get("card_names", []))
    assert found == {
        "Act of Treason", "Altar's Reap", "Arc-Slogger", "Awakening of Vitu-Ghazi", "Banisher Priest",
        "Blatant Thievery", "Daunting Defender", "Day of Judgment", "Doubling Season", "Dryad Arbor",
        "Endoskeleton", "Exchange of Words", "Felidar Sovereign", "Garruk’s Horde", "Giant Killer", "Gray Ogre",
        "Heart-Piecer Manticore", "Honor of the Pure", "Inscription of Abundance", "Melek, Izzet Paragon",
        "Nightscape Familiar", "Orb of Dreams", "Paradise Plume", "Plague Spores", "Pyroclasm",
        "Quicksilver Elemental", "Rolling Thunder", "Runeclaw Bear", "Scarwood Treefolk", "Shaman's Trance",
        "Sisters of Stone Death", "Sorin's Thirst", "Soulfire Eruption", "Spy Kit", "Sutured Ghoul",
        "Svogthos, the Restless Tomb", "Thunder-Thrash Elder", "Vedalken Orrery", "Voice of All", "Void Winnower",
        "Volrath's Shapeshifter", "Wall of Tears", "Wild Mongrel", "Worms of Earth", "Yixilid Jailer",
    }


def test_registered_with_italian_symbols():
    spec = ingest.PARSERS["it-wiki"]
    assert spec.symbols == "it-bare"


# -- hand-made inputs --------------------------------------------------------------
def parse(*lines):
    return ingest.parse_lines(list(lines), "x.txt", "it-wiki", "it")


def test_small_missing_space_and_trailing_dot():
    p = parse("701 - Azioni[]", "  • 701.1Testo della regola.", "  • 701.2. Altro testo.")
    r1, r2 = p.records[1], p.records[2]
    assert (r1.number, r1.text) == ("701.1", "Testo della regola.")
    assert (r2.number, r2.text) == ("701.2.", "Altro testo.")
    assert [(w.line, w.code) for w in p.warnings] == [(2, "missing-space"), (3, "trailing-dot")]


def test_small_continuation_and_list_items():
    p = parse("701 - Azioni[]", "  • 701.1 Regola:", "    • primo punto;", "seconda riga senza punto elenco")
    assert len(p.records) == 2
    rule = p.records[1]
    assert rule.text == "Regola:\nprimo punto;\nseconda riga senza punto elenco"
    assert rule.spans == [Span(2), Span(3), Span(4)]
    assert [(w.line, w.code) for w in p.warnings] == [(4, "continuation-line")]


def test_small_item_after_example_extends_the_example():
    p = parse("701 - Azioni[]", "  • 701.1 Regola.", "    • Esempio: Primo.", "      • dettaglio")
    ex = p.records[2]
    assert (ex.kind, ex.owner, ex.text) == ("example", 1, "Primo.\ndettaglio")
    assert p.warnings == []


def test_small_example_indent():
    p = parse("701 - Azioni[]", "    • 701.1a Sottoregola.", "    • Esempio: Uno.")
    assert p.records[2].owner == 1
    assert [(w.line, w.code) for w in p.warnings] == [(3, "example-indent")]


def test_small_section_without_edit_marker_and_stray_text():
    p = parse("Titolo del sito", "701 - Azioni", "testo vagante")
    assert [(r.kind, r.title) for r in p.records] == [("boilerplate", None), ("rule", "Azioni"), ("unparsed", None)]


def test_card_name_heuristic():
    text = ("Lanci un Raccolto dell'Altare (Altar's Reap) (vedi regola 601.2) (T) (di solito la mano) "
            "(Honor of the Pure) (Altar's Reap) (zone-change triggers)")
    assert card_names(text) == ["Altar's Reap", "Honor of the Pure"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([
    "", "Advertisement", "601 - Lanciare Magie[]", "  • 601.1 Testo.", "    • 601.1a Testo (Card Name).",
    "      • Esempio: Uno.", "    • Esempio: Due.", "      • 1) punto", "riga libera", "  • 601.2.Testo",
]), max_size=12))
def test_any_line_sequence_is_covered_once(lines):
    p = parse(*lines) if lines else parse("Advertisement")
    covered = Counter(s.line for r in p.records for s in r.spans)
    nonblank = {i for i, line in enumerate(lines or ["Advertisement"], 1) if line.strip()}
    assert set(covered) == nonblank and all(n == 1 for n in covered.values())
