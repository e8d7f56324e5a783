"""What pieces are worth to the bot, and the pull of its pieces toward enemy pieces worth attacking.

Values follow the rank, adjusted by what is still alive: the Spy is worth a great deal while the
enemy Marshal (the piece it may assassinate) lives and little after; Miners are worth more while
enemy bombs remain, the more so the fewer Miners are left; a piece that no enemy piece still
alive can beat (bombs and the assassin aside) rules the board and is worth half as much again.
Losing a piece in a battle against an unknown piece weighs more the more the piece is worth
(`loss_aversion`): a Marshal lost to a bomb loses games, not just 100 points, so high pieces
leave the unknown to Scouts, Miners and Sergeants. The pull (`Attraction`) is the expected
gain of attacking each enemy piece with each of our kinds under the notebook's beliefs, fading
linearly with the walking distance, so quiet moves head for fights the bot expects to win and for pieces
that may be the flag. How the bot guards its own flag is `defence.py`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

from firmware_bridge.bot.board import ATTACKER_WINS, DEFENDER_WINS, Rules, SearchBoard

# Material by rank (classic numbering: Marshal 10 ... Spy 1).
RANK_VALUE = {10: 100.0, 9: 80.0, 8: 55.0, 7: 35.0, 6: 22.0, 5: 14.0, 4: 9.0, 3: 9.0, 2: 6.0, 1: 4.0}
TRAP_VALUE = 5.0  # a bomb: it guards, and it costs the attacker a piece
FLAG_PULL = 120.0  # what an attack on a possible flag is worth to the pull (not to material)
REACH = 30.0  # steps at which a target's pull fades out (it falls linearly, so far pieces feel it)
DOMINANT = 1.5  # a piece no enemy piece alive can beat (bombs and the assassin aside)
AVERSION_SCALE = 50.0  # loss aversion: a battle lost to an unknown piece costs value x (1 + value / this)


# A won game in material units: about a whole army (classic: ~650), so that a small chance of
# finding the flag in one world does not outweigh losing real pieces in all the others.
WIN = 400.0

Values = tuple[list[float], list[float]]  # value of each kind code, for red and for blue


def loss_aversion(value: float, guess: float = 1.0) -> float:
    """How much more than its value a piece's loss to an unknown piece weighs (`guess`: how
    much of a guess the enemy piece is, 1 for one that moved, more for one that never did)."""
    return 1.0 + guess * value / AVERSION_SCALE


def lost_value(value: float, guess: float) -> float:
    """What a piece of this value costs its side when it dies: more against a guessed piece."""
    return value * loss_aversion(value, guess) if guess else value


def kind_values(rules: Rules, alive: Mapping[int, Mapping[str, int]]) -> tuple[list[float], list[float]]:
    """The value of each kind code for red (0) and blue (1), given the kinds alive on each side."""
    variant = rules.variant
    combat = variant.combat
    result: list[list[float]] = []
    for side in (0, 1):
        mine, theirs = alive[side], alive[1 - side]
        values: list[float] = []
        for name in rules.kinds:
            kind = variant.kinds[name]
            if name in combat.objectives:
                value = 0.0  # taking it ends the game: the search scores that, not material
            elif name in combat.traps:
                value = TRAP_VALUE
            else:
                value = RANK_VALUE.get(kind.rank or 0, 5.0)
                if dominates(rules, name, theirs):
                    value *= DOMINANT
            for attacker, target in combat.assassins:
                if attacker == name and theirs.get(target, 0) > 0:
                    value += 0.45 * RANK_VALUE.get(variant.kinds[target].rank or 0, 50.0)
            for defuser, trap in combat.defusers:
                if defuser == name and theirs.get(trap, 0) > 0:
                    left = max(1, mine.get(name, 0))
                    value += 6.0 + 24.0 / left
            values.append(value)
        result.append(values)
    return result[0], result[1]


def dominates(rules: Rules, name: str, theirs: Mapping[str, int]) -> bool:
    """True when no enemy piece alive (`theirs`: kind -> count) beats or trades with a piece of
    kind `name`, bombs and the assassin aside."""
    assassins = {attacker for attacker, _ in rules.variant.combat.assassins}
    return rules.variant.kinds[name].mobile and not _beaten_by(rules, name, theirs, assassins)


def _beaten_by(rules: Rules, name: str, theirs: Mapping[str, int], assassins: set[str]) -> bool:
    """True when an enemy soldier still alive beats or trades with `name` in some battle."""
    code, battle = rules.code, rules.battle
    mine = code[name]
    for enemy, count in theirs.items():
        if count <= 0 or enemy in assassins or enemy not in code:
            continue
        other = code[enemy]
        if not rules.mobile[other]:
            continue  # bombs stop attackers, but never hunt anything
        if battle[other][mine] != DEFENDER_WINS or battle[mine][other] != ATTACKER_WINS:
            return True
    return False


def expected_gain(rules: Rules, attacker: str, belief: Mapping[str, float],
                  values: tuple[list[float], list[float]], side: int) -> float:
    """The average material an attack by `attacker` wins against a piece with these beliefs,
    its own loss weighed by `loss_aversion` when the piece is not known for certain."""
    code = rules.code
    own, theirs = values[side], values[1 - side]
    total = 0.0
    a = code[attacker]
    aversion = loss_aversion(own[a]) if len(belief) > 1 else 1.0
    for kind, p in belief.items():
        if p <= 0.0:
            continue
        d = code[kind]
        outcome = rules.battle[a][d]
        if outcome == ATTACKER_WINS:
            gain = FLAG_PULL if rules.objective[d] else theirs[d]
        elif outcome == DEFENDER_WINS:
            gain = -own[a] * aversion
        else:
            gain = theirs[d] - own[a] * aversion
        total += p * gain
    return total


def enclosed(board: SearchBoard, side: int) -> set[int]:
    """Squares of the opponent's pieces (of `side`'s opponent) that no walker can step next to:
    every neighbour holds a piece of theirs that never moved, a bomb for all we know. A flag
    walled in by its bombs stands so; only a Miner's breach opens the way."""
    cells, colors, moved = board.cells, board.color, board.moved
    found = set()
    for piece, square in enumerate(board.square):
        if square < 0 or colors[piece] == side:
            continue
        around = board.neighbours[square]
        if around and all(cells[n] >= 0 and colors[cells[n]] != side and not moved[cells[n]]
                          for n in around):
            found.add(square)
    return found


def distances(rules: Rules) -> list[list[int]]:
    """Walking distance between every two squares around lakes (pieces ignored)."""
    geometry = rules.geometry
    size = geometry.size
    blocked = {geometry.index(s) for s in rules.blocked}
    far = size * 4
    table: list[list[int]] = []
    for start in range(size):
        row = [far] * size
        if start not in blocked:
            row[start] = 0
            queue = deque([start])
            while queue:
                square = queue.popleft()
                for nxt in geometry.neighbours[square]:
                    if row[nxt] == far:
                        row[nxt] = row[square] + 1
                        queue.append(nxt)
        table.append(row)
    return table


class Attraction:
    """For each of our kinds: the enemy squares worth walking to, with the gain expected there."""

    def __init__(self, rules: Rules, table: list[list[int]],
                 targets: dict[str, list[tuple[int, float]]]) -> None:
        self.rules = rules
        self.table = table
        self.targets = targets  # kind -> [(enemy square, expected gain > 0)]

    def pull(self, kind: str, square: int) -> float:
        """How strongly a piece of `kind` standing on `square` is drawn to its best target."""
        best = 0.0
        row = self.table[square]
        for target, gain in self.targets.get(kind, ()):
            steps = row[target]
            value = gain * max(0.0, 1.0 - max(0, steps - 1) / REACH)
            if value > best:
                best = value
        return best
