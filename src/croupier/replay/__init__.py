"""Scripted rounds: the scenario format of shared/spec/SCENARIOS.md behind ``croupier replay``."""

from croupier.replay.core import ScenarioError, replay, replay_file

__all__ = ["ScenarioError", "replay", "replay_file"]
