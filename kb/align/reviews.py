"""Reviews of the lineage as data: ``data/alignment_reviews.tsv``.

One row per reviewed link: ``source`` and ``target`` name a rule each as ``EDITION/NUMBER`` (``de-1999/409.2f``),
``verdict`` is ``confirm`` (the link holds), ``reject`` (it does not) or ``add`` (a link the aligners missed),
then ``reviewer``, ``date`` and a free ``note``.  The build checks every row against the KB (a rule the KB lacks is
an error with the file and line, :class:`ReviewError`) and writes them to the table ``alignment_reviews``; the
lineage (:mod:`kb.lineage`) applies them wherever the two editions meet: to a stored pair when the build stores it,
to a composed or computed pair when it is answered (:func:`apply`).  A confirmed or added link has confidence 1.0,
so composing through it costs nothing; a rejected one is gone.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ingest import numbers

from .. import paths, tsv

REVIEWS_FILE = paths.DATA / "alignment_reviews.tsv"
COLUMNS = ("source", "target", "verdict", "reviewer", "date", "note")
VERDICTS = ("confirm", "reject", "add")
#: the confidence of a link a person confirmed or added
REVIEWED = 1.0


class ReviewError(ValueError):
    pass


@dataclass(frozen=True)
class Review:
    source_id: int
    target_id: int
    source_edition: str
    target_edition: str
    verdict: str
    reviewer: str
    date: str
    note: str
    line: int

    @property
    def mark(self) -> str:
        """What a view shows of the review: "confirmed by R on D" (or added)."""
        done = {"confirm": "confirmed", "add": "added", "reject": "rejected"}[self.verdict]
        return f"{done} by {self.reviewer}" + (f" on {self.date}" if self.date else "")


def load(conn, path: Path = REVIEWS_FILE) -> list[Review]:
    """The reviews of ``path`` with their rules looked up in the KB of ``conn`` (a missing file: none)."""
    if not Path(path).exists():
        return []
    out = []
    for line, _, row in tsv.read(path, COLUMNS):
        where = f"{path}:{line}"
        if row["verdict"] not in VERDICTS:
            raise ReviewError(f"{where}: verdict {row['verdict']!r} is not one of {', '.join(VERDICTS)}")
        if not row["reviewer"]:
            raise ReviewError(f"{where}: no reviewer")
        (s_id, s_ed), (t_id, t_ed) = (_rule(conn, row[side], where, side) for side in ("source", "target"))
        if s_ed == t_ed:
            raise ReviewError(f"{where}: source and target are of one edition ({s_ed})")
        out.append(Review(s_id, t_id, s_ed, t_ed, row["verdict"], row["reviewer"], row["date"], row["note"], line))
    return out


def _rule(conn, name: str, where: str, side: str) -> tuple[int, str]:
    edition, _, number = name.partition("/")
    if not edition or not number:
        raise ReviewError(f"{where}: {side} {name!r} is not EDITION/NUMBER (e.g. de-1999/409.2f)")
    if conn.execute("select 1 from editions where id = ?", [edition]).fetchone() is None:
        raise ReviewError(f"{where}: {side} {name}: no edition {edition!r} in the KB")
    got = conn.execute("select id from rules where edition_id = ? and norm = ? order by seq limit 1",
                       [edition, numbers.normalize(number).lower()]).fetchone()
    if got is None:
        raise ReviewError(f"{where}: {side} {name}: edition {edition} has no rule {number}")
    return got[0], edition


def store(db, reviews: Sequence[Review], path: Path = REVIEWS_FILE) -> None:
    """The table ``alignment_reviews`` (rebuilt), then the reviews applied to the stored pairs of ``alignments``."""
    if "alignment_reviews" in db.table_names():
        db["alignment_reviews"].drop()
    db["alignment_reviews"].create({"id": int, "source_rule_id": int, "target_rule_id": int, "source_edition": str,
                                    "target_edition": str, "verdict": str, "reviewer": str, "date": str,
                                    "note": str, "file": str, "line": int}, pk="id")
    db["alignment_reviews"].insert_all(({
        "source_rule_id": r.source_id, "target_rule_id": r.target_id, "source_edition": r.source_edition,
        "target_edition": r.target_edition, "verdict": r.verdict, "reviewer": r.reviewer, "date": r.date,
        "note": r.note, "file": path.name, "line": r.line} for r in reviews))
    db["alignment_reviews"].create_index(["source_rule_id"])
    db["alignment_reviews"].create_index(["target_rule_id"])
    if "review" not in db["alignments"].columns_dict:
        db.execute("alter table alignments add column review text")
    with db.conn:
        for r in reviews:
            _apply_stored(db.conn, r)


def _apply_stored(conn, r: Review) -> None:
    """A review applied to the ``alignments`` rows of its two editions, if the build stored that pair (either
    direction); a pair it did not store meets the review when it is composed (:func:`apply`)."""
    for s_id, t_id, s_ed, t_ed in ((r.source_id, r.target_id, r.source_edition, r.target_edition),
                                   (r.target_id, r.source_id, r.target_edition, r.source_edition)):
        if conn.execute("select 1 from alignments where source_edition = ? and target_edition = ? limit 1",
                        [s_ed, t_ed]).fetchone() is None:
            continue
        where = "source_rule_id = ? and target_rule_id = ?"
        if r.verdict == "reject":
            conn.execute(f"delete from alignments where {where}", [s_id, t_id])
            return
        if conn.execute(f"select 1 from alignments where {where}", [s_id, t_id]).fetchone() is not None:
            conn.execute(f"update alignments set score = ?, review = ? where {where}", [REVIEWED, r.mark, s_id, t_id])
            return
        # a link the aligners missed (added, or confirmed where they had none): the source's "no counterpart" goes
        conn.execute("delete from alignments where source_rule_id = ? and target_edition = ? "
                     "and target_rule_id is null", [s_id, t_ed])
        nums = dict(conn.execute("select id, norm from rules where id in (?, ?)", [s_id, t_id]).fetchall())
        others = conn.execute("select count(*) from alignments where source_rule_id = ? and target_edition = ? "
                              "and target_rule_id is not null", [s_id, t_ed]).fetchone()[0]
        relation = "split" if others else ("equivalent" if nums.get(s_id) == nums.get(t_id) else "renumbered")
        if others:
            conn.execute("update alignments set relation = 'split' where source_rule_id = ? and target_edition = ? "
                         "and target_rule_id is not null", [s_id, t_ed])
        conn.execute("""insert into alignments (pair, source_edition, target_edition, source_rule_id, target_rule_id,
                        source_number, target_number, score, relation, method, evidence, review)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'review', ?, ?)""",
                     [f"{s_ed} → {t_ed}", s_ed, t_ed, s_id, t_id, nums.get(s_id), nums.get(t_id), REVIEWED, relation,
                      json.dumps({"note": r.note}, ensure_ascii=False), r.mark])
        return


def for_pair(conn, a: str, b: str) -> list[Review]:
    """The stored reviews between editions ``a`` and ``b`` (either direction), oriented from ``a`` to ``b``."""
    if conn.execute("select 1 from sqlite_master where name = 'alignment_reviews'").fetchone() is None:
        return []
    out = []
    for row in conn.execute("""select source_rule_id, target_rule_id, source_edition, target_edition, verdict, reviewer,
                                      date, note, line from alignment_reviews
                               where (source_edition = ? and target_edition = ?) or (source_edition = ? and
                                      target_edition = ?) order by id""", [a, b, b, a]):
        s, t, s_ed, t_ed, *rest = row
        out.append(Review(s, t, s_ed, t_ed, *rest) if s_ed == a else Review(t, s, t_ed, s_ed, *rest))
    return out
