"""The replay's steps and state (the referee's `replay` data) as sentences in the tablet's language.

A replay is a known game: its steps name colours and ranks for everyone, tablets and display.
"""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import color_name, piece_words

SHOWN_STEPS = 6  # more than this many steps: the first ones and how many follow


def _piece(tr: Translator, step: dict[str, Any]) -> dict[str, str]:
    return {"piece": piece_words(tr, step.get("kind")), "side": color_name(tr, step.get("color"))}


def replay_step_text(tr: Translator, step: dict[str, Any]) -> str:
    """One step ("place", "remove", "replace", "put_back", "move") as a sentence."""
    action, square, target = step.get("action"), step.get("square", ""), step.get("to", "")
    if action == "place":
        return tr("Put on {square}: {piece}, {side}.").format(square=square, **_piece(tr, step))
    if action == "remove":
        return tr("Take the piece off {square}.").format(square=square)
    if action == "replace":
        return tr("The wrong piece stands on {square}: put {piece}, {side}, there.").format(
            square=square, **_piece(tr, step))
    if action == "put_back":
        return tr("Put {piece}, {side}, back from {square} to {target}.").format(
            square=square, target=target, **_piece(tr, step))
    if action == "move":
        text = tr("Move {n}: {side} moves {piece} from {square} to {target}.").format(
            n=step.get("ply", ""), square=square, target=target, **_piece(tr, step))
        attacks = step.get("attacks")
        if isinstance(attacks, dict):
            text += " " + tr("It attacks {piece}, {side}.").format(**_piece(tr, attacks))
        return text
    return str(step)


def replay_lines(tr: Translator, replay: dict[str, Any]) -> list[str]:
    """What the panel says now: the phase, then the steps (the first few, and how many follow)."""
    phase = replay.get("phase")
    steps = [s for s in replay.get("steps", ()) if isinstance(s, dict)]
    if phase == "placing":
        head = [tr("Set up the board for the replay, square by square.")]
    elif phase == "end":
        head = [tr("The recorded game ends here. Play on from here, or go back.")]
    else:
        head = []
    if replay.get("wrong_move"):
        head.append(tr("{move} is not the game's move: put it back.").format(move=replay["wrong_move"]))
    lines = head + [replay_step_text(tr, step) for step in steps[:SHOWN_STEPS]]
    if len(steps) > SHOWN_STEPS:
        lines.append(tr("… and {count} more.").format(count=len(steps) - SHOWN_STEPS))
    return lines


def replay_title(tr: Translator, replay: dict[str, Any]) -> str:
    """The game's name and players, e.g. "raid.xml · Red: Anna · Blue: Boris"."""
    source = replay.get("source") or {}
    parts = [source.get("name") or tr("A recorded game")]
    players = source.get("players") or ["", ""]
    if any(players):
        parts.append(tr("Red: {red} · Blue: {blue}").format(red=players[0] or "?",
                                                           blue=players[1] or "?"))
    return " · ".join(parts)


def battle_lines(tr: Translator, replay: dict[str, Any]) -> list[str]:
    """The battles of the last move stepped forward."""
    lines = []
    for battle in replay.get("last_battles", ()):
        outcome = battle.get("outcome")
        won = {"attacker": tr("the attacker wins."), "defender": tr("the defender wins."),
               "both": tr("both pieces leave the board.")}.get(outcome, "")
        lines.append(tr("{attacker} attacked {defender}: {outcome}").format(
            attacker=piece_words(tr, battle.get("attacker")),
            defender=piece_words(tr, battle.get("defender")), outcome=won))
    return lines
