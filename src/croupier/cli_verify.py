"""``croupier verify FILE``: check a provably fair round without trusting the house (``docs/fairness.md``).

FILE is what a player or an auditor can download: the fairness record (``GET /api/tables/{id}/rounds/{round}/fair``,
the page's "download"), a recalled round or a list of them (``GET /api/tables/{id}/rounds``), or an exported scenario
(``.../scenario``). Each record is checked with :func:`croupier.fair.verify`: SHA-256 of the revealed seed is the
commitment, and the outcome derived from the seed, the label and the public inputs is the recorded one (a roulette
pocket, sic bo dice, every card out of a blackjack shoe); a scenario's or a recalled round's own outcome is checked
against it too.

Exit status: 0 every record checks out; 1 one was tampered with (the message says whether the seed or the commitment,
or the outcome); 2 the file cannot be read or lacks a field (named), as the other commands' bad input.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from croupier import fair

TAMPERED = 1
BAD_INPUT = 2


def _fail(err: Console, message: str) -> typer.Exit:
    """Exit status 2 after ``message`` on standard error, in the style of the other commands."""
    err.print(f"[red]Error:[/red] {escape(message)}", soft_wrap=True, highlight=False)
    return typer.Exit(BAD_INPUT)


def _scenario_outcome(doc: Mapping[str, Any], game: str) -> object:
    """What an exported scenario states the outcome was: the last result of its round (roulette, sic bo), or every
    card its rounds dealt (blackjack, in order)."""
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds or not all(isinstance(r, Mapping) for r in rounds):
        raise fair.MissingField(["rounds"])
    if game == "blackjack":
        cards: list[object] = []
        for r in rounds:
            got = r.get("cards")
            if not isinstance(got, list):
                raise fair.MissingField(["rounds[].cards"])
            cards.extend(got)
        return cards
    results = rounds[-1].get("results")
    if not isinstance(results, list) or not results:
        raise fair.MissingField(["rounds[].results"])
    return results[-1]


def _recalled_outcome(doc: Mapping[str, Any], game: str) -> object:
    """What a recalled round states: its outcome's pocket or dice, or its cards (blackjack)."""
    if game == "blackjack":
        return doc.get("cards") if isinstance(doc.get("cards"), list) and doc.get("cards") else None
    outcome = doc.get("outcome")
    if not isinstance(outcome, Mapping):
        return None
    return outcome.get("pocket", outcome.get("dice"))


def _records(doc: object) -> list[tuple[str, Mapping[str, Any], object]]:
    """Each fairness record of the document, with what the document itself states as the outcome (or ``None``)."""
    if isinstance(doc, list):
        out: list[tuple[str, Mapping[str, Any], object]] = []
        for item in doc:
            out.extend(_records(item))
        return out
    if not isinstance(doc, Mapping):
        raise fair.MissingField(["fair (a fairness record, a recalled round or an exported scenario)"])
    if doc.get("version") == fair.VERSION or ("commitment" in doc and "label" in doc):
        return [("fairness record", doc, None)]
    record = doc.get("fair")
    if not isinstance(record, Mapping):
        raise fair.MissingField(["fair"])
    game = str(record.get("game"))
    if "rounds" in doc:
        return [("scenario", record, _scenario_outcome(doc, game))]
    return [(f"round {doc.get('round')}", record, _recalled_outcome(doc, game))]


def _show(value: object) -> str:
    if isinstance(value, list) and len(value) > 12 and all(isinstance(v, str) for v in value):
        return f"{len(value)} cards, {' '.join(value[:6])} … {' '.join(value[-3:])}"
    return json.dumps(value)


def verify(
    file: Annotated[
        Path, typer.Argument(help="A fairness record, a recalled round (or list) or an exported scenario.")
    ],
) -> None:
    """Check a provably fair round: the seed matches its commitment and the outcome is the derived one."""
    out, err = Console(), Console(stderr=True)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise _fail(err, f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(err, f"{file} is not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    try:
        found = _records(doc)
        if not found:
            raise fair.MissingField(["fair"])
        results = [(what, fair.verify(record, recorded=stated), record) for what, record, stated in found]
    except fair.MissingField as exc:
        names = ", ".join(exc.fields)
        hint = ""
        if "seed" in exc.fields:
            hint = " (the seed is revealed once the round is settled or voided, a blackjack shoe's once it has ended)"
        raise _fail(err, f"{file} lacks {names}{hint}") from None
    bad = 0
    for what, result, record in results:
        out.print(f"[bold]{escape(what)}[/bold] — {escape(str(record.get('game')))} {escape(result.label)}")
        for check in result.checks:
            mark = "[green]✓[/green]" if check["ok"] else "[red]✗[/red]"
            line = str(check["name"])
            if not check["ok"] or check["name"] != "commitment":
                line += f": derived {_show(check['derived'])}, recorded {_show(check['recorded'])}"
            out.print(f"  {mark} {escape(line)}", soft_wrap=True, highlight=False)
        if result.failure == "commitment":
            bad += 1
            err.print(
                f"[red]Tampered:[/red] {escape(what)}: SHA-256 of the seed is not the commitment (the seed or the "
                "commitment was changed).",
                soft_wrap=True,
                highlight=False,
            )
        elif result.failure == "outcome":
            bad += 1
            err.print(
                f"[red]Tampered:[/red] {escape(what)}: the recorded outcome is not the one derived from the seed.",
                soft_wrap=True,
                highlight=False,
            )
    if bad:
        raise typer.Exit(TAMPERED)
    out.print(f"[green]Verified[/green]: {len(results)} record(s).")
