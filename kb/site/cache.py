"""An in-memory cache of whole GET responses: the KB is immutable while it is served, so a page is a
pure function of its URL.  Bounded in bytes (least recently used out first); only complete 200
responses without cookies are kept, so hostile URLs can only evict, never grow memory."""
from __future__ import annotations

from collections import OrderedDict

#: bytes of response bodies kept
MAX_BYTES = 64 * 1024 * 1024
#: larger responses are never kept
MAX_ENTRY = 2 * 1024 * 1024


class ResponseCache:
    def __init__(self, max_bytes: int = MAX_BYTES, max_entry: int = MAX_ENTRY):
        self.max_bytes, self.max_entry = max_bytes, max_entry
        self.entries: OrderedDict[bytes, tuple[int, list, bytes]] = OrderedDict()
        self.size = 0
        self.hits = self.misses = 0

    def get(self, key: bytes):
        found = self.entries.get(key)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        self.entries.move_to_end(key)
        return found

    def put(self, key: bytes, status: int, headers: list, body: bytes) -> None:
        if status != 200 or len(body) > self.max_entry or any(k.lower() == b"set-cookie" for k, _ in headers):
            return
        if key in self.entries:
            return
        self.entries[key] = (status, headers, body)
        self.size += len(body)
        while self.size > self.max_bytes and self.entries:
            _, (_, _, old) = self.entries.popitem(last=False)
            self.size -= len(old)


def cached_app(app, cache: ResponseCache):
    """ASGI middleware answering repeated GETs from ``cache``."""

    async def serve(scope, receive, send):
        if scope.get("type") != "http" or scope.get("method") != "GET":
            return await app(scope, receive, send)
        key = scope.get("path", "").encode() + b"?" + (scope.get("query_string") or b"")
        found = cache.get(key)
        if found is not None:
            status, headers, body = found
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return None
        start: dict = {}
        chunks: list[bytes] = []

        async def capture(message):
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    cache.put(key, start.get("status", 0), list(start.get("headers", [])), b"".join(chunks))
            await send(message)

        return await app(scope, receive, capture)

    return serve
