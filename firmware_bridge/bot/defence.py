"""How the bot guards its own flag: what stopping an intruder is worth, a garrison against
Miners, and the race home against a piece that would reach the flag first.

Enemy pieces that may walk and stand near our flag are intruders (`intruder_value`), worth
walking to for the pieces of ours that may stop them (`stop_chance`); a piece that may be a Miner
is one from further off, since the bombs round our flag stop every walker but a Miner. How well a
piece holds a square (`stopping_share`) decides who plugs a hole beside the flag; a garrison
keeps one piece that stops Miners near it (`garrison_term`); and a piece that would reach the
flag before our nearest stopper calls that stopper home (`race_weights`). `FlagDefence` gathers
what one move's root needs of all this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from firmware_bridge.bot.board import DEFENDER_WINS, Rules, SearchBoard
from firmware_bridge.bot.levels import Level

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


def stop_chance(rules: Rules, attacker: str, belief: Mapping[str, float]) -> float:
    """The chance, under these beliefs, that `attacker` beats or trades with the piece: whether
    walking it to an intruder near our flag can stop the intruder at all."""
    row = rules.battle[rules.code[attacker]]
    return sum(p for kind, p in belief.items() if row[rules.code[kind]] != DEFENDER_WINS)


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
            stops = stop_chance(rules, board.kind_name(piece), takers) / threat
            if stops >= RACE_STOPPER and (best is None or (near[where], -stops) < best[:2]):
                best = (near[where], -stops, piece)
        if best is not None and steps - best[0] <= RACE_SLACK:
            weight = RACE_STEP * threat * -best[1]
            called[best[2]] = max(called.get(best[2], 0.0), weight)
    return called


@dataclass
class FlagDefence:
    """What guarding our flag asks of one move's root: the worth of stopping each intruder, the
    garrison's term and the pieces racing home (built by `FlagDefence.around`)."""

    near: list[int]  # each square's walking distance from our flag ([] when we have none)
    intruders: dict[int, float]  # enemy piece id -> what stopping it is worth
    garrison: Callable[[int, int, int], float] | None
    racers: dict[int, float]  # our piece index -> what each of its steps home is worth

    @classmethod
    def around(cls, board: SearchBoard, level: Level, flag: int, me: int, table: list[list[int]],
               enemy_squares: Mapping[int, int], beliefs: Mapping[int, Mapping[str, float]],
               theirs: Mapping[str, int]) -> FlagDefence:
        """The defence of our flag on square `flag` (-1: none) by `level`'s switches; `table`
        holds the walking distances, `enemy_squares` each enemy piece's square by id, `theirs`
        the enemy kinds alive."""
        if flag < 0:
            return cls([], {}, None, {})
        rules = board.rules
        near = table[flag]
        defusers = rules.diggers if level.sappers else frozenset()
        intruders = {}
        for ident, square in enemy_squares.items():
            belief = beliefs.get(ident, {})
            walks = sum(p for kind, p in belief.items() if rules.mobile[rules.code[kind]]) if belief else 1.0
            sapper = sum(p for kind, p in belief.items() if kind in defusers)
            value = intruder_value(near[square], walks, sapper)  # 0 beyond its reach
            if value > 0.0:
                intruders[ident] = value
        miners = [rules.code[name] for name in rules.diggers if theirs.get(name, 0) > 0]
        garrison = garrison_term(board, near, me, miners) if level.garrison and miners else None
        racers: dict[int, float] = {}
        if level.race:
            takers = (frozenset(name for name, walks in zip(rules.kinds, rules.mobile, strict=True) if walks)
                      if flag_open(board, flag, me) else rules.diggers)  # an open flag: any walker
            threats = [(square, {kind: p for kind, p in beliefs[ident].items() if kind in takers})
                       for ident, square in enemy_squares.items() if ident in beliefs]
            racers = race_weights(board, near, me, threats)
        return cls(near, intruders, garrison, racers)

    def step(self, piece: int, origin: int, target: int) -> float:
        """The garrison's and the race's part of the bonus of moving `piece` from `origin`."""
        bonus = self.garrison(piece, origin, target) if self.garrison is not None else 0.0
        if piece in self.racers:
            bonus += self.racers[piece] * (self.near[origin] - self.near[target])
        return bonus
