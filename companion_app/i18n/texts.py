"""Sentences the app builds from game data (battles, refusals, results), in the tablet's language."""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_, Translator
from companion_app.model.table import Battle
from firmware_bridge.protocol.board_steps import BoardStep, StepAction, known_step


def color_name(tr: Translator, color: str | None) -> str:
    """"Red" or "Blue" in the current language."""
    return {"red": tr("Red"), "blue": tr("Blue")}.get(color or "", tr("Nobody"))


def device_name(tr: Translator, seat: str) -> str:
    """The device a seat is played on: "Red tablet", "Blue tablet", "Referee display"."""
    return {"red": tr("Red tablet"), "blue": tr("Blue tablet"), "display": tr("Referee display")}.get(seat, seat)


def piece_words(tr: Translator, kind: str | None) -> str:
    """A piece named with its mark, e.g. "Captain (6)"; "an unknown piece" for a hidden one."""
    if kind is None:
        return tr("an unknown piece")
    mark = tr.rank_label(kind)
    name = tr.kind_name(kind)
    return name if mark in ("B", "F") or not mark else f"{name} ({mark})"


def battle_text(tr: Translator, battle: Battle, seat: str | None) -> str:
    """The battle told to one viewer: which ranks met, who won, what to take off the board."""
    attacker = piece_words(tr, battle.attacker_kind)
    defender = piece_words(tr, battle.defender_kind)
    if seat == battle.attacker_color:
        head = tr("Your {attacker} attacked {defender}.")
    elif seat == battle.defender_color:
        head = tr("{attacker} attacked your {defender}.")
    else:
        head = tr("{side}: {attacker} attacked {defender}.").replace(
            "{side}", color_name(tr, battle.attacker_color))
    first = head.format(attacker=attacker, defender=defender)
    lines = [first[:1].upper() + first[1:]]  # "An unknown piece attacked ..."
    winner = battle.winner_color()
    if winner is None:
        lines.append(tr("Both pieces leave the board."))
    elif winner == seat:
        lines.append(tr("You won the battle."))
    elif seat in ("red", "blue"):
        lines.append(tr("You lost the battle."))
    else:
        lines.append(tr("{side} won the battle.").format(side=color_name(tr, winner)))
    off = battle_removals(battle)
    if off:
        lines.append(tr("Take off the board at {square}: {what}").format(
            square=battle.square, what=", ".join(piece_words(tr, kind) for kind in off)))
    if battle.outcome == "defender":
        lines.append(tr("Put {piece} back on {square}.").format(
            piece=piece_words(tr, battle.defender_kind), square=battle.square))
    return "\n".join(lines)


def battle_removals(battle: Battle) -> list[str | None]:
    """Kinds of the pieces the battle takes off the board.

    On the physical board both pieces were lifted and the attacker put on the target square,
    so every piece to take off is on (or just lifted from) the target square.
    """
    out = []
    if battle.outcome in ("defender", "both"):
        out.append(battle.attacker_kind)
    if battle.outcome in ("attacker", "both"):
        out.append(battle.defender_kind)
    return out


REFUSAL_RULES = {
    "movement": N_("That move is not allowed."),
    "turn": N_("It is not your turn."),
    "two-squares": N_("Two-squares rule: this piece may not move back and forth between the same two squares again."),
    "more-squares": N_("Chasing rule: you may not keep chasing that piece into a position that already occurred."),
    "game-over": N_("The game is over."),
    "computer-move": N_("That is not the move the computer asked for."),
}


# A refusal's `reason` (engine.core.Refusal) as a sentence; its `data` fill the placeholders.
REFUSAL_REASONS = {
    "off-board": N_("{square} is not on the board."),
    "no-piece": N_("There is no piece on {square}."),
    "not-your-turn": N_("It is not your turn."),
    "immobile": N_("The {piece} on {square} cannot move."),
    "lake": N_("{square} is a lake: no piece may enter it."),
    "volcano": N_("{square} is a volcano: no piece may enter it."),
    "own-piece": N_("{square} holds one of your own pieces."),
    "diagonal": N_("Pieces move straight, never diagonally."),
    "one-square": N_("The {piece} moves one square at a time."),
    "scout-long-attack": N_("In this game a Scout may not attack at the end of a long move."),
    "path-blocked": N_("The way from {origin} to {target} is not free."),
    "same-piece": N_("This turn's second move must be made by a different piece."),
    "straight-back": N_("This piece may not go straight back to {square}, which it just left."),
    "two-squares": N_("Two-squares rule: this piece may not move between the same two squares "
                      "more than {limit} times in a row."),
    "more-squares": REFUSAL_RULES["more-squares"],
    "game-over": N_("The game is over."),
}


def refusal_reason_text(tr: Translator, reason: str, data: dict[str, Any]) -> str | None:
    """A refusal's reason in the tablet's language, or None for a reason this app does not know."""
    if reason not in REFUSAL_REASONS:
        return None
    values = {key: value for key, value in data.items() if isinstance(value, (str, int))}
    values["piece"] = tr.kind_name(str(data.get("kind"))) if data.get("kind") else tr("piece")
    try:
        return tr(REFUSAL_REASONS[reason]).format_map(values)
    except (KeyError, ValueError):  # data that does not fit the sentence: say the rule instead
        return None


def refusal_text(tr: Translator, refusal: dict[str, Any]) -> str:
    """Why the referee refused a move and how to put it right, every word in the tablet's language."""
    rule = refusal.get("rule", "")
    data = refusal.get("data")
    move = str(refusal.get("move") or "")  # a reply to a tablet's move names none
    lines = [tr("The referee refused {move}.").format(move=move) if move else tr("The referee refused your move.")]
    told = refusal_reason_text(tr, str(refusal.get("reason") or ""), data if isinstance(data, dict) else {})
    # An older referee sends no reason: the rule's own sentence, never its English message.
    lines.append(told or tr(REFUSAL_RULES.get(rule, REFUSAL_RULES["movement"])))
    if "-" in move:
        lines.append(tr("Put the piece back on {square}.").format(square=move.split("-")[0]))
    return "\n".join(lines)


def warning_text(tr: Translator, warning: tuple[str, str, str]) -> str:
    """A warning before a repetition rule bites."""
    kind, square, back = warning
    if kind == "chase-refused":
        return tr("Chasing rule: you are chasing the piece on {square}. Not allowed now: {moves}.").format(
            square=square, moves=back)
    if kind == "chasing":
        return tr("Chasing rule: you are chasing the piece on {square}; a move that repeats a "
                  "position of this chase will be refused.").format(square=square)
    if kind == "two-squares-now":
        return tr("Two-squares rule: the piece on {square} may not go back to {back} now.").format(
            square=square, back=back)
    return tr("Two-squares rule: the piece on {square} may go back to {back} only once more.").format(
        square=square, back=back)


def reveal_text(tr: Translator, reveal: dict[str, Any]) -> str:
    """A spy's recognition, told privately to its owner."""
    return tr("Your spy recognised {piece} on {square}.").format(
        piece=piece_words(tr, reveal.get("kind")), square=reveal.get("square", ""))


def pass_text(tr: Translator, color: str, seat: str | None) -> str:
    """A player who could not move passed the turn (Espionage)."""
    if color == seat:
        return tr("You cannot move: your turn passes.")
    return tr("{side} cannot move and passes.").format(side=color_name(tr, color))


def takeback_lines(tr: Translator, move: str, restore: list[tuple[str, str, dict[str, Any] | None]],
                   seat: str | None) -> list[str]:
    """A move taken back, and which piece goes back where on the physical board.

    Each player handles their own pieces, so a tablet names its player's pieces and says of the
    opponent's only that they move, come off or go back.
    """
    lines = [tr("The move {move} was taken back.").format(move=move)]
    return lines + [text for step in restore_plan(restore) if (text := board_step_text(tr, step, seat))]


def restore_plan(restore: list[tuple[str, str, dict[str, Any] | None]]) -> list[BoardStep]:
    """A takeback's changes of the board (off/on by piece) as board steps naming each piece's side.

    A piece that comes off one square and goes on another moves back; ``kind`` only where this
    tablet's view shows it.
    """
    came_from = {piece["id"]: square for step, square, piece in restore if step == "off" and piece}
    goes_to = {piece["id"] for step, _square, piece in restore if step == "on" and piece}
    plan: list[BoardStep] = []
    for step, square, piece in restore:
        if piece is None or (step == "off" and piece["id"] in goes_to):
            continue  # nothing known, or told as a move back
        if step == "off":
            told: BoardStep = {"action": StepAction.REMOVE.value, "square": square}
        elif piece["id"] in came_from:
            told = {"action": StepAction.MOVE.value, "square": came_from[piece["id"]], "to": square}
        else:
            told = {"action": StepAction.PUT_BACK.value, "square": square}
        if piece.get("color") in ("red", "blue"):
            told["color"] = piece["color"]
        if piece.get("kind"):
            told["kind"] = piece["kind"]
        plan.append(told)
    return plan


RESULT_REASONS = {
    "flag-captured": N_("the flag was captured"),
    "headquarters-captured": N_("the headquarters was captured"),
    "no-movable-pieces": N_("a side has no piece that can move"),
    "no-legal-move": N_("a side had no legal move left"),
    "both-immobile": N_("neither side can move"),
    "neither-can-move": N_("neither side can move"),  # Espionage: every mobile piece blocked
    "agreement": N_("both players agreed to a draw"),
    "resignation": N_("a player resigned"),
    "game-time": N_("the game time ran out"),
    "clock": N_("a player's time ran out"),
}


PROBLEMS = {
    "storage-full": N_("The referee cannot record moves: storage full"),
    "storage-read-only": N_("The referee cannot record moves: storage is read-only"),
}


def referee_back_text(tr: Translator, away_s: int) -> str:
    """The referee restarted: how long it was away; the clocks did not run meanwhile."""
    return tr(N_("The referee was away {seconds} s; clocks were paused")).format(seconds=away_s)


def problem_text(tr: Translator, code: str) -> str:
    """What keeps the referee from ruling, in the tablet's language (by the contract's code)."""
    return tr(PROBLEMS.get(code, N_("The referee cannot record moves")))


def result_text(tr: Translator, result: dict[str, Any], seat: str | None) -> str:
    """The end of the game in one or two lines."""
    winner = result.get("winner")
    reason = str(result.get("reason", ""))
    reason_words = tr(RESULT_REASONS[reason]) if reason in RESULT_REASONS else reason
    if winner is None:
        head = tr("Draw")
    elif winner == seat:
        head = tr("You won!")
    elif seat in ("red", "blue"):
        head = tr("You lost.")
    else:
        head = tr("{side} wins").format(side=color_name(tr, winner))
    return head + "\n" + tr("Reason: {reason}").format(reason=reason_words)


def clock_text(seconds: float | None) -> str:
    """mm:ss (or h:mm:ss) for a clock; an empty string when there is no clock."""
    if seconds is None:
        return ""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


# The referee's board steps (firmware_bridge.protocol.board_steps): one sentence per action.
STEP_SENTENCES = {
    StepAction.MOVE: N_("Move the piece from {square} to {target}."),
    StepAction.REMOVE: N_("Take the piece off {square}."),
    StepAction.PUT_BACK: N_("Put the missing piece back on {square}."),
    StepAction.PLACE: N_("Put a piece on {square}."),
    StepAction.MARKER: N_("Put a volcano marker on {square}."),
    StepAction.REPLACE: N_("The piece on {square} is the wrong one: swap it for the right piece."),
}


# A step that says whose piece it is (a takeback): the viewer's own piece by name, else its side.
PIECE_SENTENCES = {
    StepAction.REMOVE: (N_("Take your {piece} off {square}."), N_("{side} takes a piece off {square}.")),
    StepAction.MOVE: (N_("Move your {piece} back from {origin} to {square}."),
                      N_("{side} moves a piece back from {origin} to {square}.")),
    StepAction.PUT_BACK: (N_("Put your {piece} back on {square}."), N_("{side} puts a piece back on {square}.")),
}


def board_step_text(tr: Translator, step: Any, seat: str | None = None) -> str | None:
    """One board step ({"action": "remove", "square": "d7"}) in the tablet's language.

    seat: the viewer; a step naming a piece's ``color`` is told as "your" piece to its owner.
    None for a step this app cannot tell (an action of a newer referee, a malformed step).
    """
    known = known_step(step)
    if known is None:
        return None
    action, origin, target = StepAction(known["action"]), known["square"], known.get("to", "")
    color = known.get("color")
    if color and action in PIECE_SENTENCES:
        own, other = PIECE_SENTENCES[action]
        return tr(own if color == seat else other).format(
            piece=piece_words(tr, known.get("kind")), side=color_name(tr, color),
            origin=origin, square=target or origin)
    return tr(STEP_SENTENCES[action]).format(square=origin, target=target)


def board_step_lines(tr: Translator, steps: list[Any]) -> list[str] | None:
    """Every step in order, or None if the app cannot tell one of them (the caller falls back)."""
    lines = [board_step_text(tr, step) for step in steps]
    return None if None in lines else [line for line in lines if line is not None]


def guidance_lines(tr: Translator, guidance: dict[str, list[str]] | None, steps: list[Any]) -> list[str]:
    """What to do to put the board right: the referee's steps in order, else the squares to fix."""
    if not guidance:
        return []
    told = board_step_lines(tr, steps) if steps else None
    if told:
        return told
    lines = []
    if guidance["clear"]:
        lines.append(tr("Take the pieces off: {squares}").format(squares=", ".join(guidance["clear"])))
    if guidance["fill"]:
        lines.append(tr("Put pieces back on: {squares}").format(squares=", ".join(guidance["fill"])))
    return lines


# The computer's move, made on the board by the human (firmware_bridge/referee/computer_seat.py).
COMPUTER_MOVE_SENTENCES = {
    "red": N_("Move the red piece from {square} to {target} for the computer."),
    "blue": N_("Move the blue piece from {square} to {target} for the computer."),
}
# When the target square holds a piece, the computer attacks it: the sentence says so.
COMPUTER_ATTACK_SENTENCES = {
    ("red", "yours"): N_("Move the red piece from {square} to {target} for the computer: it attacks your {piece}."),
    ("blue", "yours"): N_("Move the blue piece from {square} to {target} for the computer: it attacks your {piece}."),
    ("red", "public"): N_("Move the red piece from {square} to {target} for the computer: it attacks the blue piece there."),
    ("blue", "public"): N_("Move the blue piece from {square} to {target} for the computer: it attacks the red piece there."),
}


def computer_move_text(tr: Translator, computer_move: Any, view: dict[str, Any] | None = None,
                       seat: str | None = None) -> str:
    """The public state's ``computer_move`` as a sentence ("" when there is none or it is malformed);
    with the viewer's `view`, an attack names the piece attacked (its rank only to its owner)."""
    if not isinstance(computer_move, dict) or computer_move.get("seat") not in COMPUTER_MOVE_SENTENCES:
        return ""
    square, target = computer_move.get("square"), computer_move.get("to")
    if not (isinstance(square, str) and isinstance(target, str)):
        return ""
    computer = computer_move["seat"]
    attacked = next((p for p in (view or {}).get("pieces", ()) if p.get("square") == target
                     and p.get("color") not in (None, computer)), None)
    if attacked is None:
        return tr(COMPUTER_MOVE_SENTENCES[computer]).format(square=square, target=target)
    owner = "yours" if attacked["color"] == seat else "public"
    return tr(COMPUTER_ATTACK_SENTENCES[(computer, owner)]).format(
        square=square, target=target, piece=piece_words(tr, attacked.get("kind")))


def volcano_marker_lines(tr: Translator, steps: list[Any], volcanoes: list[str]) -> list[str]:
    """Where the volcano markers go on the real board (Espionage): the referee's steps, or the squares."""
    told = board_step_lines(tr, steps) if steps else None
    if told:
        return told
    if volcanoes:
        return [tr("Volcano markers go on: {squares}").format(squares=", ".join(volcanoes))]
    return []


def own_key_text(tr: Translator, fingerprint: str | None) -> str:
    """"Your key: 0412-…", for the player to compare with the referee display ("" without a key)."""
    if not fingerprint:
        return ""
    return tr("Your key: {fingerprint}. The referee display must show the same number for your seat.").format(
        fingerprint=fingerprint)


def seat_keys_text(tr: Translator, fingerprints: dict[str, str], referee: str | None = None) -> str:
    """Each paired seat's key on the referee display, and the referee's own, with what to compare."""
    lines = []
    if fingerprints:
        lines.append(tr("Compare each tablet's \"your key\" with its seat's number here: "
                        "a different number means another tablet holds that seat."))
        lines += [f"{color_name(tr, seat)}: {fingerprints[seat]}" for seat in ("red", "blue") if seat in fingerprints]
    if referee:
        # The display trusts the first referee key it sees: the console shows the true one.
        lines.append(tr("Referee: {fingerprint}. The referee's console must show the same number.").format(
            fingerprint=referee))
    return "\n".join(lines)


def notebook_lines(tr: Translator, page: dict[str, Any] | None) -> list[str]:
    """The notebook page (``Notebook.to_dict()``): each enemy piece's likeliest ranks, their army
    left, and which of my pieces the opponent knows."""
    if not page:
        return [tr("The notebook opens once the game has started.")]
    lines = ["[b]" + tr("Notebook: what each enemy piece can be") + "[/b]"]
    for piece in sorted(page.get("pieces", ()), key=lambda p: (p["square"][0], int(p["square"][1:]))):
        if not piece.get("square"):
            continue
        likely = sorted(piece.get("kinds", {}).items(), key=lambda item: -item[1])[:3]
        chances = " · ".join(f"{tr.kind_name(kind)} {round(100 * share)}%" for kind, share in likely)
        lines.append(f"{piece['square']}: {chances}")
    army = ", ".join(f"{tr.kind_name(kind)} {count}" for kind, count in page.get("remaining", {}).items() if count)
    lines.append(tr("Their army left: {army}").format(army=army))
    known = page.get("known_to_opponent", [])
    if known:
        pieces = ", ".join(f"{tr.kind_name(p['kind'])} {p['square']}" for p in known if p.get("square"))
        lines.append(tr("They know your pieces: {pieces}").format(pieces=pieces))
    else:
        lines.append(tr("They know none of your pieces."))
    return lines
