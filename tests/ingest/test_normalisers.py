"""Shared normalisers on small hand-made inputs: numbers, references, symbols, wrapped lines, lemmas."""
import pytest

from ingest import numbers, symbols
from ingest.refs import find_refs
from ingest.text import clean, join_wrapped
from kb import lemmas


@pytest.mark.parametrize("printed,norm,level,parent", [
    ("601.2.", "601.2", "rule", "601"), ("601.2f", "601.2f", "subrule", "601.2"), ("601.", "601", "section", "6"),
    ("6.", "6", "chapter", None), ("100.1.", "100.1", "rule", "100"), ("702.34a.", "702.34a", "subrule", "702.34"),
])
def test_numbers(printed, norm, level, parent):
    assert numbers.normalize(printed) == norm
    assert numbers.level(norm) == level
    assert numbers.parent(norm) == parent


def test_number_order_and_ranges():
    existing = ["601", "601.1", "601.2", "601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.3",
                "613.7k", "613.7m"]
    assert numbers.sort_key("601.2") < numbers.sort_key("601.2a") < numbers.sort_key("601.3")
    assert numbers.sort_key("613.9") < numbers.sort_key("613.10")
    assert numbers.expand_range("601.2a", "e", existing) == ["601.2a", "601.2b", "601.2c", "601.2d", "601.2e"]
    assert numbers.expand_range("601.1", "3", existing) == ["601.1", "601.2", "601.3"]
    # letters that do not exist (l, o) are never invented
    assert numbers.expand_range("613.7k", "m", existing) == ["613.7k", "613.7m"]
    assert numbers.expand_range("306", "311", ["305", "306", "307", "311", "312"]) == ["306", "307", "311"]


def refs(text, bare=False):
    return [(r.target, r.range_end) for r in find_refs(text, bare=bare)]


@pytest.mark.parametrize("text,expected", [
    ("siehe Regel\u00a0601.2f", [("601.2f", None)]),
    ("Regeln 601.2a–e", [("601.2a", "e")]),
    ("(Regel 601.2f–h)", [("601.2f", "h")]),
    ("(siehe Regel 730, „Handhabung illegaler Aktionen“)", [("730", None)]),
    ("vedi regola 700.2", [("700.2", None)]),
    ("vedi regole 601.2a-d", [("601.2a", "d")]),
    ("(Siehe Regeln 306-311 und Kapitel 5, \"Zusätzliche Kampfregeln\")", [("306", "311"), ("5", None)]),
    ("siehe Regel 118.8 und Regel 118.9", [("118.8", None), ("118.9", None)]),
    ("die in 601.2a–h beschriebenen Schritte", [("601.2a", "h")]),
    ("see rule 115, and rule 418.5c of the rules", [("115", None), ("418.5c", None)]),
    # the English rules call a chapter a section (en-2024-11-08 100.1b; the glossary's Step and Phase)
    ("See section 8, “Multiplayer Rules.”", [("8", None)]),
    ("(See rules 306-311 and section 5, \"Additional Combat Rules.\")", [("306", "311"), ("5", None)]),
    ("Eine 1/3-Kreatur am 28.12.2009 mit X=5 und 2 Schadenspunkten", []),
])
def test_reference_forms(text, expected):
    assert refs(text) == expected


def test_index_reference_lists():
    assert refs("214.8c–i, 412.2, 420", bare=True) == [("214.8c", "i"), ("412.2", None), ("420", None)]
    assert refs("404.1–2, 406.2b", bare=True) == [("404.1", "2"), ("406.2b", None)]


@pytest.mark.parametrize("scheme,printed,canonical", [
    ("de-braces", "{1}{s}, {X}{r}{r}, {tap}: {enttap}", "{1}{B}, {X}{R}{R}, {T}: {Q}"),
    ("font-1999", "Manakosten von o2oW; o2oWoB; ( ocT ); \"oX\"", "Manakosten von {2}{W}; {2}{W}{B}; ( {T} ); \"{X}\""),
    ("it-bare", "che costa 1B e \"2, T: Guadagni\"; (T) o (Q)",
     "che costa {1}{B} e \"{2}, {T}: Guadagni\"; ({T}) o ({Q})"),
    ("font-1999", "oder Worte wie oben bleiben", "oder Worte wie oben bleiben"),
])
def test_symbols(scheme, printed, canonical):
    assert symbols.normalize(printed, scheme) == canonical


def test_wrapped_lines():
    assert join_wrapped(["alle möglichen Regelun-", "klarheiten"]) == "alle möglichen Regelunklarheiten"
    assert join_wrapped(["Copyright-", "Information und"]) == "Copyright-Information und"
    assert join_wrapped(["Ersatz-", "und Verhinderungseffekte"]) == "Ersatz- und Verhinderungseffekte"
    assert clean("Regel\u00a0601.3  und\t mehr ") == "Regel 601.3 und mehr"


@pytest.mark.parametrize("lang,text,lemma", [
    ("de", "Zaubersprüche", "zauberspruch"), ("de", "gewirkt", "wirken"), ("it", "magie", "magia"),
    ("de", "Fähigkeiten", "fähigkeit"),
])
def test_lemmas(lang, text, lemma):
    assert lemmas.lemmatize(text, lang) == lemma
