"""Every manifest value the build reads is checked when the manifest is read: a bad one is ``file:line``, never a
traceback later in the build; and ``kb add`` checks every argument (dates are real dates) before it writes."""
from __future__ import annotations

import re
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.add import AddError, AddOptions, add_files
from kb.build import BuildError, build
from kb.manifest import ManifestError, load
from tests.helpers import FIXTURES, ROOT

MANIFEST = ROOT / "data" / "manifest.toml"
MINI = FIXTURES / "cr_text" / "MagicCompRules-mini.txt"
#: the lines of the real manifest that hold a value, and the key of each
KEY_LINES = [(no, line.split("=", 1)[0].strip()) for no, line in
             enumerate(MANIFEST.read_text(encoding="utf-8").splitlines(), 1)
             if "=" in line and not line.startswith("#")]
#: TOML values that no key of the manifest accepts (wrong type for every field)
WRONG_TYPES = ["5", "1.5", "{ a = 1 }", "[[1]]", "2024-11-08"]    # (the last is a TOML date, not a string)
#: values of the right type that are still wrong, by key
WRONG_VALUES = {"date": ['"2024-13-45"', '"2024-02-30"', '"24-11-08"', '"2024-11-08 "'],
                "language": ['"english"', '"EN"', '""'], "kind": ['"book"'], "id": ['"Bad Id"', '"../x"'],
                "path": ['"/etc/passwd"', '"../outside.txt"', '""'], "sha256": ['"abc"', '"' + "G" * 64 + '"'],
                "parser": ['"nope"'], "encoding": ['"no-such-codec"'], "translation_of": ['"en-1800"'],
                "align_with": ['["no-such-edition"]'], "covers": ['"6"'], "partial": ['"yes"']}


def with_value(tmp_path, line_no: int, value: str):
    lines = MANIFEST.read_text(encoding="utf-8").splitlines()
    key = lines[line_no - 1].split("=", 1)[0]
    lines[line_no - 1] = f"{key}= {value}"
    path = tmp_path / "manifest.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_real_manifest_reads():
    assert load(MANIFEST).documents


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(KEY_LINES), st.sampled_from(WRONG_TYPES))
def test_a_value_of_the_wrong_type_is_named_with_its_line(tmp_path, key_line, value):
    no, key = key_line
    path = with_value(tmp_path, no, value)
    with pytest.raises(ManifestError) as e:
        load(path)
    assert str(e.value).startswith(f"{path}:{no}: "), (key, value, str(e.value))


@pytest.mark.parametrize("key", sorted(WRONG_VALUES))
def test_a_wrong_value_is_named_with_its_line(tmp_path, key):
    base = MANIFEST.read_text(encoding="utf-8").splitlines()
    found = [no for no, k in KEY_LINES if k == key]
    if found:
        line = found[0]
    else:     # a key the real manifest does not use (partial): put it in the first document's table
        line = next(no for no, k in KEY_LINES if k == "encoding") + 1
        base.insert(line - 1, f"{key} = false")
    for value in WRONG_VALUES[key]:
        edited = list(base)
        edited[line - 1] = f"{key} = {value}"
        path = tmp_path / "manifest.toml"
        path.write_text("\n".join(edited) + "\n", encoding="utf-8")
        with pytest.raises(ManifestError) as e:
            load(path)
        assert str(e.value).startswith(f"{path}:{line}: "), (value, str(e.value))


def test_an_unknown_key_and_a_missing_one_are_named(tmp_path):
    text = MANIFEST.read_text(encoding="utf-8")
    path = tmp_path / "manifest.toml"
    path.write_text(text.replace('kind = "cr"', 'kind = "cr"\nsince = "1999"', 1), encoding="utf-8")
    with pytest.raises(ManifestError, match=r":\d+: \[\[document.edition\]\]: unknown key 'since'"):
        load(path)
    path.write_text(re.sub(r'\nsha256 = "[0-9a-f]+"', "", text, count=1), encoding="utf-8")
    first = next(no for no, line in enumerate(text.splitlines(), 1) if line.strip() == "[[document]]")
    with pytest.raises(ManifestError, match=rf"manifest.toml:{first}: \[\[document\]\]: missing sha256"):
        load(path)


def test_kb_build_reports_a_bad_manifest_value_and_keeps_the_database(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    db = tmp_path / "kb.db"
    db.write_bytes(b"the previous database")
    text = (data / "manifest.toml").read_text(encoding="utf-8")
    (data / "manifest.toml").write_text(text.replace('date = "2024-11-08"', 'date = "2024-13-45"', 1),
                                        encoding="utf-8")
    line = next(no for no, s in enumerate((data / "manifest.toml").read_text().splitlines(), 1) if "2024-13-45" in s)
    with pytest.raises(BuildError, match=rf"manifest.toml:{line}: edition de-2024: bad date '2024-13-45'"):
        build(db, data)
    assert db.read_bytes() == b"the previous database"


@pytest.mark.parametrize("opts, message", [
    (AddOptions(date="2024-13-45"), "bad date '2024-13-45': month must be in 1..12"),
    (AddOptions(date="2023-02-29"), "bad date '2023-02-29': day is out of range"),
    (AddOptions(date="2024-00"), "bad date"),
    (AddOptions(encoding="no-such-codec"), "unknown encoding"),
])
def test_kb_add_refuses_a_bad_argument_before_writing(tmp_path, opts, message):
    data = tmp_path / "data"
    data.mkdir()
    with pytest.raises(AddError, match=re.escape(message)):
        add_files([MINI], opts, data)
    assert list(data.iterdir()) == []
