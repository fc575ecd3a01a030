"""cr-text on the 13 sample editions of the official plain-text CR archive (tests/corpus/crs, see its README).

Every count the parser produces is compared with an independent scan of the same file: a few lines of
obviously-correct code that know nothing of the parser (rules are numbered lines after a blank line,
validated as a numbering; examples are "Example:" lines; glossary terms are unindented lines that open a
paragraph of the glossary).  A test parses the files it reads itself (some 0.1 s each), not a fixture shared
by the module: the mutation check (scripts/mutation.sh) runs, for a mutant, the tests that call its function.
"""
import codecs
import re
from collections import Counter
from pathlib import Path

import pytest

import ingest
from ingest import SourceError, numbers

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "crs"
FILES = sorted(p.name for p in CORPUS.glob("en-*.txt"))
TRUNCATED = "en-2013-02-01.txt"
COMPLETE = [f for f in FILES if f != TRUNCATED]


# --- the independent scan -------------------------------------------------------------------------------

NUMBER = re.compile(r"^\s*(\d{1,3})\.(?: ?(\d+[a-z]?))?\.?(?=\s|[A-Z]|$)")
EXAMPLE = re.compile(r"^\s*(Example|EXAMPLE)S?:")


def read(name: str) -> list[str]:
    """The file's lines, decoded by its byte-order mark (else UTF-8, else cp1252); CRLF, CR and LF."""
    data = (CORPUS / name).read_bytes()
    for bom, enc in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            text = data.decode(enc)
            break
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252")
    lines = re.split(r"\r\n|\r|\n", text)
    return lines[:-1] if lines[-1] == "" else lines


def is_separator(line: str) -> bool:
    return not line.strip() or set(line.strip()) <= set("-=")


def order(number: tuple[int, str | None]) -> tuple:
    head, rest = number
    rule = int(re.match(r"\d+", rest).group()) if rest else -1
    letter = rest.lstrip("0123456789") if rest else ""
    return (head if head < 10 else head // 100, -1 if head < 10 else head, rule, letter)


def independent_count(name: str) -> dict:
    """Rules, examples and glossary terms as the file's own layout and numbering imply them."""
    lines = read(name)
    chapter_one = [i for i, line in enumerate(lines) if re.match(r"1\.\s", line.strip())]
    body_start = chapter_one[1]  # the first is the contents entry
    glossary = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    rules, wrapped, examples = [], [], 0
    for i in range(body_start, glossary):
        examples += bool(EXAMPLE.match(lines[i]))
        m = NUMBER.match(lines[i])
        if not m:
            continue
        number = (int(m.group(1)), m.group(2))
        if is_separator(lines[i - 1]):
            rules.append((i + 1, number))
        else:
            # a numbered line that continues a paragraph is a wrapped cross-reference: never the next rule
            # (it goes backwards, or the sentence above is unfinished)
            above = lines[i - 1].strip()
            assert not rules or order(number) <= order(rules[-1][1]) or not above.endswith("."), (name, i + 1)
            wrapped.append(i + 1)
    # validate the numbering: it only goes forward, but for the few misprints of the source
    descents = [line for (_, a), (line, b) in zip(rules, rules[1:], strict=False) if order(b) <= order(a)]
    end = next((i for i in range(glossary + 1, len(lines)) if lines[i].strip() in ("Credits", "Index")), len(lines))
    terms = [lines[i].strip() for i in range(glossary + 1, end)
             if not is_separator(lines[i]) and not lines[i][0].isspace() and is_separator(lines[i - 1])
             and i + 1 < len(lines) and lines[i + 1].strip()]
    return {
        "rules": [f"{h}.{r}" if r else str(h) for _, (h, r) in rules],
        "examples": examples,
        "glossary": terms,
        "descents": descents,
        "wrapped": wrapped,
    }


# --- one parse per file ---------------------------------------------------------------------------------

class Parsed(dict):
    """The parse of each file a test asks for (or the SourceError refusing it), made when first asked for."""

    def __missing__(self, name):
        try:
            self[name] = ingest.parse_document(CORPUS / name, "cr-text", "en")
        except SourceError as e:
            self[name] = e
        return self[name]


@pytest.fixture   # (a file is parsed in each test that reads it: the mutation check runs a test with what it calls)
def parsed():
    return Parsed()


@pytest.fixture(scope="module")
def counted():
    return {name: independent_count(name) for name in FILES}


def rule_map(p):
    return {numbers.normalize(r.number): r for r in p.records if r.kind == "rule"}


def test_the_corpus_is_the_development_sample():
    assert len(FILES) == 13 and (CORPUS / "README.md").exists()


@pytest.mark.parametrize("name", COMPLETE)
def test_rules_examples_and_glossary_match_the_independent_count(name, parsed, counted):
    p, want = parsed[name], counted[name]
    kinds = Counter(r.kind for r in p.records)
    assert kinds["unparsed"] == 0
    assert [numbers.normalize(r.number) for r in p.records if r.kind == "rule"] == want["rules"]
    assert kinds["example"] == want["examples"]
    assert [r.title for r in p.records if r.kind == "glossary"] == want["glossary"]
    # every misprint that breaks the numbering is reported where it is
    reported = {w.line for w in p.warnings if w.code in ("number-backwards", "duplicate-number")}
    assert set(want["descents"]) <= reported and len(want["descents"]) <= 2
    # wrapped lines that begin with a number stay inside their rule
    for line in want["wrapped"]:
        owner = next(r for r in p.records if any(s.line == line for s in r.spans))
        assert owner.kind == "rule" and owner.first_line < line


@pytest.mark.parametrize("name", COMPLETE)
def test_every_line_is_attributed_and_no_word_is_lost(name, parsed):
    p, lines = parsed[name], ingest.read_lines(CORPUS / name)
    covered = Counter(s.line for r in p.records for s in r.spans)
    assert set(covered) == {no for no, line in enumerate(lines, 1) if line.strip()}
    assert max(covered.values()) == 1
    for r in p.records:
        have = " ".join(str(v) for v in (r.number, r.title, r.label, r.text) if v).lower()
        raw = re.sub(r"\d{3}\.\d+[a-z]?", " ", " ".join(lines[s.line - 1] for s in r.spans)).lower()
        missing = {w for w in re.findall(r"[^\W\d_]{3,}", raw) if w not in have}
        assert not missing, (name, r.first_line, sorted(missing)[:5])


def test_the_truncated_edition_is_refused_naming_what_is_missing(parsed, counted):
    e = parsed[TRUNCATED]
    assert isinstance(e, SourceError)
    lines = read(TRUNCATED)
    assert e.line == len(lines) == 4609 and lines[-1].strip() == "Attack Multiple Players"
    assert e.message.startswith("truncated file: its text ends at line 4609 inside 'Glossary'")
    assert "'Credits'" in e.message
    assert e.message.endswith("up to 'Customer Service Information', missing from the body")
    assert len(counted[TRUNCATED]["rules"]) > 2000  # the rules are all there: it is the end that is missing


# --- texts, read from the files -------------------------------------------------------------------------

def lines_from(name: str, prefix: str) -> list[str]:
    """The lines of the paragraph that starts with ``prefix`` (up to the next blank line)."""
    lines = read(name)
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(prefix))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    return lines[start:end]


def test_a_continuation_paragraph_is_part_of_its_rule(parsed):
    first, second = lines_from("en-2024-11-08.txt", "205.4c ")
    assert second.startswith("     ")
    rule = rule_map(parsed["en-2024-11-08.txt"])["205.4c"]
    assert rule.text == first[len("205.4c "):].strip() + "\n" + second.strip()
    assert [s.line for s in rule.spans] == [1445, 1446]


def test_a_hard_wrapped_1999_rule_is_joined(parsed):
    wrapped = lines_from("en-1999-04-23.txt", "408.1h ")
    assert len(wrapped) == 3 and wrapped[2].strip().startswith("419,")  # a wrapped line that begins with a number
    rule = rule_map(parsed["en-1999-04-23.txt"])["408.1h"]
    assert rule.text == " ".join(line.strip() for line in wrapped)[len("408.1h "):]


def test_a_hard_wrapped_2003_rule_with_a_wrapped_rule_number_and_an_indented_paragraph(parsed):
    rule = rule_map(parsed["en-2003-10-01.txt"])["413.2d"]
    first, second = rule.text.split("\n")
    assert "simultaneously. See rule 103.4. If a player must make more than one choice at a time" in first
    assert second.startswith("Some spells and abilities have multiple steps or actions")
    assert "103.4" not in rule_map(parsed["en-2003-10-01.txt"]) or \
        rule_map(parsed["en-2003-10-01.txt"])["103.4"].first_line < rule.first_line


def test_the_1999_edition_has_all_rules_from_100_to_502_and_its_glossary_and_index(parsed, counted):
    p = parsed["en-1999-04-23.txt"]
    rules = rule_map(p)
    contents = [int(m.group(1)) for line in read("en-1999-04-23.txt")[:100]
                if (m := re.match(r"^\s+(\d{3})\. ", line))]
    assert contents[0] == 100 and contents[-1] == 502
    assert sorted(int(n) for n in rules if numbers.level(n) == "section") == contents
    assert [n for n in rules if numbers.level(n) == "chapter"] == ["1", "2", "3", "4", "5"]
    assert "100.1" in rules and "502.9g" in rules and rules["305.3"].text.startswith("After triggered abilities")
    kinds = Counter(r.kind for r in p.records)
    assert kinds["glossary"] == len(counted["en-1999-04-23.txt"]["glossary"]) > 150
    assert kinds["index"] > 100
    assert ingest.registry.get("cr-text").name in ingest.PARSERS  # `kb parsers` lists it


def test_warnings_of_the_sample(parsed):
    def found(name, code):
        return [(w.line, w.number) for w in parsed[name].warnings if w.code == code]

    assert found("en-2009-07-11.txt", "heading-mismatch") == [(150, "1")]
    for name, line in (("en-2022-11-18.txt", 6088), ("en-2024-08-02.txt", 6504), ("en-2024-11-08.txt", 6515)):
        assert found(name, "missing-space") == [(line, "901.4")]
        assert rule_map(parsed[name])["901.4"].text.startswith("All plane and phenomenon cards")
    assert found("en-1999-04-23.txt", "missing-space") == [(699, "305.3")]
    assert found("en-2005-08-01.txt", "split-number") == [(2104, "606.8b")]
    assert not [w for w in parsed["en-2026-01-16.txt"].warnings]


def test_sections_after_the_credits_are_recorded(parsed):
    for name, heading in (("en-2005-08-01.txt", "Questions?"), ("en-2010-02-01.txt", "Customer Service Information")):
        p = parsed[name]
        line = next(r.first_line for r in p.records if r.kind == "heading" and r.title == heading)
        after = [r for r in p.records if r.first_line > line]
        assert after and {r.kind for r in after} <= {"boilerplate", "heading"}
        assert {r.meta.get("section") for r in after if r.kind == "boilerplate"} == {heading}
