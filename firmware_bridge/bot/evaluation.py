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
that may be the flag. Our own flag is guarded by what stopping an intruder is worth
(`intruder_value`), by how well a piece holds a square (`stopping_share`) and by a garrison
against Miners (`garrison_term`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence

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

DEFENCE_VALUE = 200.0  # what stopping an intruder next to our flag is worth, on top of material
DEFENCE_DECAY = 0.5  # per step of the intruder's distance from our flag
DEFENCE_REACH = 4  # steps from our flag within which any walker is an intruder
# Bombs stop every walker but a Miner: one threatens our flag from further, its worth fading
# more slowly with the distance (`Level.sappers`).
SAPPER_DECAY = 0.75
SAPPER_REACH = 10
# A Miner walks through the bombs round our flag, and a chaser one step behind never catches it:
# while the enemy has a Miner alive, one piece of ours that a Miner's attack kills stays within
# GARRISON_REACH steps of our flag (`Level.garrison`). With none there, each step home of the
# nearest such piece earns GARRISON_STEP; the move that takes the last one away costs
# GARRISON_COST.
GARRISON_REACH = 3
GARRISON_STEP = 3.0
GARRISON_COST = 10.0
# A lone enemy piece that may take our flag walks at it while our army plays on the other wing;
# its pull fades over REACH steps, so a defender gains little a step by walking home, and games
# were lost to a Miner that walked ten steps unopposed (docs/bot.md, round twenty-four). With
# `Level.race`, an enemy piece within RACE_REACH steps of our flag that our nearest piece able
# to stop it is not more than RACE_SLACK steps ahead of calls that piece home: each step is worth
# RACE_STEP x the chance the intruder takes our flag once there x the chance the piece stops it.
RACE_REACH = 10
RACE_SLACK = 2
RACE_STEP = 40.0
RACE_FLOOR = 0.05  # a smaller chance of taking our flag starts no race
RACE_STOPPER = 0.5  # a piece that stops an intruder less often than this is no stopper

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


def stop_chance(rules: Rules, attacker: str, belief: Mapping[str, float]) -> float:
    """The chance, under these beliefs, that `attacker` beats or trades with the piece: whether
    walking it to an intruder near our flag can stop the intruder at all."""
    row = rules.battle[rules.code[attacker]]
    return sum(p for kind, p in belief.items() if row[rules.code[kind]] != DEFENDER_WINS)


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


def stopping_share(rules: Rules, name: str, theirs: Mapping[str, int]) -> float:
    """The share of the enemy's walkers still alive that die attacking a piece of kind `name`:
    how well it holds a square against whoever comes."""
    code, battle = rules.code, rules.battle
    if name not in code:
        return 0.0
    mine = code[name]
    walkers = stopped = 0
    for enemy, count in theirs.items():
        if count <= 0 or enemy not in code or not rules.mobile[code[enemy]]:
            continue
        walkers += count
        if battle[code[enemy]][mine] == DEFENDER_WINS:
            stopped += count
    return stopped / walkers if walkers else 0.0


def garrison_term(board: SearchBoard, near: list[int], me: int,
                  miners: list[int]) -> Callable[[int, int, int], float]:
    """The root term (piece, origin, target) -> bonus that keeps one piece of ours that every
    enemy Miner alive (kind codes `miners`) dies attacking within GARRISON_REACH steps of our
    flag; `near` holds each square's walking distance from the flag."""
    rules = board.rules

    def guards(piece: int) -> bool:
        kind = board.kind[piece]
        return bool(rules.mobile[kind]) and all(
            rules.battle[miner][kind] == DEFENDER_WINS for miner in miners)

    ours = {piece: near[square] for piece, square in enumerate(board.square)
            if square >= 0 and board.color[piece] == me and guards(piece)}
    posted = [piece for piece, steps in ours.items() if steps <= GARRISON_REACH]
    # With nobody posted only the nearest guard walks home: the rest of the army plays on.
    nearest = min(ours.values(), default=0)
    called = {piece for piece, steps in ours.items() if steps == nearest} if not posted else set()

    def term(piece: int, origin: int, target: int) -> float:
        if piece in called:
            return GARRISON_STEP * (near[origin] - near[target])
        if posted == [piece] and near[target] > GARRISON_REACH:
            return -GARRISON_COST
        return 0.0
    return term


def intruder_value(steps: int, walks: float, sapper: float = 0.0) -> float:
    """What stopping an enemy piece `steps` from our flag is worth: `walks` is the chance it can
    move at all, `sapper` the chance it defuses bombs (a Miner, whom the bombs round our flag do
    not stop, threatens it from further off); 0 beyond reach."""
    value = DEFENCE_VALUE * walks * DEFENCE_DECAY ** max(0, steps - 1) if steps <= DEFENCE_REACH else 0.0
    if steps <= SAPPER_REACH:
        value = max(value, DEFENCE_VALUE * sapper * SAPPER_DECAY ** max(0, steps - 1))
    return value


def flag_open(board: SearchBoard, flag: int, me: int) -> bool:
    """True when a walker can reach our flag (on `flag`) without digging: a neighbour of it is
    empty or holds anything but a bomb of ours."""
    cells, colors, mobile, kinds = board.cells, board.color, board.rules.mobile, board.kind
    return any(cells[n] < 0 or colors[cells[n]] != me or mobile[kinds[cells[n]]]
               for n in board.neighbours[flag])


def race_weights(board: SearchBoard, near: list[int], me: int,
                 threats: Sequence[tuple[int, Mapping[str, float]]]) -> dict[int, float]:
    """Our pieces that must walk home to win a race to our flag (`near`: each square's walking
    distance from it), with what each step home is worth; `threats` holds each enemy piece's
    square and its belief cut to the kinds that could take our flag from there."""
    rules = board.rules
    called: dict[int, float] = {}
    for square, takers in threats:
        threat, steps = sum(takers.values()), near[square]
        if threat < RACE_FLOOR or steps > RACE_REACH:
            continue
        best: tuple[int, float, int] | None = None  # (steps home, -stop chance, piece)
        for piece in board.movers[me]:
            where = board.square[piece]
            if where < 0:
                continue
            row = rules.battle[board.kind[piece]]
            stops = sum(p for kind, p in takers.items() if row[rules.code[kind]] != DEFENDER_WINS) / threat
            if stops >= RACE_STOPPER and (best is None or (near[where], -stops) < best[:2]):
                best = (near[where], -stops, piece)
        if best is not None and steps - best[0] <= RACE_SLACK:
            weight = RACE_STEP * threat * -best[1]
            called[best[2]] = max(called.get(best[2], 0.0), weight)
    return called


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
