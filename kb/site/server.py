"""Run ``kb serve`` in a child process on a free 127.0.0.1 port (browser tests, load benchmark, screenshots)."""
from __future__ import annotations

import http.client
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

#: how long to wait for the server to answer (it loads the lemma dictionaries first)
READY_ATTEMPTS = 600
READY_PAUSE = 0.1


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.request("GET", "/")
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


@contextmanager
def running(db_path: Path, debug_pages: bool = False, log: Path | None = None) -> Iterator[str]:
    """``kb serve --db db_path`` on a free port; yields its base URL (``http://127.0.0.1:PORT``)."""
    port = free_port()
    cmd = [sys.executable, "-m", "kb", "serve", "--db", str(db_path), "--port", str(port)]
    if debug_pages:
        cmd.append("--debug-pages")
    out = open(log, "w") if log else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT if log else subprocess.DEVNULL)
    try:
        for _ in range(READY_ATTEMPTS):
            if proc.poll() is not None:
                raise RuntimeError(f"kb serve exited with {proc.returncode}: {' '.join(cmd)}")
            if answers(port):
                break
            time.sleep(READY_PAUSE)
        else:
            raise RuntimeError(f"kb serve did not answer on port {port}")
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log:
            out.close()  # type: ignore[union-attr]
