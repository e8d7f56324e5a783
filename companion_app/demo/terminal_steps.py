"""What the windowed demo prints in the terminal: what to do next, in the demo's language."""

from __future__ import annotations

import textwrap

from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import color_name, device_name

WIDTH = 96  # a terminal of 100 columns shows each line whole


def _steps(tr: Translator, first: str, steps: list[str]) -> str:
    """The first line whole (it names the broker's address), each step below it indented, wrapped
    under its own text."""
    lines = [first]
    for step in steps:  # never broken inside a word: "Schiedsrichter-Anzeige" stays whole
        lines += textwrap.wrap(step, WIDTH, initial_indent="  ", subsequent_indent="     ",
                               break_on_hyphens=False, break_long_words=False)
    lines.append("  " + tr("Close any window to end the demo."))
    return "\n".join(lines)


def stratego_steps(tr: Translator, url: str, seats: list[str], computer: str | None) -> str:
    """The steps of a Stratego-family demo: the board window, the seats' tablets, the display."""
    tablets = ", ".join(device_name(tr, seat) for seat in seats)
    steps = [tr("Windows: the simulated board (left), {tablets} (middle), the referee display (right).")
             .format(tablets=tablets)]
    if computer:
        steps.append(tr("The computer plays {side}: make its moves on the board as your tablet shows "
                        "them.").format(side=color_name(tr, computer)))
    steps += [
        tr("1. Pair each tablet: it names two squares; tap each in the board window to put a token "
           "there, then drag those tokens off the board again. The referee display asks for a code: "
           "type the code the board window shows for it into the display window and press "
           "“{send_code}”.").format(send_code=tr("Send code")),
        tr("2. On each tablet arrange the army (“{random}” gives a sensible one), then press the green "
           "button.").format(random=tr("Random")),
        tr("3. In the board window press “{place}”.").format(place=tr("Put both setups on the board")),
        tr("4. Play in the board window: drag a token to move it (onto another to attack); drag a "
           "token off the board to take it off; each tablet says what happened and what to take off."),
    ]
    first = tr("arbiter demo: the whole table runs on this computer (broker and referee at {url}).")
    return _steps(tr, first.format(url=url), steps)


def triumph_steps(tr: Translator, url: str) -> str:
    """The steps of the Napoleon's Triumph demo: the codes window, the display, two tablets."""
    first = tr("arbiter demo: Napoleon's Triumph runs on this computer (broker and referee at {url}).")
    steps = [
        tr("Windows: the pairing codes above the referee display (left), the Allies' tablet (middle), "
           "the French tablet (right)."),
        tr("1. On each tablet and on the referee display type the code the codes window shows for it, "
           "and press “{send_code}”.").format(send_code=tr("Send code")),
        tr("2. Each side sends its set-up (the standard one is ready), then plays on its tablet."),
    ]
    return _steps(tr, first.format(url=url), steps)
