"""Planted edits: the German 2024 text with known edits must diff to exactly those edits.

The edited edition is made from the seed file itself (no rule text is written here): a rule is
inserted (the text of an example paragraph under a new number), one deleted, a run of subrules
renumbered, a sentence reworded (one word dropped, one replaced by a word of another rule), a
rule split in two after half of its sentences, and two rules merged.  Both editions go through
the real parser; the pairs come from the real aligner (``kb.align.align_cross_language``: the
two share a numbering scheme), and, separately, from the planting itself (the true alignment).
"""
import pytest

import ingest
from ingest import symbols
from kb import align
from kb import diff as D
from tests.helpers import SEEDS

OLD_ED, NEW_ED = "de-2024", "de-2024-planted"
RENUMBERED = [("611.2" + a, "611.2" + b) for a, b in zip("abcdef", "bcdefg")]


def _rules(lines, edition):
    parsed = ingest.parse_lines(lines, "seed", "cr-web", "de")
    out = []
    for rec in parsed.records:
        if rec.kind == "rule":
            out.append(D.make_rule(edition, rec.number, rec.text or "", rec.title, seq=len(out) + 1,
                                   text_norm=symbols.normalize(rec.text or "", "de-braces")))
    return out


class Planted:
    def __init__(self, merge: tuple[str, str], split: str):
        self.lines = ingest.read_lines(SEEDS["000"])
        new = list(self.lines)

        def at(num):
            return next(i for i, line in enumerate(new) if line.startswith(num + " "))

        def text(num):
            return new[at(num)][len(num) + 1:]

        # reword 610.1: drop the 6th word, replace the 10th by the longest word of 612.1
        words = text("610.1").split(" ")
        self.dropped, self.replaced = words[5], words[9]
        self.donor = max(text("612.1").split(" "), key=len).strip(".,;:")
        new[at("610.1")] = "610.1 " + " ".join(words[:5] + words[6:9] + [self.donor] + words[10:])
        # merge two rules into the first
        a, b = merge
        new[at(a)] = f"{a} {text(a)} {text(b)}"
        del new[at(b)]
        # renumber 611.2a-f to 611.2b-g
        for old, num in reversed(RENUMBERED):
            i = at(old)
            new[i] = num + new[i][len(old):]
        # delete 612.3
        del new[at("612.3")]
        # split a rule after half of its sentences into the rule and a new subrule "a"
        sents = D.sentences(text(split))
        k = len(sents) // 2
        i = at(split)
        new[i] = f"{split} {' '.join(sents[:k])}"
        new[i + 1:i + 1] = ["", f"{split}a {' '.join(sents[k:])}"]
        # insert 609.8 with the text of the first long example paragraph
        example = next(line for line in self.lines if line.startswith("Beispiel: ") and len(line) > 150)
        i = at("609.7c")
        new[i + 1:i + 1] = ["", "609.8 " + example[len("Beispiel: "):]]
        self.merge, self.split = merge, split
        self.old = _rules(self.lines, OLD_ED)
        self.new = _rules(new, NEW_ED)

    def true_pairs(self):
        """The alignment the planting implies."""
        renum = dict(RENUMBERED)
        new_numbers = {r.norm for r in self.new}
        pairs = []
        for r in self.old:
            if r.norm == "612.3":
                continue
            if r.norm == self.merge[1]:
                pairs.append((r.norm, self.merge[0], "merged", 1.0))
                continue
            target = renum.get(r.norm, r.norm)
            assert target in new_numbers
            pairs.append((r.norm, target, "", 1.0))
            if r.norm == self.split:
                pairs.append((r.norm, self.split + "a", "split", 1.0))
        return pairs

    def aligned_pairs(self):
        def views(rules):
            return [align.make_view(r.key, r.edition, "de", r.norm, r.text_norm, r.seq, level=r.level,
                                    title=r.title) for r in rules]
        links = align.align_cross_language(views(self.old), views(self.new))
        return [D.Pair(lk.source.key, lk.target.key if lk.target else None, lk.relation, lk.score, lk.method)
                for lk in links]

    def report(self, pairs):
        old_e = D.EditionInfo(OLD_ED, "de", "2024-11-08", "", "cr", "de-braces")
        new_e = D.EditionInfo(NEW_ED, "de", "2025", "", "cr", "de-braces")
        return D.build_report(old_e, new_e, self.old, self.new, pairs, D.load_terms())

    def expected(self):
        a, b = self.merge
        old = {"612.3": "removed", "610.1": "reworded", a: "merged", b: "merged", self.split: "split",
               **{o: "renumbered" for o, _ in RENUMBERED}}
        new = {"609.8": "added", "610.1": "reworded", a: "merged", self.split: "split",
               self.split + "a": "split", **{n: "renumbered" for _, n in RENUMBERED}}
        return old, new


CASES = [(("612.5", "612.6"), "612.1"), (("609.4a", "609.4b"), "614.9"), (("615.10", "615.11"), "614.8")]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"merge {c[0][0]}+{c[0][1]}, split {c[1]}")
def planted(request):
    return Planted(*request.param)


def _changes(rep):
    cls = rep.cls
    old = {r.norm: c for r in cls.old if (c := cls.old_class[r.key]) != "unchanged"}
    new = {r.norm: c for r in cls.new if (c := cls.new_class[r.key]) != "unchanged"}
    return old, new


@pytest.mark.parametrize("source", ["planting", "aligner"])
def test_planted_edits_exactly(planted, source):
    pairs = planted.true_pairs() if source == "planting" else planted.aligned_pairs()
    rep = planted.report(pairs)
    assert _changes(rep) == planted.expected()
    counts = rep.cls.counts()
    assert counts["unchanged"]["old"] == len(planted.old) - len(planted.expected()[0])
    assert counts["unchanged"]["new"] == len(planted.new) - len(planted.expected()[1])
    # renumbering map: the shifted run, and nothing else moves
    renum = {row["old"]: row["new"] for row in D.renumbering_map(rep.cls) if row["class"] == "renumbered"}
    assert renum == {o: [n] for o, n in RENUMBERED}


def test_planted_word_diffs(planted):
    rep = planted.report(planted.aligned_pairs())
    by_old = {g.old_numbers[0]: g for g in rep.groups if g.old}
    # the reworded sentence: exactly the dropped word and the replaced word changed
    segs = by_old["610.1"].diff
    changes = [(s.op, s.old.strip(), s.new.strip()) for s in segs if s.op not in ("equal", "part")]
    assert changes == [("delete", planted.dropped, ""), ("replace", planted.replaced, planted.donor)]
    # renumbered rules keep their words
    for old, _ in RENUMBERED:
        assert not D.changed(by_old[old].diff, fold=False) and by_old[old].text_changed is False
    # the split: each part keeps every word of its sentences
    split = by_old[planted.split]
    assert split.change_class == "split" and not D.changed(split.diff, fold=False)
    assert [s.label for s in split.diff if s.op == "part"] == [planted.split, planted.split + "a"]
    # the merge: both old rules are word for word in the new one
    merged = next(g for g in rep.groups if g.change_class == "merged")
    assert merged.old_numbers == list(planted.merge) and not D.changed(merged.diff, fold=False)
    # added and removed rules carry their whole text
    assert next(g for g in rep.groups if g.new_numbers == ["609.8"]).change_class == "added"
    assert next(g for g in rep.groups if g.old_numbers == ["612.3"]).change_class == "removed"
