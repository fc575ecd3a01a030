"""Hostile and damaged input: every parser either refuses a document cleanly (file and line) or
accepts it with every line accounted for; never a traceback, never a change to data/."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ingest
from kb.add import AddOptions, add_files
from tests.helpers import FIXTURES, SEEDS

DOCUMENTS = [
    (FIXTURES / "cr_text" / "MagicCompRules-mini.txt", "cr-text", "en"),
    (SEEDS["000"], "cr-web", "de"),
    (SEEDS["001"], "cr-1999-pdf", "de"),
    (SEEDS["002"], "it-wiki", "it"),
    (SEEDS["003"], "article", "de"),
    (SEEDS["004"], "morph-wiki", "de"),
]


def truncate(data: bytes, rnd: random.Random) -> bytes:
    return data[: rnd.randrange(len(data))]


def shuffle_lines(data: bytes, rnd: random.Random) -> bytes:
    lines = data.split(b"\n")
    a = rnd.randrange(len(lines))
    b = min(len(lines), a + rnd.randrange(2, 40))
    part = lines[a:b]
    rnd.shuffle(part)
    return b"\n".join(lines[:a] + part + lines[b:])


def flip_bytes(data: bytes, rnd: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rnd.randrange(1, 20)):
        buf[rnd.randrange(len(buf))] = rnd.randrange(256)
    return bytes(buf)


def swap_encoding(data: bytes, rnd: random.Random) -> bytes:
    text = data.decode("utf-8", errors="replace")
    encoding = rnd.choice(["utf-16", "utf-16-be", "cp1252", "latin-1", "utf-8-sig"])
    return text.encode(encoding, errors="replace")


MUTATIONS = [truncate, shuffle_lines, flip_bytes, swap_encoding]


def accounted(parsed: ingest.Parsed, lines: list[str]) -> bool:
    """Every non-blank line is covered completely by the records' spans."""
    covered: dict[int, list[tuple[int, int]]] = {}
    for rec in parsed.records:
        for s in rec.spans:
            end = len(lines[s.line - 1]) if s.end is None else s.end
            covered.setdefault(s.line, []).append((s.start, end))
    for no, text in enumerate(lines, 1):
        if not text.strip():
            continue
        pos = 0
        for a, b in sorted(covered.get(no, [])):
            if text[pos:a].strip():
                return False
            pos = max(pos, b)
        if text[pos:].strip():
            return False
    return True


@pytest.mark.parametrize("path, parser, lang", DOCUMENTS, ids=[d[1] for d in DOCUMENTS])
@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), mutation=st.sampled_from(MUTATIONS))
def test_a_mutated_document_is_refused_cleanly_or_fully_accounted(tmp_path_factory, path, parser, lang, seed,
                                                                   mutation):
    data = mutation(path.read_bytes(), random.Random(seed))
    target = tmp_path_factory.mktemp("hostile") / "doc.txt"
    target.write_bytes(data)
    try:
        lines = ingest.read_lines(target)
        parsed = ingest.parse_lines(lines, str(target), parser, lang)
    except ingest.SourceError as e:
        assert str(e).startswith(str(target)) and e.message
        assert "bug in the parser" not in e.message, e.message
        return
    assert accounted(parsed, lines)
    ingest.incomplete(parsed, lines, parser)  # answers, whatever the input


@pytest.mark.parametrize("path, parser, lang", DOCUMENTS[:4], ids=[d[1] for d in DOCUMENTS[:4]])
def test_kb_add_of_damaged_files_never_changes_data_unless_it_adds(tmp_path, path, parser, lang):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "manifest.toml").write_text("# test\n", encoding="utf-8")
    rnd = random.Random(7)
    for k, mutation in enumerate(MUTATIONS * 2):
        before = sorted(p.name for p in data_dir.rglob("*")), (data_dir / "manifest.toml").read_bytes()
        bad = tmp_path / f"bad-{k}.txt"
        bad.write_bytes(mutation(path.read_bytes(), rnd))
        result = add_files([bad], AddOptions(parser=parser, edition=f"x-{k}", language=lang, date="2024"),
                           data_dir)[0]
        after = sorted(p.name for p in data_dir.rglob("*")), (data_dir / "manifest.toml").read_bytes()
        if result.ok:
            assert (data_dir / "sources" / f"x-{k}.txt").read_bytes() == bad.read_bytes()
        else:
            assert str(bad) in result.message and after == before
