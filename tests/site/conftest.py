"""Fixtures of the site tests: Datasette's in-process client over the session KB, and a real server."""
import asyncio
import shutil

import pytest

from kb.serve import make_datasette


class Client:
    """Datasette's test client on its own event loop (no server, no network)."""

    def __init__(self, db_path, debug_pages=False):
        self.ds = make_datasette(db_path, debug_pages)
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self.ds.invoke_startup())

    def get(self, path, **kw):
        return self.loop.run_until_complete(self.ds.client.get(path, **kw))

    def request(self, method, path):
        return self.loop.run_until_complete(self.ds.client.request(method, path))

    def close(self):
        for db in self.ds.databases.values():
            box = getattr(db, "kb_sandbox", None)
            if box is not None:     # the query processes of kb.site.sandbox
                box.close()
        self.loop.close()


@pytest.fixture(scope="session")
def site(kb_db):
    client = Client(kb_db)
    yield client
    client.close()


@pytest.fixture(scope="session")
def other_db(kb_db, tmp_path_factory):
    """The same KB under another file name (the database is named after the file)."""
    path = tmp_path_factory.mktemp("other") / "other-name.db"
    shutil.copy(kb_db, path)
    return path


@pytest.fixture(scope="session")
def server(kb_db):
    """``kb serve`` on a free 127.0.0.1 port, for the browser and HTTP tests."""
    from kb.site.server import running

    with running(kb_db) as base:
        yield base
