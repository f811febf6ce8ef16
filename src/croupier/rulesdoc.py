"""Rules as documents: typed, frozen, validated configurations that cite the statute.

Every game's rules class is a frozen, keyword-only dataclass whose fields are declared with :func:`option`.
Each option names its rule id, its kind (RULES.md: *approval*, *waivable*, *outside the statute*, or a table
limit), a parser for the value as written in TOML/JSON, and how to write it back. :func:`load` turns a
mapping into rules, reporting **every** problem at once and refusing unknown keys.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, TypeVar

from croupier.errors import InvalidRules
from croupier.money import DEFAULT_MAX_BET, DEFAULT_MIN_BET, Limit, is_amount


class OptionKind(StrEnum):
    """How RULES.md classifies a departure from the statute's default."""

    APPROVAL = "approval"
    WAIVABLE = "waivable"
    OUTSIDE = "outside the statute"
    LIMIT = "table limit"


Parser = Callable[[object], Any]
Dumper = Callable[[Any], object]


@dataclass(frozen=True)
class OptionSpec:
    """What a rules field means: its rule id, kind, help text and (de)serialisers."""

    name: str
    rule: str
    kind: OptionKind
    doc: str
    parse: Parser
    dump: Dumper
    kind_of: Callable[[Any], OptionKind] | None = None
    effective: Callable[[Any], Any] | None = None

    def value_in(self, rules: Any) -> object:
        """The option's value in ``rules`` as written in a file; a default that depends on other options
        (``max_split_hands`` by procedure, say) is written as the value it takes."""
        raw = self.effective(rules) if self.effective is not None else getattr(rules, self.name)
        return self.dump(raw)

    def kind_for(self, value: object) -> OptionKind:
        """The kind of choosing ``value`` (as written in a file): some options are statutory for one value
        and outside the statute for another (e.g. ``dealer_soft_17``)."""
        return self.kind_of(value) if self.kind_of is not None else self.kind


def option(
    *,
    rule: str,
    kind: OptionKind,
    doc: str,
    parse: Parser,
    dump: Dumper = lambda v: v,
    kind_of: Callable[[Any], OptionKind] | None = None,
    effective: Callable[[Any], Any] | None = None,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | Any = MISSING,
) -> Any:
    """Declare a rules field (use inside a frozen, keyword-only dataclass)."""
    meta = {
        "rule": rule,
        "kind": kind,
        "doc": doc,
        "parse": parse,
        "dump": dump,
        "kind_of": kind_of,
        "effective": effective,
    }
    if default_factory is not MISSING:
        return field(default_factory=default_factory, metadata=meta)
    return field(default=default, metadata=meta)


def spec_of(f: Field[Any]) -> OptionSpec:
    """The :class:`OptionSpec` of a rules dataclass field."""
    m = f.metadata
    return OptionSpec(
        f.name, m["rule"], m["kind"], m["doc"], m["parse"], m["dump"], m.get("kind_of"), m.get("effective")
    )


class GameRules(Protocol):
    """What every game's rules class provides."""

    GAME: ClassVar[str]

    def problems(self) -> list[str]: ...


R = TypeVar("R")


def option_specs(cls: type[Any]) -> list[OptionSpec]:
    """The options of a rules class, in declaration order."""
    return [spec_of(f) for f in fields(cls)]


def raise_problems(rules: GameRules) -> None:
    """Called by ``__post_init__``: values given in Python as plain data (``"shoe"``, ``[...]``, ``{...}``,
    ``0.75``) become the option's own type as a file's would; then one :class:`InvalidRules` lists every
    problem of ``rules``."""
    problems = _coerce(rules)
    if problems:
        raise InvalidRules(problems)
    problems = rules.problems()
    if problems:
        raise InvalidRules(problems)


def _coerce(rules: Any) -> list[str]:
    problems: list[str] = []
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.default is not MISSING:
            default: Any = f.default
        elif f.default_factory is not MISSING:
            default = f.default_factory()
        else:
            continue
        if value is default or (default is not None and isinstance(value, type(default))):
            continue
        if default is None and (value is None or isinstance(value, int)):
            continue
        try:
            object.__setattr__(rules, f.name, spec_of(f).parse(value))
        except ValueError as exc:
            problems.append(f"option {f.name} ({f.metadata['rule']}): {exc}")
    return problems


# -- parsers shared by the games -------------------------------------------------------------------------


MAX_NUMBER = 10**15
"""The largest number a rules option takes (a quadrillion units): far above any table, small enough that every
amount and payout stays printable and exact."""

MAX_ODDS = 10**9


def parse_int(value: object) -> int:
    """An integer (not a boolean, not a float) of at most :data:`MAX_NUMBER` in size."""
    if not is_amount(value):
        raise ValueError(f"{value!r} is not an integer")
    assert isinstance(value, int)
    if abs(value) > MAX_NUMBER:
        raise ValueError(f"{value} is larger than croupier takes ({MAX_NUMBER:.0e})")
    return value


def parse_bool(value: object) -> bool:
    """``true`` or ``false``."""
    if not isinstance(value, bool):
        raise ValueError(f"{value!r} is not true or false")
    return value


_ODDS_TEXT = re.compile(r"\s*[+-]?\d+(\.\d+)?\s*(/\s*\d+\s*)?")
"""Odds as text: digits, an optional decimal part, an optional ``/denominator``; no exponent."""


def parse_odds(value: object) -> Fraction:
    """Odds "A to 1": a positive integer, or a fraction written ``"3/2"``."""
    if is_amount(value):
        assert isinstance(value, int)
        odds = Fraction(value)
    elif isinstance(value, str):
        # Only plain digits: Fraction() also reads exponents ("1e999999999" would take minutes to expand).
        if not _ODDS_TEXT.fullmatch(value):
            raise ValueError(f'{value!r} is not odds (an integer or a fraction like "3/2")')
        try:
            odds = Fraction(value)
        except (ValueError, ZeroDivisionError):  # over the int digit limit, or "3/0"
            raise ValueError(f'{value!r} is not odds (an integer or a fraction like "3/2")') from None
    else:
        raise ValueError(f'{value!r} is not odds (an integer or a fraction like "3/2")')
    if odds <= 0:
        raise ValueError(f"odds {value!r} are not positive")
    if odds > MAX_ODDS or odds.denominator > MAX_ODDS:
        raise ValueError(f"odds {value!r} are beyond what croupier takes ({MAX_ODDS:.0e} to 1)")
    return odds


def dump_odds(value: Fraction) -> int | str:
    """Odds as written in a rules file."""
    return int(value) if value.denominator == 1 else str(value)


def limit_parser(bet_types: Iterable[str], default: int) -> Parser:
    """Parse ``min_bet``/``max_bet``: one integer, or an object by bet type (missing types keep ``default``)."""
    known = tuple(bet_types)

    def parse(value: object) -> Limit:
        if is_amount(value):
            assert isinstance(value, int)
            return Limit(value)
        if isinstance(value, Mapping):
            by_type: dict[str, int] = {}
            for key, amount in value.items():
                if key not in known:
                    raise ValueError(f"{key!r} is not a bet type (one of {', '.join(known)})")
                by_type[str(key)] = parse_int(amount)
            return Limit(default, MappingProxyType(by_type))
        raise ValueError(f"{value!r} is not an integer or an object by bet type")

    return parse


def limit_fields(bet_types: Iterable[str]) -> tuple[Any, Any, Any]:
    """The three table-limit options every game has: ``chip_unit``, ``min_bet``, ``max_bet``."""
    types = tuple(bet_types)
    chip = option(
        rule="Money and table limits",
        kind=OptionKind.LIMIT,
        doc="The table's smallest unit; every amount is a whole number of chip units.",
        parse=parse_int,
        default=1,
    )
    low = option(
        rule="Money and table limits",
        kind=OptionKind.LIMIT,
        doc="Minimum stake: one integer or an object by bet type (default 2).",
        parse=limit_parser(types, DEFAULT_MIN_BET),
        dump=Limit.as_document,
        default=Limit(DEFAULT_MIN_BET),
    )
    high = option(
        rule="Money and table limits",
        kind=OptionKind.LIMIT,
        doc="Maximum stake: one integer or an object by bet type (default 1,000,000).",
        parse=limit_parser(types, DEFAULT_MAX_BET),
        dump=Limit.as_document,
        default=Limit(DEFAULT_MAX_BET),
    )
    return chip, low, high


def limit_problems(chip_unit: int, min_bet: Limit, max_bet: Limit, bet_types: Iterable[str]) -> list[str]:
    """Problems of the table limits: chip unit ≥ 1, 1 ≤ minimum ≤ maximum for every bet type."""
    out: list[str] = []
    if chip_unit < 1:
        out.append(f"chip_unit {chip_unit} must be at least 1 (Money and table limits).")
    for bet_type in bet_types:
        low, high = min_bet.for_type(bet_type), max_bet.for_type(bet_type)
        if low < 1:
            out.append(f"min_bet {low} for {bet_type} must be at least 1 (Money and table limits).")
        if high < low:
            out.append(f"max_bet {high} for {bet_type} is below min_bet {low} (Money and table limits).")
    return out


# -- loading and reporting ----------------------------------------------------------------------------------

FREE_TEXT_KEYS = frozenset({"title", "description", "comment", "notes"})
"""Keys a document may carry as free text (and any key starting with ``_``)."""


def is_free_text(key: str) -> bool:
    """A key that documents rather than configures."""
    return key.startswith("_") or key in FREE_TEXT_KEYS


def load(
    cls: type[R],
    document: Mapping[str, object],
    presets: Mapping[str, R],
    *,
    game: str,
) -> R:
    """Build rules of ``cls`` from a document: optional ``preset`` (and ``game``) plus options.

    Every problem (unknown keys, unparsable values, violated constraints) is collected and raised together
    as one :class:`InvalidRules`.
    """
    if not isinstance(document, Mapping):
        raise InvalidRules([f"the rules must be an object of options, not {document!r}"])
    problems: list[str] = []
    preset_name = document.get("preset", "statute")
    base = presets.get(preset_name) if isinstance(preset_name, str) else None
    if base is None:
        problems.append(f"preset {preset_name!r} is not a {game} preset (one of {', '.join(sorted(presets))})")
        base = presets["statute"]
    doc_game = document.get("game", game)
    if doc_game != game:
        problems.append(f"these are {doc_game!r} rules, not {game} rules")
    specs = {s.name: s for s in option_specs(cls)}
    changes: dict[str, Any] = {}
    for key, value in document.items():
        if key in ("preset", "game") or is_free_text(key):
            continue
        spec = specs.get(key)
        if spec is None:
            problems.append(f"{key!r} is not a {game} option (options: {', '.join(specs)})")
            continue
        try:
            changes[key] = spec.parse(value)
        except ValueError as exc:
            problems.append(f"option {key} ({spec.rule}): {exc}")
    try:
        rules = replace(base, **changes)  # type: ignore[type-var]
    except InvalidRules as exc:
        problems.extend(exc.problems)
        raise InvalidRules(problems) from None
    if problems:
        raise InvalidRules(problems)
    return rules


def read_document(path: str | Path) -> dict[str, Any]:
    """Read a rules file: TOML (``.toml``) or JSON (``.json``). Raise :class:`InvalidRules` if unreadable."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidRules([f"cannot read the rules file {str(p)!r}: {exc}"]) from None
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, RecursionError) as exc:
        # ValueError: JSONDecodeError, TOMLDecodeError, and an integer over Python's digit limit;
        # RecursionError: arrays or objects nested too deeply for the parser.
        raise InvalidRules([f"{str(p)!r} is not valid {p.suffix.lstrip('.').upper() or 'TOML'}: {exc}"]) from None
    if not isinstance(data, dict):
        raise InvalidRules([f"{str(p)!r} must hold an object of options"])
    return data


def canonical_json(game: str, rules: Any) -> str:
    """The canonical rules document of ``rules`` for ``game``: exactly what ``croupier rules show GAME --json``
    prints, and what a PAR sheet's fingerprint hashes (BJ 21: the options a house files)."""
    return json.dumps({"game": game, **document(rules, effective=True)}, indent=2) + "\n"


def document(rules: Any, *, effective: bool = False) -> dict[str, object]:
    """Every option of ``rules`` as it would be written in a rules file (JSON-compatible).

    With ``effective`` a default that follows other options is written as the value it takes (for display);
    without, as written (``null``), so that the document loads back to equal rules.
    """
    return {
        s.name: s.value_in(rules) if effective else s.dump(getattr(rules, s.name)) for s in option_specs(type(rules))
    }


@dataclass(frozen=True)
class Difference:
    """One option whose value differs from the statute's default."""

    option: str
    value: object
    statute: object
    kind: OptionKind
    rule: str


def differences(rules: Any, statute: Any) -> list[Difference]:
    """The options of ``rules`` that differ from ``statute``, each with its kind and rule id.

    An option whose value is an object (a paytable, limits by bet type) is compared key by key and each
    changed entry is listed as ``option.key``.
    """
    out: list[Difference] = []
    for s in option_specs(type(rules)):
        mine = s.value_in(rules)
        if s.effective is not None:
            # A default that follows other options (the split limit by procedure, the cut by decks) is compared
            # with the statute's default for this configuration, not for the statute's other options.
            theirs = s.value_in(replace(rules, **{s.name: getattr(statute, s.name)}))
        else:
            theirs = s.value_in(statute)
        out.extend(_diff(s.name, mine, theirs, s))
    return out


def _diff(name: str, mine: object, theirs: object, spec: OptionSpec) -> list[Difference]:
    if mine == theirs:
        return []
    if isinstance(mine, dict) and isinstance(theirs, dict):
        out: list[Difference] = []
        for key in [*theirs, *(k for k in mine if k not in theirs)]:
            out.extend(_diff(f"{name}.{key}", mine.get(key), theirs.get(key), spec))
        return out
    return [Difference(name, mine, theirs, spec.kind_for(mine), spec.rule)]


def format_value(value: object, *, nested: bool = False) -> str:
    """A compact human rendering of an option value (objects as ``key value · key value``)."""
    if isinstance(value, dict):
        if nested:
            return "{" + ", ".join(f"{k}: {format_value(v, nested=True)}" for k, v in value.items()) + "}"
        return " · ".join(f"{k} {format_value(v, nested=True)}" for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(format_value(v, nested=True) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "default"
    return str(value)
