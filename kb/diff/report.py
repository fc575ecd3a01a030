"""Render a :class:`kb.diff.Report`: terminal text (coloured), a static HTML page, JSON.

* :func:`render_text` uses ``click.style``; ``click.echo`` strips the colours when the output is
  not a terminal, and the wdiff-style markers (``[-deleted-]``, ``{+inserted+}``) keep the
  changes readable without colour.
* :func:`render_html` fills ``kb/templates/diff_report.html`` (Jinja2, autoescaped; the diff
  fragments are built escaped by :mod:`kb.diff.words`): side-by-side diffs with the changed words
  highlighted, a summary per chapter, the renumbering map, the terminology table and links to
  the rules' Datasette pages (``--base-url``).
* :func:`render_json` serialises :func:`report_json`.

:func:`render` picks one of them by name; :func:`write_all` writes all three into a folder.
"""
from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

import click
from markupsafe import Markup, escape

from . import BASE_URL, CLASSES
from .classes import renumbering_map
from .model import Group, Report, Rule
from .words import diff_stats, side_html

TEMPLATES = Path(__file__).parent.parent / "templates"

#: colour of each change class (terminal and HTML)
COLOURS = {
    "unchanged": ("white", "#8a8f98"), "reworded": ("yellow", "#c98a00"), "renumbered": ("blue", "#2f6fd0"),
    "moved": ("magenta", "#9b4dca"), "split": ("cyan", "#0f8b8d"), "merged": ("cyan", "#3a7d44"),
    "added": ("green", "#1e8e3e"), "removed": ("red", "#c5221f"), "outside": ("white", "#b0b4ba"),
}
DESCRIPTIONS = {
    "unchanged": "same place, same number, same words",
    "reworded": "same rule, other words",
    "renumbered": "number changed beyond the section's systematic renumbering",
    "moved": "went to another section or chapter than its siblings",
    "split": "one old rule became several new rules",
    "merged": "several old rules became one new rule",
    "added": "new rule without an old counterpart",
    "removed": "old rule without a new counterpart",
    "outside": "a rule in a part of the rules the other edition does not cover (an excerpt)",
}


def render(rep: Report, fmt: str, base_url: str = BASE_URL, rule: str | None = None, fold: bool = True,
           only: tuple[str, ...] = ()) -> str:
    """The report as ``text``, ``html`` or ``json``."""
    if fmt == "text":
        return render_text(rep, rule=rule, fold=fold, only=tuple(only))
    if fmt == "html":
        return render_html(rep, base_url=base_url, rule=rule)
    return render_json(rep, rule=rule)


def write_all(rep: Report, out_dir: Path, base_url: str, rule: str | None = None, fold: bool = True) -> list[Path]:
    """Text (uncoloured), HTML and JSON of one report into ``out_dir``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{rep.old.id}__{rep.new.id}" + (f"__{rule}" if rule else "")
    return [write(out_dir / f"{stem}.{ext}", fmt, render(rep, fmt, base_url=base_url, rule=rule, fold=fold))
            for fmt, ext in (("text", "txt"), ("html", "html"), ("json", "json"))]


def write(path: Path, fmt: str, text: str) -> Path:
    """Write one rendered report (text without its colours)."""
    path.write_text(click.unstyle(text) if fmt == "text" else text, encoding="utf-8")
    return path


def _flags(g: Group) -> list[str]:
    """What a group's class does not say: a renumbered or moved rule also reworded, terminology only."""
    flags = []
    if g.change_class in ("renumbered", "moved") and g.text_changed:
        flags.append("and reworded")
    if g.terminology_only:
        flags.append("terminology only")
    return flags


def _story_rules(rep: Report, rule: str) -> list[dict]:
    """Each rule numbered ``rule`` in either edition, with its class, its counterparts and (for an
    old rule or subrule) the sections its section went to."""
    cls = rep.cls
    norm = rule.strip().rstrip(".")
    out = []
    for side, rules, classes, ed, other_ed in (("old", cls.old, cls.old_class, rep.old, rep.new),
                                               ("new", cls.new, cls.new_class, rep.new, rep.old)):
        for r in rules:
            if r.norm == norm:
                out.append({"side": side, "rule": r, "cls": classes[r.key], "edition": ed, "other_edition": other_ed,
                            "other": cls.targets.get(r.key, []) if side == "old" else cls.sources.get(r.key, []),
                            "went": cls.section_map.get(r.section)
                            if side == "old" and r.level in ("rule", "subrule") and r.section is not None
                            else None})
    return out


# --------------------------------------------------------------------------- text


def _styled_words(segs, fold: bool):
    """(text, style kwargs, space before) chunks of an inline diff, word by word, wdiff markers."""
    out = []
    state = {"old": True, "new": True}   # whitespace at the end of the old / new text so far

    def words(text, style, side, prefix="", suffix=""):
        pieces = re.findall(r"\S+|\s+", text)
        words_ = [p for p in pieces if not p.isspace()]
        k = 0
        for p in pieces:
            if p.isspace():
                state[side] = True
                continue
            w = (prefix if k == 0 else "") + p + (suffix if k == len(words_) - 1 else "")
            out.append((w, style, state[side] if k == 0 else True))
            state[side] = False
            k += 1

    def kept(s, style):
        words(s.new, style, "new")
        state["old"] = s.old[-1:].isspace()

    for s in segs:
        if s.op == "equal":
            kept(s, {})
        elif s.op == "part":
            out.append(("\n", {}, True))
            out.append((f"▸ {s.old or '—'} → {s.new or '—'}:", {"bold": True}, True))
            state["old"] = state["new"] = True
        elif s.op == "term" and fold:
            kept(s, {"fg": "cyan", "underline": True})
        else:
            if s.old.strip():
                words(s.old, {"fg": "red"}, "old", "[-", "-]")
            if s.new.strip():
                if s.old.strip():
                    state["new"] = False     # {+new+} sticks to its [-old-]
                words(s.new, {"fg": "green"}, "new", "{+", "+}")
            if not s.new.strip():
                state["new"] = state["old"]
            if not s.old.strip():
                state["old"] = state["new"]
    return out


def _wrap(chunks, width: int, indent: str) -> str:
    """Wrap (word, style, space before) chunks at ``width`` visible columns; a chunk without space
    before sticks to the last."""
    lines: list[str] = []
    line: list[str] = []
    used = len(indent)
    for word, style, space in chunks:
        if word == "\n":
            if line:
                lines.append(indent + "".join(line))
            line, used = [], len(indent)
            continue
        add = len(word) + (1 if space and line else 0)
        if line and space and used + add > width:
            lines.append(indent + "".join(line))
            line, used, add = [], len(indent), len(word)
        line.append((" " if space and line else "") + (click.style(word, **style) if style else word))
        used += add
    if line:
        lines.append(indent + "".join(line))
    return "\n".join(lines)


def _plain_wrap(text: str, width: int, indent: str, style: dict | None = None) -> str:
    return _wrap([(w, style or {}, True) for w in (text or "").split()], width, indent)


def _badge(cls: str) -> str:
    return click.style(f"{cls:<10}", fg=COLOURS[cls][0], bold=True)


def link_text(g: Group, link: tuple[str, str, str, float | None]) -> str:
    """One lineage link of a group as the views name it: "split 0.49" (with its numbers when the group has
    several links: "409.2f → 601.2f split 0.49")."""
    old, new, relation, score = link
    named = f"{relation} {score:.2f}" if score is not None else relation
    return f"{old} → {new} {named}" if len(g.links) > 1 else named


def _group_head(g: Group) -> str:
    old = ", ".join(g.old_numbers) or "—"
    new = ", ".join(g.new_numbers) or "—"
    bits = _flags(g) + ([g.note] if g.note else []) + [link_text(g, lk) for lk in g.links]
    tail = click.style(f"  ({'; '.join(bits)})", dim=True) if bits else ""
    return f"{_badge(g.change_class)} {old} → {new}{tail}"


def render_text(rep: Report, rule: str | None = None, fold: bool = True, only: tuple[str, ...] = (),
                width: int = 100) -> str:
    if rule:
        return _render_story_text(rep, rule, fold, width)
    return "\n".join(_summary_text(rep, fold, width) + _rules_text(rep, fold, only, width)
                     + _removed_text(rep, only, width) + _terminology_text(rep))


def _summary_text(rep: Report, fold: bool, width: int) -> list[str]:
    """Title, class counts, counts per chapter and the section map."""
    out: list[str] = []
    o, n = rep.old, rep.new
    cls = rep.cls
    out.append(click.style(f"Changes from {o.id} ({o.date}) to {n.id} ({n.date})", bold=True))
    for title in (o.title, n.title):
        if title:
            out.append(click.style(f"  {title}", dim=True))
    if rep.cross_language:
        out.append(click.style(f"  {o.language} → {n.language}: structure only, no word diff across languages",
                               dim=True))
    elif fold:
        out.append(click.style("  terminology, spelling, case, inflection and symbol-notation shifts are folded "
                               "(cyan); --no-fold shows them as changes", dim=True))
    out.append("")
    counts = cls.counts()
    out.append(click.style(f"{'class':<12}{o.id:>14}{n.id:>14}", bold=True))
    for c in CLASSES:
        out.append(f"{_badge(c)}  {counts[c]['old']:>14}{counts[c]['new']:>14}")
    out.append(f"{'total':<12}{len(cls.old):>14}{len(cls.new):>14}")
    out.append("")
    out.append(click.style("By chapter", bold=True))
    for row in cls.by_chapter():
        parts = [f"{c} {row['counts'][c]}" for c in CLASSES if row["counts"][c]]
        out.append(f"  {row['edition']} chapter {row['chapter'] if row['chapter'] is not None else '—'}"
                   f" ({row['total']} rules): " + ", ".join(parts))
    out.append("")
    if cls.section_map:
        out.append(click.style("Section map (where each old section went)", bold=True))
        moved = {s: t for s, t in sorted(cls.section_map.items()) if t != [s]}
        items: list[tuple[str, dict, bool]] = [(f"{s}→{','.join(map(str, t))}", {}, True) for s, t in moved.items()]
        if items:
            out.append(_wrap(items, width, "  ").replace("→", " → ").replace(",", ", "))
        if len(moved) < len(cls.section_map):
            out.append(f"  {len(cls.section_map) - len(moved)} sections keep their number")
        out.append("")
    return out


def _rules_text(rep: Report, fold: bool, only: tuple[str, ...], width: int) -> list[str]:
    """The rule-by-rule part (every class but "removed"), by section of the newer edition."""
    out: list[str] = []
    n = rep.new
    cls = rep.cls
    out.append(click.style("Rule by rule", bold=True))
    shown = [g for g in cls.groups if g.change_class not in ("removed", "outside")
             and (not only or g.change_class in only)]
    hidden = Counter(g.change_class for g in cls.groups if only and g.change_class not in only
                     and g.change_class not in ("removed", "outside"))
    if hidden:
        out.append(click.style("  not listed: " + ", ".join(f"{n} {c}" for c, n in hidden.items())
                               + (" (--all lists them)" if set(hidden) == {"unchanged"} else ""), dim=True))
    titles = {r.section: r for r in cls.new if r.level == "section"}
    current = object()
    for g in shown:
        sec = g.new[0].section if g.new else None
        if sec != current:
            current = sec
            head = titles.get(sec)
            out.append("")
            label = f"section {sec}" if sec is not None else f"chapter {g.new[0].chapter}"
            out.append(click.style(f"— {n.id} {label}"
                                   f"{' ' + head.title if head is not None and head.title else ''} —", bold=True))
        out.append(_group_head(g))
        out.extend(_group_body_text(rep, g, fold, width))
    return out


def _removed_text(rep: Report, only: tuple[str, ...], width: int) -> list[str]:
    """Old rules without a counterpart, per chapter."""
    out: list[str] = []
    o, n = rep.old, rep.new
    cls = rep.cls
    removed = [g for g in cls.groups if g.change_class == "removed" and (not only or "removed" in only)]
    if removed:
        out.append("")
        out.append(click.style(f"Removed: {o.id} rules without a counterpart in {n.id}", bold=True))
        per = defaultdict(list)
        for g in removed:
            per[g.old[0].chapter].append(g.old[0].label)
        for ch, nums in per.items():
            out.append(_plain_wrap(f"chapter {ch}: " + ", ".join(nums), width, "  ", {"fg": "red"}))
    outside = Counter((g.old or g.new)[0].edition for g in cls.groups if g.change_class == "outside")
    if outside and (not only or "outside" in only):
        out.append("")
        cover = {o.id: o.covers, n.id: n.covers}
        other = {o.id: n.id, n.id: o.id}
        for ed, count in outside.items():
            out.append(click.style(f"Outside: {count} {ed} rules are in parts that {other[ed]} does not cover "
                                   f"({other[ed]} covers {', '.join(cover[other[ed]]) or 'everything'})",
                                   bold=True))
    return out


def _terminology_text(rep: Report) -> list[str]:
    """The terminology table and recurring substitutions that it lacks."""
    out: list[str] = []
    o, n = rep.old, rep.new
    if rep.terminology:
        out.append("")
        out.append(click.style(f"Terminology {o.id} → {n.id} (curated table, as found in the aligned rules)",
                               bold=True))
        for t in rep.terminology:
            arrow = f"{t['old']} → {t['new'] or '(gone)'}"
            where = ", ".join(t["rules"][:8]) + (" …" if len(t["rules"]) > 8 else "")
            kept = f"; old term still in {t['kept']} {n.id} rules" if t["kept"] else ""
            out.append(f"  {click.style(f'{arrow:<40}', fg='cyan')} {t['count']:>3}×  {where}{kept}")
    if rep.candidates:
        out.append("")
        out.append(click.style("Recurring one-word substitutions not in the terminology table", bold=True))
        for t in rep.candidates:
            out.append(f"  {t['old']} → {t['new']}  {t['count']}×  {', '.join(t['rules'])}")
    return out


def _in_play(rep: Report, g: Group) -> list[dict]:
    """The comparison scenarios whose games diverge because of a rule of the group (each step once)."""
    found: dict[tuple, dict] = {}
    for r in [*g.old, *g.new]:
        for d in rep.in_play.get(r.key, []):
            found.setdefault((d["scenario"], d["line"], d["rule_set"]), d)
    return list(found.values())


def _in_play_text(rep: Report, g: Group, width: int) -> list[str]:
    return [_plain_wrap(f"in play: {d['scenario']}:{d['line']} under {d['rule_set']} — {d['differs']}", width,
                        "    ", {"fg": "cyan"}) for d in _in_play(rep, g)]


def _group_body_text(rep: Report, g: Group, fold: bool, width: int) -> list[str]:
    """The lines under a group's head in the full report: its word diff, or its texts (shortened); the scenarios
    the group's rules are in play in."""
    return _group_texts(rep, g, fold, width) + _in_play_text(rep, g, width)


def _group_texts(rep: Report, g: Group, fold: bool, width: int) -> list[str]:
    indent = "    "
    if g.change_class == "unchanged":
        return []
    if g.diff is not None and g.old and g.new:
        if g.change_class in ("renumbered", "moved") and not g.text_changed:
            return []
        return [_wrap(_styled_words(g.diff, fold), width, indent)]
    out = []
    limit = width - 30
    for side, rules, style in (("old", g.old, {"fg": "red"}), ("new", g.new, {"fg": "green"})):
        for r in rules:
            text = r.full_text
            if limit and len(text) > limit:
                text = text[:limit].rsplit(" ", 1)[0] + " …"
            ed = rep.old.id if side == "old" else rep.new.id
            out.append(_plain_wrap(f"{ed} {r.label}: {text}", width, indent,
                                   style if g.change_class in ("added", "removed") else {}))
    return out


def _render_story_text(rep: Report, rule: str, fold: bool, width: int) -> str:
    groups = rep.story(rule)
    if not groups:
        raise LookupError(f"no rule {rule} in {rep.old.id} or {rep.new.id}")
    out = []
    for s in _story_rules(rep, rule):
        verb = "→" if s["side"] == "old" else "←"
        out.append(click.style(f"{s['edition'].id} {s['rule'].label}", bold=True)
                   + f"  is {_badge(s['cls']).strip()}"
                   + f"  {verb} {', '.join(x.label for x in s['other']) or 'no counterpart'}")
        if s["went"]:
            out.append(click.style(f"  section {s['rule'].section} went to {', '.join(map(str, s['went']))}",
                                   dim=True))
    out.append("")
    for g in groups:
        out.append(_group_head(g))
        if g.relation or g.method:
            out.append(click.style(f"    aligner: relation {g.relation or '—'}, method {g.method or '—'}",
                                   dim=True))
        for rules, ed in ((g.old, rep.old), (g.new, rep.new)):
            for r in rules:
                out.append(_plain_wrap(f"{ed.id} {r.label}: {r.full_text}", width, "    ", {"dim": True}))
        if g.diff is not None:
            out.append(click.style("    word diff" + (" (terminology folded)" if fold else "") + ":", bold=True))
            out.append(_wrap(_styled_words(g.diff, fold), width, "    "))
            terms = [s for s in g.diff if s.op == "term"]
            if terms:
                out.append(click.style("    folded shifts:", bold=True))
                for seg in terms:
                    out.append(f"      {seg.old.strip()} → {seg.new.strip()}  ({seg.label})")
        out.extend(_in_play_text(rep, g, width))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------- HTML


def _env():
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    return Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html"]),
                       trim_blocks=True, lstrip_blocks=True)


def rule_url(base_url: str, edition: str, number: str) -> str:
    return f"{base_url.rstrip('/')}/rule/{quote(edition)}/{quote(number)}"


def _rows(g: Group, fold: bool) -> list[dict]:
    """Side-by-side rows of a group: one per part (split/merge), each with old and new HTML."""
    if g.diff is None:
        return [{"old_label": ", ".join(g.old_numbers), "new_label": ", ".join(g.new_numbers),
                 "old": Markup("<br>").join(escape(r.full_text) for r in g.old),
                 "new": Markup("<br>").join(escape(r.full_text) for r in g.new)}]
    rows: list[tuple[tuple[str, str], list]] = []
    cur: list = []
    head = (", ".join(g.old_numbers), ", ".join(g.new_numbers))
    for s in g.diff:
        if s.op == "part":
            if cur or rows:
                rows.append((head, cur))
            head, cur = (s.old, s.new), []
        else:
            cur.append(s)
    rows.append((head, cur))
    if len(rows) > 1 and not rows[0][1] and rows[0][0] == (", ".join(g.old_numbers), ", ".join(g.new_numbers)):
        rows = rows[1:]
    return [{"old_label": h[0], "new_label": h[1], "old": side_html(segs, "old", fold),
             "new": side_html(segs, "new", fold)} for h, segs in rows]


def render_html(rep: Report, base_url: str = BASE_URL, rule: str | None = None) -> str:
    """The standalone HTML page (``diff_report.html``); rule links start with ``base_url`` ("" = the site root)."""
    return _env().get_template("diff_report.html").render(**html_context(rep, base_url, rule))


def html_context(rep: Report, base_url: str = BASE_URL, rule: str | None = None,
                 in_play: dict[str, list[dict]] | None = None) -> dict:
    """What ``_diff_body.html`` shows: the standalone page and the site's ``/diff/<from>/<to>`` page share it.

    ``in_play``: rule key -> the comparison scenarios whose games diverge because of the rule (dicts with title,
    url, rule_set, line, step, differs); each rule pair of the report links to those of its rules."""
    in_play = in_play if in_play is not None else {
        key: [{**d, "url": f"{base_url.rstrip('/')}/scenario/{d['scenario_id']}"} for d in found]
        for key, found in rep.in_play.items()}
    cls = rep.cls
    groups = rep.story(rule) if rule else cls.groups
    titles = {r.section: r for r in cls.new if r.level == "section"}
    old_titles = {r.section: r for r in cls.old if r.level == "section"}
    sections = []          # new sections with their groups, in new order
    by_sec: dict = {}
    removed: dict = defaultdict(list)
    for g in groups:
        if g.change_class == "removed":
            removed[(g.old[0].chapter, g.old[0].section)].append(g)
            continue
        if g.change_class == "outside":
            continue
        first = g.new[0]
        sec = first.section if first.section is not None else ("chapter", first.chapter)
        if sec not in by_sec:
            if first.section is not None:
                head = {"section": sec, "title": titles[sec].title if sec in titles else ""}
            else:
                chap = next((r for r in cls.new if r.level == "chapter" and r.chapter == first.chapter), None)
                head = {"section": f"{first.chapter}", "title": (chap.title if chap and chap.title else "")}
            by_sec[sec] = {**head, "groups": []}
            sections.append(by_sec[sec])
        by_sec[sec]["groups"].append(g)
    removed_sections = [{"chapter": ch, "section": sec,
                         "title": old_titles[sec].title if sec in old_titles and old_titles[sec].title else "",
                         "groups": gs} for (ch, sec), gs in removed.items()]
    view = [{**sec, "groups": [_group_view(rep, g, base_url, in_play) for g in sec["groups"]]} for sec in sections]
    removed_view = [{**sec, "groups": [_group_view(rep, g, base_url, in_play) for g in sec["groups"]]}
                    for sec in removed_sections]
    story = [{"edition": s["edition"].id, "label": s["rule"].label,
              "url": rule_url(base_url, s["edition"].id, s["rule"].norm), "cls": s["cls"], "side": s["side"],
              "other_edition": s["other_edition"].id,
              "other": [(x.label, rule_url(base_url, s["other_edition"].id, x.norm)) for x in s["other"]],
              "section": s["rule"].section, "went": s["went"]} for s in (_story_rules(rep, rule) if rule else [])]
    return dict(
        rep=rep, old=rep.old, new=rep.new, classes=CLASSES, counts=cls.counts(), colours=COLOURS,
        descriptions=DESCRIPTIONS, by_chapter=cls.by_chapter(), sections=view, removed=removed_view,
        section_map=sorted(cls.section_map.items()), chapter_map=sorted(cls.chapter_map.items()),
        renumbering=_renumbering_view(rep, base_url),
        kept_numbers=sum(1 for row in renumbering_map(cls) if row["new"] == [row["old"]]), story=story,
        terminology=rep.terminology, candidates=rep.candidates,
        report_base=base_url.rstrip("/"), rule=rule, total_old=len(cls.old), total_new=len(cls.new),
    )


def _group_view(rep: Report, g: Group, base_url: str, in_play: dict[str, list[dict]] | None = None) -> dict:
    scenarios: dict[tuple, dict] = {}
    for r in [*g.old, *g.new]:
        for s in (in_play or {}).get(r.key, []):
            scenarios.setdefault((s["url"], s["line"], s["rule_set"]), s)
    return {
        "in_play": list(scenarios.values()),
        "cls": g.change_class, "g": g, "flags": _flags(g), "stats": diff_stats(g.diff) if g.diff is not None else {},
        "old": [(r.label, rule_url(base_url, rep.old.id, r.norm or r.number)) for r in g.old],
        "new": [(r.label, rule_url(base_url, rep.new.id, r.norm or r.number)) for r in g.new],
        "rows_folded": _rows(g, True), "rows_plain": _rows(g, False) if g.diff is not None else None,
        "anchor": "g-" + "-".join((g.old_numbers or ["x"]) + (g.new_numbers or ["x"])).replace(".", "_"),
        "collapsed": g.change_class == "unchanged",
    }


def _renumbering_view(rep: Report, base_url: str) -> list[dict]:
    out = []
    for row in renumbering_map(rep.cls):
        if not row["new"] or row["new"] == [row["old"]]:
            continue
        out.append({**row, "old_url": rule_url(base_url, rep.old.id, row["old"]),
                    "new_urls": [(x, rule_url(base_url, rep.new.id, x)) for x in row["new"]]})
    return out


# --------------------------------------------------------------------------- JSON


def rule_json(r: Rule) -> dict:
    return {"id": r.id, "edition": r.edition, "number": r.number, "norm": r.norm, "level": r.level,
            "chapter": r.chapter, "section": r.section, "title": r.title, "text": r.text}


def group_json(g: Group) -> dict:
    return {
        "class": g.change_class, "old": [rule_json(r) for r in g.old], "new": [rule_json(r) for r in g.new],
        "score": g.score, "relation": g.relation, "method": g.method, "text_changed": g.text_changed,
        "links": [{"old": o, "new": n, "relation": rel, "score": sc} for o, n, rel, sc in g.links],
        "terminology_only": g.terminology_only, "expected_numbers": g.expected, "note": g.note,
        "diff": [s.as_list() for s in g.diff] if g.diff is not None else None,
        "diff_stats": diff_stats(g.diff) if g.diff is not None else None,
    }


def report_json(rep: Report, rule: str | None = None) -> dict:
    cls = rep.cls

    def classes(rules: list[Rule], of: dict[str, str]) -> dict[str, str]:
        return {(r.key if "#" in r.key else r.label): of[r.key] for r in rules}

    out = {
        "from": vars(rep.old), "to": vars(rep.new), "cross_language": rep.cross_language,
        "classes": list(CLASSES),
        "counts": cls.counts(),
        "by_chapter": cls.by_chapter(),
        "rules": {"old": classes(cls.old, cls.old_class), "new": classes(cls.new, cls.new_class)},
        "section_map": {str(k): v for k, v in sorted(cls.section_map.items())},
        "chapter_map": {str(k): v for k, v in sorted(cls.chapter_map.items())},
        "renumbering": renumbering_map(cls),
        "terminology": rep.terminology,
        "terminology_candidates": rep.candidates,
        "groups": [{**group_json(g), "in_play": [{k: d[k] for k in ("scenario", "title", "rule_set", "line", "step",
                                                                     "differs")} for d in _in_play(rep, g)]}
                   for g in (rep.story(rule) if rule else cls.groups)],
    }
    if rule:
        out["rule"] = rule
    return out


def render_json(rep: Report, rule: str | None = None) -> str:
    return json.dumps(report_json(rep, rule), ensure_ascii=False, indent=1)
