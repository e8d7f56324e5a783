"""The referee's Napoleon's Triumph session: private set-ups, actions from the tablets, takebacks
only of what showed nothing, the end, and a journal that rebuilds all of it."""

from __future__ import annotations

import random

import pytest

from engine.triumph.refusals import REASONS
from engine.triumph.standard import standard_setup
from firmware_bridge.bot.triumph_script import choose_action
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.vocabulary import Command, EventType
from firmware_bridge.referee.journal import Journal, JournalError
from firmware_bridge.referee.triumph_session import TriumphSession
from tests.firmware_bridge.referee.triumph_table import strings


class Tablets:
    """Both seats' command counters, as their tablets keep them."""

    def __init__(self, session: TriumphSession) -> None:
        self.session = session
        self.counters = {"red": 0, "blue": 0}

    def send(self, seat: str, kind: str, **args):
        self.counters[seat] += 1
        command = contract.command(seat, f"{seat}-{self.counters[seat]}", self.counters[seat], kind, **args)
        return self.session.execute(seat, command)

    def act(self, seat: str, **action):
        return self.send(seat, Command.NT, action=action)


def new_session(tmp_path) -> tuple[TriumphSession, Tablets]:
    session = TriumphSession(Journal(tmp_path / "j.db"))
    session.pair("red", "r" * 44, "tab-r")
    session.pair("blue", "b" * 44, "tab-b")
    return session, Tablets(session)


def started(tmp_path) -> tuple[TriumphSession, Tablets]:
    session, tablets = new_session(tmp_path)
    assert tablets.send("red", Command.SETUP, setup=standard_setup("allied"))[0]["ok"]
    reply, rulings = tablets.send("blue", Command.SETUP, setup=standard_setup("french"))
    assert reply["ok"] and [r.kind for r in rulings] == [EventType.SETUP_READY, EventType.GAME_START]
    return session, tablets


def first_corps_move(session: TriumphSession, seat: str) -> dict:
    """A plain Corps Move from the seat's menu (one that reveals nothing)."""
    menu = session.seat_state(seat)["view"]["options"]
    entry = next(e for e in menu if e["type"] == "corps_move" and not e.get("entry")
                 and any(isinstance(d, str) and d.startswith("R") for d in e["to"]))
    to = next(d for d in entry["to"] if isinstance(d, str) and d.startswith("R"))
    return {"type": "corps_move", "commander": entry["commander"], "units": entry["units"], "to": to}


def test_a_set_up_stays_private_until_both_are_in_and_the_allies_act_first(tmp_path):
    session, tablets = new_session(tmp_path)
    allied = standard_setup("allied")
    reply, rulings = tablets.send("red", Command.SETUP, setup=allied)
    assert reply["ok"] and session.phase == "setup"
    assert rulings[0].public_events == [{"type": "setup_ready", "color": "red"}]
    public = session.public_state("b1", set())
    assert public["seats"]["red"]["setup_ready"] and public["view"] is None
    assert not strings(public) & {u["id"] for u in allied["units"]}
    assert session.seat_state("red")["setup"] == allied and session.seat_state("blue")["setup"] is None
    tablets.send("blue", Command.SETUP, setup=standard_setup("french"))
    assert session.phase == "playing"
    assert session.seat_state("red")["view"]["awaiting"] == {"side": "allied", "decision": "command"}
    assert "options" not in session.seat_state("blue")["view"]


def test_a_broken_set_up_is_refused_with_the_rule_and_changes_nothing(tmp_path):
    session, tablets = new_session(tmp_path)
    broken = standard_setup("french")
    broken["units"] = broken["units"][1:]  # a block short of the order of battle
    reply, rulings = tablets.send("blue", Command.SETUP, setup=broken)
    assert not reply["ok"] and reply["code"] == "invalid-setup" and "order of battle" in reply["message"]
    assert reply["reason"] and reply["reason"] in REASONS  # each language words it from the reason
    assert reply["data"]["side"] == "french"
    assert rulings == [] and session.seq == 0 and session.ready_seats() == set()


def test_an_action_out_of_turn_or_against_the_rules_is_refused_and_nothing_changes(tmp_path):
    session, tablets = started(tmp_path)
    seq = session.seq
    reply, _ = tablets.act("blue", type="end_turn")
    assert reply["code"] == "not-your-turn" and "allied" in reply["message"]
    reply, _ = tablets.act("red", type="corps_move", commander="Bagration", units=[], to="R1")
    assert not reply["ok"] and reply["code"] == "illegal" and reply["message"].startswith("nt-")
    reply, _ = tablets.act("red", type="corps_move", commander="Lannes", units=["F.f-lann-0"], to="R63")
    assert not reply["ok"] and reply["code"] == "illegal"
    assert session.seq == seq and session.game.actions == []


def test_a_plain_move_is_taken_back_when_both_agree_and_the_blocks_go_back(tmp_path):
    session, tablets = started(tmp_path)
    move = first_corps_move(session, "red")
    assert tablets.act("red", **move)[0]["ok"]
    told = session.seat_state("red")["instructions"][-1]["steps"]
    assert told[0]["step"] == "move" and told[0]["to"] == move["to"]
    assert tablets.send("red", Command.OFFER_TAKEBACK)[0]["ok"]
    reply, rulings = tablets.send("blue", Command.ACCEPT_TAKEBACK)
    assert reply["ok"] and rulings[0].kind is EventType.TAKEBACK
    assert session.game.actions == []
    back = session.seat_state("red")["instructions"][-1]
    assert back["takeback"] and back["steps"][0]["from"] == move["to"]


def test_cavalry_shown_at_the_end_of_a_road_move_cannot_be_taken_back(tmp_path):
    session, tablets = started(tmp_path)
    menu = session.seat_state("red")["view"]["options"]
    entry, road = next((e, d) for e in menu if e["type"] == "unit_move"
                       for d in e["to"] if isinstance(d, dict) and d.get("block"))
    blocking = f"{road['road'][-1]}>{road['block'][0]}"
    reply, rulings = tablets.act("red", type="unit_move", unit=entry["units"][0], to=blocking, road=road["road"])
    assert reply["ok"] and any(e["type"] == "reveal" for e in rulings[0].seat_events["blue"])
    assert session.seat_state("red")["instructions"][-1]["steps"][-1]["step"] == "show"
    reply, _ = tablets.send("red", Command.OFFER_TAKEBACK)
    assert reply["code"] == "illegal" and reply["message"].startswith("nt-undo")
    assert len(session.game.actions) == 1


def test_an_attack_once_threatened_cannot_be_taken_back(tmp_path):
    session, tablets = started(tmp_path)
    rng = random.Random(4)
    while not session.game.actions or session.game.actions[-1].type != "threat":
        seat = "red" if session.game.awaiting()[0] == "allied" else "blue"
        view = session.seat_state(seat)["view"]
        threats = [o for o in view["options"] if o["type"] == "threat"] if view["awaiting"]["decision"] == "command" else []
        action = {"type": "threat", "from": threats[0]["from"], "into": threats[0]["into"]} if threats \
            else choose_action(view, rng)
        assert tablets.act(seat, **action)[0]["ok"]
    seat = "red" if session.game.actions[-1].side == "allied" else "blue"
    reply, _ = tablets.send(seat, Command.OFFER_TAKEBACK)
    assert reply["code"] == "illegal" and "threat cannot be taken back" in reply["message"]


def test_a_resignation_ends_the_game_for_the_other_army(tmp_path):
    session, tablets = started(tmp_path)
    reply, rulings = tablets.send("blue", Command.RESIGN)
    assert reply["ok"] and session.phase == "over"
    assert session.result["winner"] == "allied" and session.result["reason"] == "resignation"
    assert session.seat_state("red")["view"]["result"] == session.result
    assert tablets.act("red", type="end_turn")[0]["code"] == "wrong-phase"


def test_a_resignation_the_journal_refuses_leaves_the_game_running(tmp_path, monkeypatch):
    # the declared end is on the game's undo stack: the session takes it back like an action
    session, tablets = started(tmp_path)
    tablets.act("red", **first_corps_move(session, "red"))
    before = session.seat_state("blue")

    def full(*args, **kwargs):
        raise JournalError("the disk is full", "storage-full")

    monkeypatch.setattr(session.journal, "append_all", full)
    with pytest.raises(JournalError):
        tablets.send("blue", Command.RESIGN)
    assert session.phase == "playing" and session.result is None
    assert [a.type for a in session.game.actions] == ["corps_move"]
    assert session.seat_state("blue") == before
    monkeypatch.undo()
    assert tablets.send("blue", Command.RESIGN)[0]["ok"]
    assert [a.type for a in session.game.actions] == ["corps_move", "declare_end"]
    again = TriumphSession(Journal(tmp_path / "j.db"))
    assert again.result == session.result == {
        "winner": "allied", "reason": "resignation", "why": "the french player resigned"}


def test_a_seat_cannot_declare_the_end_of_the_game_as_an_action(tmp_path):
    # the engine's declare_end is the referee's own ruling (resign, an agreed draw, the clocks)
    session, tablets = started(tmp_path)
    for reason in ("agreed", "resignation"):
        with pytest.raises(contract.ContractError):
            tablets.act("red", type="declare_end", reason=reason)
    assert session.phase == "playing" and session.game.actions == []


def test_a_journal_that_fails_keeps_no_action(tmp_path, monkeypatch):
    session, tablets = started(tmp_path)
    before = session.seat_state("red")

    def full(*args, **kwargs):
        raise JournalError("the disk is full", "storage-full")

    monkeypatch.setattr(session.journal, "append_all", full)
    with pytest.raises(JournalError):
        tablets.act("red", **first_corps_move(session, "red"))
    assert session.game.actions == [] and session.seat_state("red") == before


def test_the_journal_rebuilds_a_whole_scripted_battle_exactly(tmp_path):
    session, tablets = started(tmp_path)
    rng = random.Random(7)
    while session.phase == "playing":
        seat = "red" if session.game.awaiting()[0] == "allied" else "blue"
        reply, _ = tablets.act(seat, **choose_action(session.seat_state(seat)["view"], rng))
        assert reply["ok"], reply
    assert session.result["reason"] in ("objectives", "demoralised")
    again = TriumphSession(Journal(tmp_path / "j.db"))
    assert again.seq == session.seq and again.result == session.result
    for seat in ("red", "blue"):
        assert again.seat_state(seat) == session.seat_state(seat)
    assert again.public_state("b1", set())["view"] == session.public_state("b1", set())["view"]


class ManualClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_clock_of_the_side_the_game_waits_for_runs_a_defender_spends_his_own_time(tmp_path):
    from firmware_bridge.referee.clocks import TimeControl

    clock = ManualClock()
    session = TriumphSession(Journal(tmp_path / "j.db"), TimeControl.parse(None, "30m"), now=clock)
    session.pair("red", "r" * 44, "tab-r")
    session.pair("blue", "b" * 44, "tab-b")
    tablets = Tablets(session)
    tablets.send("red", Command.SETUP, setup=standard_setup("allied"))
    tablets.send("blue", Command.SETUP, setup=standard_setup("french"))
    assert session.clock.running == "red"  # 7:00 AM: the Allies act first
    clock.now += 60
    tablets.act("red", type="end_turn")
    assert session.clock.running == "blue"
    rng = random.Random(2)
    while session.game.awaiting()[1] != "response":  # until the French threaten
        seat = "red" if session.game.awaiting()[0] == "allied" else "blue"
        view = session.seat_state(seat)["view"]
        menu = view["options"]
        threats = [o for o in menu if o["type"] == "threat"] if view["awaiting"]["decision"] == "command" else []
        action = {"type": "threat", "from": threats[0]["from"], "into": threats[0]["into"]} if threats \
            else choose_action(view, rng)
        tablets.act(seat, **action)
    defender = "red" if session.game.awaiting()[0] == "allied" else "blue"
    assert session.clock.running == defender
    left = session.clock.to_dict(clock.now)
    clock.now += 30
    assert session.clock.to_dict(clock.now)[defender] == left[defender] - 30
