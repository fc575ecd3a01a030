"""Helpers shared by the tests (fixtures live in conftest.py): repository paths and seed views."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: the seed documents by their three-digit prefix ("000" ... "004")
SEEDS = {p.name[:3]: p for p in sorted((ROOT / "data" / "sources").glob("0*_*.txt"))}


def views_2024(edition: str):
    """The German 2024 rules as alignment views of a synthetic edition named ``edition``."""
    from ingest import numbers, parse_document, symbols
    from kb import align

    parsed = parse_document(SEEDS["000"], "cr-web", "de")
    views = []
    for rec in parsed.records:
        if rec.kind != "rule" or not rec.text:
            continue
        norm = numbers.normalize(rec.number)
        views.append(align.make_view(f"{edition}/{norm}", edition, "de", norm,
                                     symbols.normalize(rec.text, "de-braces"), len(views),
                                     level=numbers.level(norm), title=rec.title))
    return views


def seed_data(dest: Path) -> Path:
    """A copy of ``data/`` at ``dest`` whose manifest holds the seed documents and the English originals they
    translate only (the default data also holds the whole English archive, which most tests do not need: a KB of
    these seven documents builds in seconds).  The originals are those the seeds' editions name in
    ``translation_of``; the curated files (gold, terminology, cards, scenarios, ...) are copied as they are."""
    import shutil

    from kb import manifest

    src = ROOT / "data"
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("sources", "manifest.toml", ".manifest.lock"))
    full = manifest.load(src / "manifest.toml")
    seeds = [d for d in full.documents if d.parser != "cr-text"]
    originals = {e.translation_of for d in seeds for e in d.editions if e.translation_of}
    keep = [d for d in full.documents if d in seeds or any(e.id in originals for e in d.editions)]
    (dest / "sources").mkdir()
    for d in keep:
        shutil.copy2(src / d.path, dest / d.path)
    (dest / "manifest.toml").write_text("# the seed documents and their originals (tests/helpers.py seed_data)\n",
                                        encoding="utf-8")
    manifest.save(manifest.Manifest(keep), dest / "manifest.toml")
    kept = {e.id for d in keep for e in d.editions}
    reviews = dest / "alignment_reviews.tsv"   # the reviews of the editions kept (a review of another is an error)
    if reviews.exists():
        lines = reviews.read_text(encoding="utf-8").splitlines(keepends=True)
        reviews.write_text("".join(line for line in lines if line.startswith(("#", "source\t")) or not line.strip()
                                   or {f.split("/")[0] for f in line.split("\t")[:2]} <= kept), encoding="utf-8")
    return dest


def imports_of(package: str) -> dict[str, set[str]]:
    """Module of ``package`` -> every module it imports (absolute names; imports inside functions and for type
    checking included), read from the source."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        here = name.split(".") if is_package else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1]) if node.level else ""
                module = ".".join(p for p in (base, node.module or "") if p)
                found.add(module)
                found |= {f"{module}.{a.name}" for a in node.names}
        out[name] = found
    return out
