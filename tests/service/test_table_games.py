"""The shape of the service (issue 17): one registry of games that every layer reads, one adapter per game, and
typed round records with one codec."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from croupier.games import GAMES
from croupier.replay.core import RUNNERS
from croupier.service import table_games
from croupier.service.round_state import (
    Act,
    ActStep,
    BetHold,
    BetStep,
    CloseStep,
    ExtraHold,
    ForfeitStep,
    ResultStep,
    RoundState,
    VoidResultStep,
    VoidStep,
    step_from_json,
)

SERVICE = Path(table_games.__file__).parent


def test_every_game_has_each_layers_part_in_the_one_registry() -> None:
    for name, game in GAMES.items():
        adapter = game.part("table")
        assert issubclass(adapter, table_games.TableGame) and adapter.spec is game
        table = table_games.new_table_game(name, game.load({}), live=True, rng=None)
        assert table.name == name and table.bet_kinds == game.bet_kinds
        assert (table.betting_rule, table.void_rule, table.close_rule) == (
            game.rules.betting,
            game.rules.void,
            game.rules.close,
        )
        assert callable(game.part("par"))
        assert RUNNERS[name] is game.part("replay")
    assert [n for n, g in GAMES.items() if "odds" in g.parts] == ["roulette", "sicbo"]


def test_the_casino_picks_no_behaviour_by_the_games_name() -> None:
    source = (SERVICE / "casino.py").read_text(encoding="utf-8")
    assert not re.search(r"game\s*==", source)
    assert not re.search(r"[!=]=\s*\"(roulette|sicbo|blackjack)\"", source)


def test_the_service_reaches_into_no_engines_privates() -> None:
    for path in SERVICE.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\b(rnd|round|shoe|engine|table|op|q)\._[a-z]", source), path.name
        assert "__name__ ==" not in source and "deepcopy(self" not in source, path.name


def test_the_service_is_typed() -> None:
    lines = [
        f"{path.name}:{n}"
        for path in sorted(SERVICE.glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bAny\b", line)
    ]
    assert len(lines) < 20, lines


names = st.text("abcdefgh", min_size=1, max_size=6)
amounts = st.integers(1, 10_000)
wager_bets = st.fixed_dictionaries(
    {"type": st.sampled_from(["red", "straight", "small"]), "amount": amounts},
    optional={"numbers": st.lists(st.integers(0, 36), max_size=4), "face": st.integers(1, 6)},
)
blackjack_bets = st.fixed_dictionaries(
    {
        "box": st.integers(1, 7),
        "main": amounts,
        "side": st.dictionaries(st.sampled_from(["any_pair", "sevens"]), amounts, max_size=2),
        "streak": st.dictionaries(st.sampled_from(["2", "3", "4", "5"]), amounts, max_size=2),
    }
)
bets = st.one_of(wager_bets, blackjack_bets)
steps = st.one_of(
    st.builds(BetStep, names, names, bets),
    st.just(CloseStep()),
    st.builds(ResultStep, st.one_of(st.integers(0, 36), st.lists(st.integers(1, 6), min_size=3, max_size=3))),
    st.just(VoidResultStep()),
    st.builds(ForfeitStep, names),
    st.builds(
        ActStep,
        names,
        st.sampled_from(["hit", "stand", "double", "insurance"]),
        st.none() | st.integers(1, 7),
        st.none() | st.integers(0, 3),
        st.none() | amounts,
    ),
    st.builds(VoidStep, names),
)
holds = st.one_of(
    st.builds(
        BetHold,
        ref=names,
        player=names,
        amount=amounts,
        key=names,
        digest=names,
        status=st.sampled_from(["held", "pending"]),
        bet=bets,
        answer=st.fixed_dictionaries(
            {"table": names, "round": names, "ref": names, "amount": amounts, "bet": wager_bets}
        ),
        entry=st.none() | st.integers(1, 99),
    ),
    st.builds(
        ExtraHold,
        ref=names,
        player=names,
        amount=amounts,
        key=names,
        digest=names,
        status=st.just("held"),
        action=st.sampled_from(["double", "split", "insurance"]),
        entry=st.integers(1, 99),
    ),
)
acts = st.builds(
    Act,
    names,
    st.fixed_dictionaries(
        {
            "table": names,
            "round": names,
            "action": names,
            "box": st.integers(1, 7),
            "hand": st.none() | st.integers(0, 3),
            "extra_stake": st.integers(0, 100),
        }
    ),
)
states = st.builds(
    RoundState,
    holds=st.lists(holds, max_size=4).map(tuple),
    steps=st.lists(steps, max_size=6).map(tuple),
    cards=st.lists(st.sampled_from(["AS", "TD", "7C"]), max_size=5).map(tuple),
    reported=st.lists(st.sampled_from(["KH", "2S"]), max_size=2).map(tuple),
    acts=st.dictionaries(names, acts, max_size=2),
    next=st.integers(0, 500),
    stalled=st.none() | steps,
    nets=st.none() | st.dictionaries(names, st.integers(-500, 500), max_size=3),
    outcome=st.none() | st.fixed_dictionaries({"pocket": st.integers(0, 36)}),
    entry=st.none() | st.integers(1, 99),
)


@given(states)
def test_the_codec_reads_back_what_it_writes(state: RoundState) -> None:
    doc = state.to_json()
    assert RoundState.from_json(doc) == state
    optional = {"stalled", "nets", "outcome", "entry"}
    assert set(doc) - optional == {"holds", "steps", "cards", "reported", "acts", "next"}
    assert {k for k in optional if k in doc} == {k for k in optional if getattr(state, k) is not None}


@given(steps)
def test_each_step_is_tagged_with_its_kind(step: object) -> None:
    doc = step.to_json()  # type: ignore[attr-defined]
    kinds = {BetStep: "bet", CloseStep: "close", ResultStep: "result", VoidResultStep: "void_result"}
    kinds |= {ForfeitStep: "forfeit", ActStep: "act", VoidStep: "void"}
    assert doc["t"] == kinds[type(step)] and step_from_json(doc) == step
