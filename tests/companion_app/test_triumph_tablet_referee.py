"""The tablet's Napoleon's Triumph part against the real referee (the in-process table around
firmware_bridge's TriumphSession), without Kivy: set-ups through the tablets' own drafts, a command
composed on the referee's menu, a refusal by rule, the other side's waiting line."""

from __future__ import annotations

from companion_app.demo.local_table import LocalLink, LocalTable
from companion_app.model.table import TableState
from companion_app.model.triumph_setup import TriumphSetupDraft


def seat(table: LocalTable, name: str) -> tuple[TableState, LocalLink]:
    state = TableState(seat=name)
    link = LocalLink(table, name)
    link.open(state.apply)
    return state, link


def test_two_tablets_set_up_and_give_a_command_the_referee_rules():
    table = LocalTable("napoleons-triumph")
    try:
        red, red_link = seat(table, "red")
        blue, blue_link = seat(table, "blue")
        assert red.phase == blue.phase == "setup" and red.variant == "napoleons-triumph"
        # A set-up the engine refuses comes back with its reason and changes nothing.
        broken = TriumphSetupDraft("french")
        legrand = next(u["id"] for u in broken.units if u.get("commander") == "Legrand")
        broken.move_to_corps(legrand, "St. Hilaire")
        blue_link.send("setup", {"setup": broken.to_setup()})
        assert blue.phase == "setup" and "Legrand" in " ".join(blue.setup_errors)
        blue_link.send("setup", {"setup": TriumphSetupDraft("french").to_setup()})
        assert blue.phase == "placing" and blue.triumph.setup is not None  # waiting for the Allies
        red_link.send("setup", {"setup": TriumphSetupDraft("allied").to_setup()})
        assert red.phase == blue.phase == "game"
        assert red.triumph.awaiting() == ("allied", "command") and red.triumph.my_decision()
        assert blue.triumph.options() == []
        # The Allies move Bagration's corps to 66 and leave one block at 67.
        menu = red.triumph.menu()
        index = next(i for i, e in enumerate(menu) if e.get("commander") == "Bagration"
                     and e["type"] == "corps_move")
        red.triumph.pick_entry(index)
        command = red.triumph.command
        command.toggle(command.entry["units"][-1])
        assert command.choose("R66")
        red_link.send("nt", {"action": red.triumph.sent_action(command.action())})
        assert red_link.replies[-1]["ok"] is True
        assert red.triumph.sent is None  # the new snapshot arrived
        bagration = {u["at"] for u in red.triumph.view["units"] if u.get("commander") == "Bagration"}
        assert bagration == {"R66"}
        assert red.triumph.commands_left()["corps_used"] == 1
        steps = [s for _, _, s, _ in red.triumph.steps()]
        assert steps and steps[-1]["step"] == "move" and steps[-1]["to"] == "R66"
        assert blue.triumph.steps() == []  # nothing for the French blocks
        # A command the rules refuse: shown by its rule, and nothing changed.
        red_link.send("nt", {"action": {"type": "corps_move", "commander": "Constantine",
                                        "units": [], "to": "R150"}})
        assert red_link.replies[-1]["code"] == "illegal"
        assert red.triumph.refusal is not None and red.triumph.refusal["rule"].startswith("nt-")
        # Ending the turn: the French decide, the Allied tablet waits.
        red_link.send("nt", {"action": {"type": "end_turn"}})
        assert blue.triumph.my_decision() and not red.triumph.my_decision()
        assert red.triumph.refusal is None
    finally:
        table.close()
