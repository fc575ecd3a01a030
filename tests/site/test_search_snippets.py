"""The snippet a search hit shows: about ``width`` words of the text (a third of them before the first matching word,
so the reader sees what leads up to it), "… " where the text goes on before it and " …" where it goes on after,
every matching word inside it in ``<mark>`` (matched as printed or by lemma), the rest of the text escaped.

The texts are hand-made, of words without digits (a snippet counts words of two letters or more); the expected
snippets are written out word by word."""
from __future__ import annotations

from markupsafe import Markup

from kb.site.search import snippet

#: 60 distinct words: bax bex bix box bux cax ... (letters only)
WORDS = [c + v + "x" for c in "bcdfghjklmnp" for v in "aeiou"]
TEXT = " ".join(WORDS)


def shown(first: int, last: int, marked: dict[int, str] | None = None) -> str:
    """Words first..last of WORDS (inclusive) as a snippet prints them, with the words of ``marked`` in <mark>."""
    return " ".join(f"<mark>{WORDS[i]}</mark>" if i in (marked or {}) else WORDS[i] for i in range(first, last + 1))


def test_the_window_leads_up_to_the_first_match_and_says_where_the_text_goes_on():
    assert len(WORDS) == 60 and len(set(WORDS)) == 60
    # the first match is word 30: the window is words 20..51 (32 words, ten before it), cut on both sides
    got = snippet(TEXT, {WORDS[30]}, "en")
    assert isinstance(got, Markup)
    assert str(got) == "… " + shown(20, 51, {30: ""}) + " …"
    # a narrower window: 9 words, three before the match
    assert str(snippet(TEXT, {WORDS[30]}, "en", width=9)) == "… " + shown(27, 35, {30: ""}) + " …"


def test_near_the_start_the_snippet_starts_with_the_text():
    assert str(snippet(TEXT, {WORDS[4]}, "en")) == shown(0, 31, {4: ""}) + " …"
    assert str(snippet(TEXT, {WORDS[10]}, "en")) == shown(0, 31, {10: ""}) + " …"
    assert str(snippet(TEXT, {WORDS[11]}, "en")) == "… " + shown(1, 32, {11: ""}) + " …"


def test_near_the_end_the_snippet_ends_with_the_text():
    assert str(snippet(TEXT, {WORDS[50]}, "en")) == "… " + shown(40, 59, {50: ""})
    short = "cast a spell"
    assert str(snippet(short, {"spell"}, "en")) == "cast a <mark>spell</mark>"


def test_without_a_match_the_snippet_is_the_start_of_the_text():
    assert str(snippet(TEXT, {"zzz"}, "en")) == shown(0, 31) + " …"
    assert str(snippet(TEXT, {"zzz"}, "en", width=2)) == shown(0, 1) + " …"


def test_what_comes_before_the_first_word_is_kept_at_the_start():
    assert str(snippet("„Spell“ (rule 601) — cast it.", {"spell"}, "en")) == (
        "„<mark>Spell</mark>“ (rule 601) — cast it.")
    assert str(snippet("601.2a Casting", {"casting"}, "en")) == "601.2a <mark>Casting</mark>"


def test_every_match_inside_the_window_is_marked_and_none_outside():
    marks = {WORDS[2], WORDS[25], WORDS[33], WORDS[59]}
    # the first match (word 2) opens the window 0..31: word 25 is marked there too, 33 and 59 lie outside
    assert str(snippet(TEXT, marks, "en")) == shown(0, 31, {2: "", 25: ""}) + " …"


def test_a_word_matches_as_printed_in_any_case_or_by_its_lemma():
    text = "Zaubersprüche und Fähigkeiten: jeder Zauberspruch, den ein Spieler wirkt, kostet Mana."
    got = str(snippet(text, {"zauberspruch", "mana"}, "de"))
    assert got == ("<mark>Zaubersprüche</mark> und Fähigkeiten: jeder <mark>Zauberspruch</mark>, den ein Spieler "
                   "wirkt, kostet <mark>Mana</mark>.")
    assert str(snippet("Spells and abilities", {"spell"}, "en")) == "<mark>Spells</mark> and abilities"
    assert str(snippet("Spells and abilities", {"spells"}, "en")) == "<mark>Spells</mark> and abilities"


def test_the_text_is_escaped_and_only_the_marks_are_markup():
    text = 'If a card says <b>"draw"</b> & you draw, draw one card.'
    assert str(snippet(text, {"draw"}, "en")) == (
        "If a card says &lt;b&gt;&#34;<mark>draw</mark>&#34;&lt;/b&gt; &amp; you <mark>draw</mark>, "
        "<mark>draw</mark> one card.")
    # a text with no word to count (numbers, symbols): its first 200 characters, escaped
    digits = "<1> " + "2" * 300
    assert str(snippet(digits, {"x"}, "en")) == "&lt;1&gt; " + "2" * 196
