"""The site's URLs, relative to where it is served (``prefix`` is Datasette's ``base_url``, "/" by default)."""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from ..links import rule_path


@dataclass(frozen=True)
class Urls:
    prefix: str = "/"
    db: str = "kb"

    def home(self) -> str:
        return self.prefix

    def rule(self, edition: str, number: str) -> str:
        return rule_path(edition, number, self.prefix)

    def rule_json(self, edition: str, number: str) -> str:
        return rule_path(edition, number, self.prefix) + ".json"

    def contents(self, edition: str) -> str:
        return f"{self.prefix}rule/{quote(edition)}"

    def glossary(self, edition: str, anchor: str = "") -> str:
        return f"{self.prefix}glossary/{quote(edition)}" + (f"#{anchor}" if anchor else "")

    def search(self, **params) -> str:
        return f"{self.prefix}search" + ("?" + urlencode({k: v for k, v in params.items() if v}) if params else "")

    def diff(self, old: str, new: str, rule: str | None = None) -> str:
        return f"{self.prefix}diff/{quote(old)}/{quote(new)}" + (f"?rule={quote(rule)}" if rule else "")

    def code(self, qualname: str) -> str:
        return f"{self.prefix}code/{quote(qualname)}"

    def scenario(self, scenario_id: int) -> str:
        return f"{self.prefix}scenario/{scenario_id}"

    def database(self) -> str:
        return f"{self.prefix}{quote(self.db)}"

    def table(self, table: str) -> str:
        return f"{self.prefix}{quote(self.db)}/{quote(table)}"

    def row(self, table: str, pk) -> str:
        return f"{self.prefix}{quote(self.db)}/{quote(table)}/{pk}"

    def query(self, name: str, **params) -> str:
        return f"{self.prefix}{quote(self.db)}/{quote(name)}" + ("?" + urlencode(params) if params else "")
