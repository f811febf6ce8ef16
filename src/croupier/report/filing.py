"""What makes a PAR sheet a document a regulator can file: the rules' fingerprint and how to reproduce it, the
software and its versions, the date, a sign-off block, the canonical rules document itself, and the warnings
when a bet favours the player, naming the options that cause it.

The fingerprint is the SHA-256 of the canonical rules document, which is byte for byte what
``croupier rules show GAME --json`` prints: ``{"game": GAME, …every option…}`` as ``json.dumps(…, indent=2)``
and a newline, every option in its effective value (a default that follows other options written as the value
it takes), ASCII only. Two rules files that configure the same table therefore have the same fingerprint, and
``croupier rules show blackjack --preset statute --json | sha256sum`` prints it.
"""

from __future__ import annotations

import hashlib
import platform
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from typing import Any

from croupier import __version__, rulesdoc
from croupier.games import game as game_of
from croupier.report.html import Preformatted, Section, TableBlock
from croupier.report.sections import Number, pct
from croupier.rulesdoc import Difference

SIGNERS: tuple[str, ...] = (
    "Prepared by (the operator's analyst)",
    "Checked by (independent test laboratory or analyst)",
    "Approved by (for the regulator, DICJ)",
)
"""The sign-off block's lines (RULES.md BJ 21: options needing approval are filed with the regulator)."""


# -- the fingerprint ---------------------------------------------------------------------------------------------


def rules_document(game: str, rules: Any) -> bytes:
    """The canonical rules document: exactly the bytes ``croupier rules show GAME --json`` prints."""
    return rulesdoc.canonical_json(game, rules).encode("utf-8")


def fingerprint(game: str, rules: Any) -> str:
    """The SHA-256 (hex) of :func:`rules_document`."""
    return hashlib.sha256(rules_document(game, rules)).hexdigest()


def reproduce_command(game: str, source: str) -> str | None:
    """The shell command that prints the fingerprint again for rules from ``source`` (``preset NAME`` or
    ``file PATH``, as ``croupier par`` records it); None for rules given in Python."""
    if source.startswith("preset "):
        return f"croupier rules show {game} --preset {shlex.quote(source.removeprefix('preset '))} --json | sha256sum"
    if source.startswith("file "):
        return f"croupier rules show {game} --rules {shlex.quote(source.removeprefix('file '))} --json | sha256sum"
    return None


def versions(*packages: str) -> str:
    """croupier's version, Python's and the named packages' (those installed)."""
    parts = [f"croupier {__version__}", f"Python {platform.python_version()}"]
    for name in packages:
        try:
            parts.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            continue
    return ", ".join(parts)


def filing_section(
    game: str, rules: Any, *, source: str, generated: datetime, packages: Sequence[str] = ("numpy", "matplotlib")
) -> Section:
    """The sheet's filing part: the fingerprint and how to reproduce it, the software, the date, the sign-off
    block and the canonical rules document."""
    digest = fingerprint(game, rules)
    command = reproduce_command(game, source)
    s = Section("Fingerprint and sign-off", new_page=True)
    how = (
        f"Reproduce it with `{command}`."
        if command
        else "These rules were given in Python: save the document below byte for byte and run sha256sum on it."
    )
    s.paragraph(
        f"Rules fingerprint (SHA-256 of the canonical rules document below, as `croupier rules show {game} --json` "
        f"prints it): {digest}. {how} Any rules file that configures the same table gives the same fingerprint; "
        "any change to any option changes it."
    )
    s.add(
        TableBlock(
            ("", ""),
            [
                ["rules fingerprint (SHA-256)", digest],
                ["rules", source or "given in Python"],
                ["software", versions(*packages)],
                ["date", generated.strftime("%Y-%m-%d %H:%M UTC")],
            ],
            css_class="meta",
        ),
        TableBlock(
            ("role", "name", "signature", "date"),
            [[role, "", "", ""] for role in SIGNERS],
            heading="Sign-off",
            css_class="signoff",
            caption="Signed, this sheet attests the figures above for the rules with this fingerprint and this "
            "software version only.",
        ),
        Preformatted(rules_document(game, rules).decode("utf-8"), heading="The canonical rules document"),
    )
    return s


# -- bets that favour the player ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Causes:
    """The options behind a bet's edge for the player: ``alone`` holds those whose statutory value, restored on
    its own, gives the house the edge; ``together`` the options that do so only restored together (empty when
    some option does it alone or none can), with the edge they give (``together_edge``)."""

    alone: tuple[tuple[Difference, Number], ...]
    together: tuple[Difference, ...] = ()
    together_edge: Number | None = None

    def text(self) -> str:
        """The causes as a sentence's end."""
        if self.alone:
            return "caused by " + "; ".join(
                f"{d.option} = {rulesdoc.format_value(d.value)} ({d.rule}; the statute's "
                f"{rulesdoc.format_value(d.statute)} gives the house {pct(edge, 4, sign=True)})"
                for d, edge in self.alone
            )
        if self.together and self.together_edge is not None:
            names = ", ".join(f"{d.option} = {rulesdoc.format_value(d.value)} ({d.rule})" for d in self.together)
            return (
                f"no option alone, but together: {names} (the statute's values together give the house "
                f"{pct(self.together_edge, 4, sign=True)})"
            )
        return "not caused by an option that differs from the statute: the statute's own paytable does it"


def restore(game: str, rules: Any, statute: Any, option: str) -> Any:
    """``rules`` with one option (``name`` or a paytable entry ``name.key…``, as :func:`rulesdoc.differences`
    names it) set back to the statute's value."""
    doc: dict[str, Any] = rulesdoc.document(rules)
    theirs: Any = rulesdoc.document(statute)
    parts = option.split(".")
    target = doc
    for key in parts[:-1]:
        target[key] = dict(target[key])  # a copy: the document's objects may be shared
        target = target[key]
        theirs = theirs[key]
    target[parts[-1]] = theirs[parts[-1]]
    return game_of(game).load(doc)


def causes(
    game: str,
    rules: Any,
    statute: Any,
    edge_of: Callable[[Any], Number],
    diffs: Sequence[Difference] | None = None,
) -> Causes:
    """Which differences from the statute make ``edge_of(rules)`` (a house edge) zero or negative: each
    restored alone, then (if none suffices) every one that raises the edge restored together."""
    diffs = list(rulesdoc.differences(rules, statute) if diffs is None else diffs)
    base = edge_of(rules)
    alone: list[tuple[Difference, Number]] = []
    helping: list[Difference] = []
    for d in diffs:
        try:
            edge = edge_of(restore(game, rules, statute, d.option))
        except ValueError:
            continue  # restoring this option alone gives invalid rules
        if edge > 0:
            alone.append((d, edge))
        elif edge > base:
            helping.append(d)
    if alone or not helping:
        return Causes(tuple(alone))
    restored = rules
    for d in helping:
        try:
            restored = restore(game, restored, statute, d.option)
        except ValueError:
            return Causes(())
    edge = edge_of(restored)
    return Causes((), tuple(helping), edge) if edge > 0 else Causes(())


__all__ = [
    "SIGNERS",
    "Causes",
    "causes",
    "filing_section",
    "fingerprint",
    "reproduce_command",
    "restore",
    "rules_document",
    "versions",
]
