"""schemathesis against the OpenAPI document of a real ``croupier serve`` process: every operation, with an admin's
bearer token, in its coverage, fuzzing and stateful phases — no input may make the server answer 5xx.

It runs the ``schemathesis`` CLI in a subprocess (one worker: the generator is not thread-safe on every Python),
with a fixed seed and a bounded number of examples per operation so that it stays within a minute. ``POST
/api/logout`` is left out: it would end the admin's session and leave every later request at 401."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from server.support import ADMIN, Server

MAX_EXAMPLES = 25
SEED = 20_240_531


def test_no_input_makes_a_server_error(server: Server, tmp_path: Path) -> None:
    for table, game in (("schema-ro", "roulette"), ("schema-bj", "blackjack")):  # something for reads to find
        body = {"table_id": table, "game": game, "betting_seconds": 30}
        r = server.client.post("/api/tables", json=body, headers=server.login(ADMIN))
        assert r.status_code == 201, r.text
    token = server.login(ADMIN)["Authorization"]
    cmd = [
        *(sys.executable, "-c", "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"),
        *("run", f"{server.base}/openapi.json", "--checks", "not_a_server_error"),
        *("--header", f"Authorization: {token}", "--exclude-path", "/api/logout"),
        *("--max-examples", str(MAX_EXAMPLES), "--seed", str(SEED), "--workers", "1"),
        *("--phases", "coverage,fuzzing,stateful", "--generation-database", "none", "--no-color"),
        *("--request-timeout", "30", "--output-truncate", "true"),
    ]
    run = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-20_000:]
    assert "Tested:" in output, output[-5_000:]  # it did reach the operations
    log = server.log.read_text()
    assert "Exception in ASGI application" not in log, log[-10_000:]
