"""A document is accepted only when it is plausibly whole: a plain-text CR has its contents, rules in every chapter
the contents lists and rule numbers mostly in order; the 1999 booklet has its glossary, its index and the credits
after it; no file is far larger than any edition, no line longer than any rule.  ``--allow-partial`` adds a
fragment on purpose, and the manifest records it.  Every edition of the sample archive (tests/corpus/crs) stays
accepted except the one that really is truncated."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest
from ingest.complete import in_order
from kb.add import AddOptions, add_files
from kb.manifest import load
from tests.helpers import SEEDS

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "crs"
TRUNCATED = "en-2013-02-01.txt"
BOOKLET = SEEDS["001"]


def empty_data(tmp_path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    (data / "manifest.toml").write_text("# test\n", encoding="utf-8")
    return data


def refused(tmp_path, name: str, content: bytes, **opts):
    """``kb add`` of ``content``: the refusal message (the data folder unchanged), or fail."""
    data = empty_data(tmp_path)
    path = tmp_path / name
    path.write_bytes(content)
    before = sorted(p.name for p in data.rglob("*")), (data / "manifest.toml").read_bytes()
    result = add_files([path], AddOptions(**opts), data)[0]
    assert not result.ok, f"accepted: {result.message}"
    assert (sorted(p.name for p in data.rglob("*")), (data / "manifest.toml").read_bytes()) == before
    assert result.message.startswith(f"{path}:"), result.message      # file:line
    return result.message


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("en-*.txt")))
def test_every_sample_edition_is_whole_except_the_truncated_one(name):
    path = CORPUS / name
    try:
        lines = ingest.read_lines(path)
        missing = ingest.incomplete(ingest.parse_lines(lines, str(path), "cr-text", "en"), lines, "cr-text")
    except ingest.SourceError as e:
        missing = e.message
    assert (missing is not None) == (name == TRUNCATED), missing


def test_one_rule_line_is_not_a_rules_document(tmp_path):
    message = refused(tmp_path, "hello.txt", b"100.1. Hello world.\n", date="2024-01-01", language="en")
    assert "no table of contents" in message


def test_a_rules_text_with_its_rules_shuffled_is_refused(tmp_path):
    lines = (CORPUS / "en-2024-11-08.txt").read_bytes().split(b"\n")
    body = [i for i, line in enumerate(lines) if line[:3].isdigit() and b"." in line[:7] and i > 300]
    moved = [lines[i] for i in body]
    random.Random(30).shuffle(moved)
    for i, line in zip(body, moved):
        lines[i] = line
    message = refused(tmp_path, "shuffled.txt", b"\n".join(lines))
    assert "rule numbers out of order" in message


def test_a_chapter_the_contents_lists_must_have_rules(tmp_path):
    text = (CORPUS / "en-2024-11-08.txt").read_bytes()
    lines = text.split(b"\n")
    # drop the rules of chapter 9 (909.1 ...), keep its heading and sections' headings
    kept = [line for line in lines if not (line[:2] == b"90" and line[3:4] == b"." and line[4:5].isdigit())]
    assert len(kept) < len(lines)
    message = refused(tmp_path, "no-chapter-9.txt", b"\n".join(kept))
    assert "chapter 9" in message and "no rule of it" in message


def test_a_rules_text_without_the_glossary_its_contents_lists_is_refused(tmp_path):
    # case from /work/indep/documents.tsv (independent case writer): en-2024-11-08 with its Glossary removed
    lines = (CORPUS / "en-2024-11-08.txt").read_bytes().split(b"\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == b"Glossary" and i > 300)
    end = next(i for i, line in enumerate(lines) if line.strip() == b"Credits" and i > start)
    message = refused(tmp_path, "no-glossary.txt", b"\n".join(lines[:start] + lines[end:]))
    assert "'Glossary'" in message and "no glossary entry" in message


def test_two_editions_glued_together_are_refused(tmp_path):
    # case from /work/indep/documents.tsv: en-2024-08-02 followed by en-2024-11-08 in one file
    first = (CORPUS / "en-2024-08-02.txt").read_bytes()
    second = (CORPUS / "en-2024-11-08.txt").read_bytes().removeprefix(b"\xef\xbb\xbf")
    message = refused(tmp_path, "glued.txt", first + b"\r\n" + second)
    assert "glued together" in message


def test_every_rule_printed_twice_is_out_of_order(tmp_path):
    lines = (CORPUS / "en-2024-11-08.txt").read_bytes().split(b"\n")
    twice = [x for i, line in enumerate(lines)    # every rule of the body printed twice (the contents left as it is)
             for x in ([line, line] if i > 300 and line[:3].isdigit() and b"." in line[:7] else [line])]
    message = refused(tmp_path, "twice.txt", b"\n".join(twice))
    assert "rule numbers out of order" in message


@pytest.mark.parametrize("keys, kept", [
    ([1, 2, 3, 4], [True] * 4),
    ([1, 9, 2, 3, 4], [True, False, True, True, True]),        # one misprinted number costs one rule
    ([1, 2, 3, 1, 2, 3], [True, True, True, False, False, False]),  # a copy glued on: its second half
    ([1, 2, 2, 3], [True, True, False, True]),                 # a repeated number is out of place once
    ([3, 2, 1], [True, False, False]),
    ([], []),
])
def test_the_rules_in_order_are_a_longest_increasing_run_the_earliest_one(keys, kept):
    assert in_order(keys) == kept


BOOKLET_OPTS = dict(parser="cr-1999-pdf", edition="de-1999-cut", language="de", date="1999-04-02")


def cut_booklet(share: float) -> bytes:
    lines = BOOKLET.read_bytes().split(b"\n")
    return b"\n".join(lines[: int(len(lines) * share)])


@pytest.mark.parametrize("share", [0.98, 0.9, 0.6])
def test_the_1999_booklet_cut_short_is_refused(tmp_path, share):
    message = refused(tmp_path, "cut.txt", cut_booklet(share), **BOOKLET_OPTS)
    assert any(w in message for w in ("credits after the index", "no index", "no glossary", "truncated"))


def test_allow_partial_adds_the_cut_booklet_and_the_manifest_records_it(tmp_path):
    data = empty_data(tmp_path)
    (tmp_path / "cut.txt").write_bytes(cut_booklet(0.98))   # its index is cut: refused without the flag
    added = add_files([tmp_path / "cut.txt"], AddOptions(allow_partial=True, **BOOKLET_OPTS), data)[0]
    assert added.ok and any("allow-partial" in n and "credits after the index" in n for n in added.notes)
    assert load(data / "manifest.toml").documents[0].partial is True


def test_the_whole_1999_booklet_is_accepted(tmp_path):
    data = empty_data(tmp_path)
    added = add_files([BOOKLET], AddOptions(parser="cr-1999-pdf", edition="de-1999", language="de",
                                            date="1999-04-02"), data)[0]
    assert added.ok, added.message


def test_a_file_far_larger_than_any_edition_is_refused_with_its_line(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.write(b"x" * 100 + b"\n")
        fh.write(b"y" * ingest.MAX_FILE_BYTES)
    with pytest.raises(ingest.SourceError) as e:
        ingest.read_lines(big)
    assert e.value.line == 2 and "far larger than any rules document" in e.value.message


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 2 * ingest.MAX_LINE_CHARS), min_size=1, max_size=6))
def test_a_line_longer_than_any_rule_is_refused_with_its_line(tmp_path_factory, lengths):
    path = tmp_path_factory.mktemp("lines") / "doc.txt"
    path.write_text("\n".join("a" * n for n in lengths) + "\n", encoding="utf-8")
    too_long = [no for no, n in enumerate(lengths, 1) if n > ingest.MAX_LINE_CHARS]
    if too_long:
        with pytest.raises(ingest.SourceError) as e:
            ingest.read_lines(path)
        assert e.value.line == too_long[0] and "longer than any rule" in e.value.message
    else:
        assert [len(line) for line in ingest.read_lines(path)][:len(lengths)] == lengths
