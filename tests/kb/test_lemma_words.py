"""kb.lemmas.words cuts text into words exactly as spaCy's tokenizer does, without running it on plain words."""
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kb import lemmas


def spacy_words(text: str, lang: str) -> list[str]:
    """The reference: every token of spaCy's blank tokenizer, letters only, two or more."""
    return [w for tok in lemmas._tokenizer(lang)(text) for w in lemmas._WORD.findall(tok.text)]


@pytest.mark.parametrize("text,lang", [
    ("You cannot cast it. Cannot be countered; don't.", "en"),
    ("Regel\u00a0601.2f, z.B. die Kosten (siehe Regeln 601.2a–e) — „Zauberspruch“.", "de"),
    ("dell'avversario all'inizio, l’abilità  doppio  spazio", "it"),
    ("  leading and trailing  ", "en"),
    ("x y zz 7a {T}: Add {G}.", "en"),
    ("(cannot) cannot. Cannot, etc., e.g. (Mr. \"Aura\" players' it's 'tis (a) 2x.", "en"),
    ("(Karte) Spieler, „Zauber“ usw. z.B., Nr., Abs. (vgl. «Mana» 3.", "de"),
    ("(carta) giocatore, «magia» ecc. pag. (l’abilità) po' all'", "it"),
    # special cases that cut a word, alone and behind prefixes and suffixes: "can't" -> "ca" "n't"
    ("can't (can't) “don't” can't's Don't! cannot. (cannot dont isn't, can't've C'mon! I'ma can’t", "en"),
    # ... and where they do not apply: inside a longer piece, or where the affixes are not cut off
    ("xcan't can'tx don't-care can't/won't US$can't e.g.,can't dishes identified hes wed. (Im) its", "en"),
    ("((can't)) 'can't' --can't can't-- can't... don't—it isn't: don't2 x²y ½can't can't\u00a0do", "en"),
])
def test_hand_made_texts(text, lang):
    assert lemmas.words(text, lang) == spacy_words(text, lang)


def test_spacy_cuts_the_pieces_where_the_rules_cannot_say(monkeypatch):
    """Where a special case that cuts a word might apply elsewhere than where the affixes leave it (a spaCy whose
    tokenizer works otherwise), the pieces that hold one are cut by spaCy itself: the same words."""
    text = "(can't) “don't” cannot. dishes isn't, player's"
    rules = lemmas._rules("en")
    monkeypatch.setattr(lemmas, "_rules", lambda lang: rules._replace(exact=False))
    lemmas._piece_words.cache_clear()
    try:
        assert lemmas.words(text, "en") == spacy_words(text, "en") == ["ca", "do", "can", "not", "dishes", "is",
                                                                       "player"]
    finally:
        lemmas._piece_words.cache_clear()


def test_every_text_of_the_kb(kb_db):
    """All rule and item texts of the built KB, in their language."""
    conn = sqlite3.connect(kb_db)
    rows = conn.execute("""select e.language, coalesce(r.title, '') || ' ' || coalesce(r.text, '')
                           from rules r join editions e on e.id = r.edition_id
                           union select e.language, coalesce(i.title, '') || ' ' || coalesce(i.text, '')
                           from items i join editions e on e.id = i.edition_id""").fetchall()
    assert len({lang for lang, _ in rows}) == 3
    differ = [(lang, text) for lang, text in rows if lemmas.words(text, lang) != spacy_words(text, lang)]
    assert differ == []


def test_decoded_dictionary_copy_has_the_shipped_entries(tmp_path, monkeypatch):
    """The decoded copy that setup writes holds exactly simplemma's entries; without a copy (or with a damaged
    one) the shipped file is decoded as before, so the lemmas never depend on whether setup wrote it."""
    import simplemma
    from simplemma.strategies.dictionaries.dictionary_factory import _load_dictionary_from_disk

    monkeypatch.setattr(lemmas, "DECODED_DIR", tmp_path)
    monkeypatch.setattr(lemmas, "RULES_DIR", tmp_path / "spacy")
    shipped = _load_dictionary_from_disk("it")
    without = lemmas._Dictionaries().get_dictionary("it")
    assert not list(tmp_path.iterdir()) and len(without) == len(shipped)
    written = lemmas.prepare(("it",))
    assert [p.parent for p in written] == [tmp_path, tmp_path / "spacy"] and lemmas.prepare(("it",)) == []
    copied = lemmas._Dictionaries().get_dictionary("it")
    assert {key.encode(): copied[key].encode() for key in copied} == shipped and len(copied) == len(shipped)
    written[0].write_bytes(b"not a database")
    assert len(lemmas._Dictionaries().get_dictionary("it")) == len(shipped)
    for word in ("magie", "giocatori", "lanciate", "creature"):
        assert lemmas.lemma(word, "it") == simplemma.lemmatize(word, lang="it").lower()


def test_tokenizer_rules_file(tmp_path, monkeypatch):
    """The rules :func:`words` needs, saved for the spaCy version, read back the same; with them, cutting English
    text into words does not import spaCy."""
    monkeypatch.setattr(lemmas, "RULES_DIR", tmp_path)
    lemmas._rules.cache_clear()
    try:
        taken = lemmas._rules("en")   # no file: taken from spaCy and saved
        assert [p.parent for p in tmp_path.iterdir()] == [tmp_path]
        lemmas._rules.cache_clear()
        assert lemmas._rules("en") == taken and "can't" in taken.cuts and taken.exact
    finally:
        lemmas._rules.cache_clear()
    lemmas.prepare()   # what setup does
    code = ("import sys; from kb import lemmas; "
            "assert lemmas.words(\"(can't) player's\", 'en') == ['ca', 'player']; print('spacy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(lemmas.__file__).parents[1])
    assert done.stdout.split() == ["False"]
