"""The word diff of a history step, as `kb history` prints it: the words both texts share as printed, what went in
``[-…-]`` and what came in ``{+…+}`` (a replacement as both, side by side), each keeping the space the text had
after it; terminology and typography shifts folded into the newer wording.  It says the same as the HTML diff the
rule pages show (``<del>``/``<ins>``, folded shifts marked).

Real steps of the seed KB: two rules whose 1999 and 2024 texts are given below (data/sources), and every step of
every history of de-2024."""
from __future__ import annotations

import html
import re

from kb.history import history


def step(conn, number: str, edition: str, previous: str):
    h = history(conn, number, edition)
    return next(e for c in h.chains for e in c.events if e.edition == edition and e.previous == previous)


def test_a_replaced_and_a_deleted_phrase_read_as_such(conn):
    # de-1999 416.3: "Wenn ein Effekt versucht, etwas unmögliches zu tun, versucht er, so viel wie möglich zu tun."
    # de-2024 609.3: "Wenn ein Effekt versucht, etwas Unmögliches zu tun, tut er nur soviel wie möglich."
    ev = step(conn, "609.3", "de-2024", "de-1999")
    assert ev.diff == ("Wenn ein Effekt versucht, etwas Unmögliches zu tun, [-versucht er, so viel-] "
                       "{+tut er nur soviel+} wie möglich [-zu tun-].")
    # en-1999 418.4b: "The effect applies at all times that the permanent generating it is in play."
    # en-2024 611.3b: "... is on the battlefield or the object generating it is in the appropriate zone."
    ev = step(conn, "611.3b", "en-2024-11-08", "en-1999-04-23")
    assert ev.diff == ("The effect applies at all times that the permanent generating it is [-in play-]"
                       "{+on the battlefield or the object generating it is in the appropriate zone+}.")


def as_text(diff_html: str) -> str:
    """The HTML diff in the text diff's notation: <del>x</del> as [-x-], <ins>x</ins> as {+x+}, other marks dropped."""
    text = re.sub(r"<ins>(.*?)</ins>", r"{+\1+}", re.sub(r"<del>(.*?)</del>", r"[-\1-]", diff_html, flags=re.S),
                  flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def test_the_text_diff_says_what_the_html_diff_says(conn):
    diffs = []    # (the steps of the German and the English chain: de-2024 has counterparts in both)
    for (number,) in conn.execute("select number from rules where edition_id = 'de-2024' and number is not null"):
        diffs += [(number, e) for c in history(conn, number, "de-2024").chains for e in c.events if e.diff]
    assert len(diffs) > 50
    folded = 0
    for number, ev in diffs:
        assert "".join(ev.diff.split()) == "".join(as_text(ev.diff_html).split()), (number, ev.edition)
        folded += 'class="term"' in ev.diff_html
    assert folded > 10    # steps with a folded shift (typography, terminology) are among them


def test_an_english_step_keeps_the_english_words_both_texts_share(conn):
    """English words are matched as English: en-1999 406.1b "They're played and resolved exactly like any other
    spell." and en-2024 605.5b "It’s cast and resolves just like any other spell." share "and" and "like any other
    spell", which the diff keeps between the changes."""
    ev = step(conn, "605.5b", "en-2024-11-08", "en-1999-04-23")
    assert "{+when it resolves. It’s cast+} and [-resolved exactly-] {+resolves just+} like any other spell." in ev.diff
