"""The traceability registry: every citation names a rule that exists; tracing records applied rules."""
import pytest

from engine.paths import ROOT
from engine.registry import Registry, Tracer, applied, check_citations, enforces, load_all, parse_citation
from ingest import numbers, parse_document
from kb.manifest import load as load_manifest


@pytest.fixture(scope="module")
def known_numbers():
    """Normalised rule numbers per edition, from the parsers (not from the database)."""
    manifest = load_manifest(ROOT / "data" / "manifest.toml")
    cited = {c.edition for c in load_all().citations()} | {"de-1999"}
    out = {}
    for edition in cited:
        doc, ed = manifest.edition(edition)
        parsed = parse_document(ROOT / "data" / doc.path, doc.parser, ed.language)
        out[edition] = {numbers.normalize(r.number) for r in parsed.records if r.kind == "rule" and r.number}
    return out


def test_every_cited_rule_exists(known_numbers):
    registry = load_all()
    assert len(registry) > 40
    assert check_citations(registry, known_numbers) == []


def test_a_wrong_citation_is_reported(known_numbers):
    local = Registry()

    @enforces("601.2f", "601.99z", registry=local)
    def wrong():
        """Cites a rule that does not exist."""

    @enforces("de-1999/422.1", "de-1999/999.9", registry=local)
    def old():
        """Cites an old rule that does not exist."""

    problems = check_citations(local, known_numbers)
    assert len(problems) == 2
    assert "601.99z" in problems[0] or "601.99z" in problems[1]
    assert any("de-1999/999.9" in p for p in problems)
    assert check_citations(local, {"de-2024": known_numbers["de-2024"]})[-1].endswith("unknown edition")


def test_links_point_at_the_function_definition():
    registry = load_all()
    link = registry.links["engine.casting.determine_total_cost"]
    lines = (ROOT / link.file).read_text(encoding="utf-8").splitlines()
    assert lines[link.line - 1].startswith("def determine_total_cost(")
    assert parse_citation("601.2f") in link.citations
    assert link.file == "engine/casting.py"


def test_enforcing_functions_cover_the_issue_rules():
    registry = load_all()
    cited = {str(c) for c in registry.citations()}
    for rule in ["601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g", "601.2h", "601.2i",
                 "601.3", "601.4", "602.1a", "602.2", "602.5a", "602.5b", "602.5d", "605.1a", "605.3b", "605.5b",
                 "606.3", "606.4", "606.6", "608.2b", "608.2n", "608.3a", "610.1", "en-2024-11-08/730.1"]:
        assert rule in cited, rule


def test_citation_syntax():
    assert parse_citation("601.2f").key == "de-2024/601.2f"
    assert parse_citation("de-1999/422.1.").key == "de-1999/422.1"
    with pytest.raises(ValueError):
        parse_citation("Regel 601")
    with pytest.raises(ValueError):
        enforces()(lambda: None)


def test_tracer_records_applied_rules_not_calls():
    """A rule is recorded when the function says it applied it; merely entering the function is not enough."""
    local = Registry()

    @enforces("601.2a", registry=local)
    def first(apply: bool):
        if apply:
            applied("601.2a")
        second()

    @enforces("601.2c", "601.2d", registry=local)
    def second():
        applied("601.2d")

    with Tracer(local) as t:
        first(False)
        second()
    assert [f.qualname.rsplit(".", 1)[-1] for f in t.links()] == ["first", "second"]  # entered
    assert [str(c) for c in t.citations()] == ["601.2d"]  # applied
    assert {(str(c), f.qualname.rsplit(".", 1)[-1]) for c, f in t.entered_only()} == {("601.2a", "first"),
                                                                                      ("601.2c", "second")}
    with Tracer(local) as t2:
        first(True)
    assert [str(c) for c in t2.citations()] == ["601.2a", "601.2d"]
    with Tracer(local) as t3:
        pass
    assert t3.citations() == []
    first(True)  # without a tracer applied() does nothing


def test_applying_a_rule_the_function_does_not_cite_is_an_error():
    local = Registry()

    @enforces("601.2a", registry=local)
    def cites_one():
        applied("601.2b")

    def unregistered():
        applied("601.2a")

    @enforces("601.2c", registry=local)
    def with_helper():
        helper()

    def helper():
        applied("601.2c")

    with Tracer(local) as t:
        with pytest.raises(RuntimeError, match="does not cite"):
            cites_one()
        with pytest.raises(RuntimeError, match="neither a registered"):
            unregistered()
        with_helper()  # a helper of an enforcing function applies the rule for it
    assert [(str(c), f.qualname.rsplit(".", 1)[-1]) for c, f in t.appliers()] == [("601.2c", "with_helper")]
