"""The server's HTTP protocol: uvicorn's h11 protocol with a deadline for incomplete requests.

uvicorn times out an idle keep-alive connection, but never one whose request is still arriving: a client that
sends half its headers (or a body it never finishes) holds its connection for ever.  :class:`GuardedH11Protocol`
gives each request :data:`REQUEST_TIMEOUT` seconds from its first byte (or from the connection's opening) to
arrive whole, then closes the connection; and a request h11 cannot parse (a malformed chunked body, say)
answers 400 with one short log line instead of a traceback.
"""
from __future__ import annotations

import asyncio
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: seconds a request may take to arrive whole (headers and body)
REQUEST_TIMEOUT = 5.0
log = logging.getLogger("kb.site")


class GuardedH11Protocol(H11Protocol):
    _request_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._request_timer is None and self.conn.their_state is not h11.DONE:
            self._arm()
        try:
            super().data_received(data)
        except (h11.LocalProtocolError, h11.RemoteProtocolError) as e:
            log.info("malformed HTTP request from %s: %s", self.client, str(e)[:120])
            self._close()
            return
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._disarm()

    def send_400_response(self, msg: str) -> None:
        """h11 could not parse the request (a malformed chunked body, say): 400, and the application, which may
        have begun with the request's headers, answers no one (without this it meets a closed connection and
        uvicorn logs its traceback)."""
        started = self.cycle is not None and self.cycle.response_started
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        if started:
            self._close()
            return
        super().send_400_response(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._request_timer = self.loop.call_later(REQUEST_TIMEOUT, self._timed_out)

    def _disarm(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _timed_out(self) -> None:
        self._request_timer = None
        if self.conn.their_state is not h11.DONE:
            log.info("request from %s incomplete after %.0f s: connection closed", self.client, REQUEST_TIMEOUT)
            self._close()

    def _close(self) -> None:
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        if not self.transport.is_closing():
            self.transport.close()
