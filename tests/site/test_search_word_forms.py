"""Search finds a word in every form: the query word is lemmatised, so each inflected form of a word finds what
the others find (issue 33: with the query word matched only as printed, "Zaubersprüche" found 107 hits of 320)."""
import re
from collections import Counter

import pytest

from kb.query import connect
from kb.site import search as S


@pytest.fixture(scope="module")
def kb(kb_db):
    conn = connect(kb_db)
    return conn, S.index(conn)


def found(kb, query: str) -> Counter:
    conn, idx = kb
    res = S.search(conn, idx, query, lang="de", widen=False, limit=5000)
    return Counter((h.kind, h.edition, h.url, re.sub(r"<[^>]+>", "", str(h.snippet))) for h in res.hits)


@pytest.mark.parametrize("forms", [("Zauberspruch", "Zaubersprüche", "Zaubersprüchen"), ("Karte", "Karten"),
                                   ("Fähigkeit", "Fähigkeiten")])
def test_every_form_of_a_word_finds_the_same_texts(kb, forms):
    hits = [found(kb, form) for form in forms]
    assert all(h == hits[0] for h in hits[1:]), forms
    for form in forms:
        # each form finds texts printing only the other forms (not a text that happens to print both)
        alone = [text for _, _, _, text in hits[0] if not re.search(rf"\b{form}\b", text, re.IGNORECASE)]
        assert alone, form
