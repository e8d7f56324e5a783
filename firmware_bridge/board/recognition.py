"""From stable board states to the moves players make, read against the position the referee expects.

The interface the referee codes against:

    recognizer = MoveRecognizer(position)           # position: ExpectedPosition from the last ruling
    for stable in stabilised_boards:                # firmware_bridge.board.snapshots.StableBoard
        observations = recognizer.feed(stable)
    observations = recognizer.poll(now)             # call every few ms: some reports wait on time
    ...
    on MoveMade(move): the session rules on it, then
        observations = recognizer.expect(position)  # the position after the ruling (any ruling:
                                                    # a move, a takeback, the end of the game)
        or recognizer.refused(move)                 # the session refused it: nothing changed
    recognizer.guidance() -> BoardMismatch | None   # what to fix now, e.g. for LEDs / display
    recognizer.restoring                            # True while only guiding (moves not read)
    recognizer.resume()                             # the board went unwatched (referee restarted,
                                                    # cable out): one unseen move may be ruled

The recogniser never sees the game and never rules: it says which move the hands made, and the
referee's session (the one writer of the game) pushes it or refuses it.

Or, with the stabiliser built in, for tools that own a Game (tests, benches, the simulated
table): watch = BoardWatch(game); watch.feed(reading); watch.poll(now); watch.sync() after each
push or pop; watch.guidance(). BoardWatch stands in for the session: it turns a MoveMade the game
refuses into an IllegalAttempt.
Stable boards made by a Stabiliser tell the recogniser whether newer changes are still
settling; boards built by hand (StableBoard.from_values) can say so with poll(now, settling=).

Observations (dataclasses below), each reported once per board state:
  MoveMade(move, attack)          a move was made on the board; the referee rules on it. One the
                                  position allows is reported as soon as the board settles, any
                                  other only after `patience_s` without change.
  IllegalAttempt(move, refusal)   made by whoever rules (BoardWatch; the session announces its
                                  own refusal): a move the rules refuse; it must be taken back,
                                  guidance() then lists what to fix.
  BoardMismatch(clear, fill, wrong, reason)
                                  the board differs from what it must be: take the pieces off
                                  `clear`, put pieces on `fill`, replace the piece on `wrong`
                                  (it holds another piece than the engine's), each list nearest
                                  first. reason: "setup", "after-battle", "restore", "unexpected".
  BoardMatches()                  the board is right again (after guidance, a nudge put back).

The recogniser learns of every ruling from the position it is given; expect() returns the
guidance a battle needs at once.

How moves are read (occupancy sensors; docs/hardware.md for the players' side of it):
  move      one square of the side to move empties, one empty square fills.
  attack    attacker and defender both lifted, the attacker put on the target, in either
            order: the attacker's square stays empty, the target was empty for a moment
            (at least `attack_min_gap_s`, so a nudged neighbour is no attack) and refilled
            after the attacker was lifted.
  scout     a scout's move is ruled only after `scout_hold_s` without change, so sliding it
            over the squares between is one move, not several.
  nudge     a piece lifted or knocked and put back: the board matches again, nothing happened.
After a ruling, or whenever the board does not match the game (start, takeback, power cut),
the recogniser is "restoring": it only guides until the board matches, then reads moves again.
After resume() (the board was not watched for a while) the first board that holds still is
compared with the position once: exactly one legal move or attack of the side to move is
reported as MoveMade (firmware_bridge.board.recovery says when), anything else is guided back.
With identifying sensors (a tag per piece) it learns each piece's tag when the board first
matches, uses tags to tell an attack from a nudge, and reports pieces standing on the wrong
square in `wrong`.

Volcano markers (Espionage): the players put a marker on each volcano square. Whether the
sensors see one is a property of the board (profile setting `volcano_markers_sensed`, passed
here as `volcano_markers_sensed=`):
  True    markers are sensed (a magnet under a reed switch): every volcano square must read
          occupied. Until it does, guidance lists it in `fill` (reason "setup"/"restore") and no
          move is read; afterwards it is a fixed obstacle: a marker lifted is guided back.
  False   markers are not sensed (a paper or plastic marker): volcano squares are excluded from
          the marker check and must read empty like any empty square; a reading there is a
          piece, i.e. a stray (`clear`) or a move onto a volcano, which the engine refuses.
  None    unknown (the default, for boards whose profile does not say): whatever each volcano
          square reads while the board is set up or restored is taken as its normal state, so
          a sensed marker is no stray piece, and a piece put there later is an illegal move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Game, Move, Refusal, Square
from firmware_bridge.board.guidance import order_nearest
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.recovery import unseen_move
from firmware_bridge.board.snapshots import Reading, Stabiliser, StableBoard


@dataclass(frozen=True)
class MoveMade:
    """A move was made on the board (the referee rules on it)."""

    move: Move
    attack: bool = False
    settled_at: float = 0.0  # when the board last changed to show it (for latency figures)


@dataclass(frozen=True)
class IllegalAttempt:
    """A move seen on the board that the rules refuse (made by the ruler); it must be taken back."""

    move: Move
    refusal: Refusal


@dataclass(frozen=True)
class BoardMismatch:
    """What to change on the board so it matches the game, nearest first."""

    clear: tuple[Square, ...]
    fill: tuple[Square, ...]
    wrong: tuple[Square, ...] = ()
    reason: str = "unexpected"


@dataclass(frozen=True)
class BoardMatches:
    """The board matches the game."""


Observation = MoveMade | IllegalAttempt | BoardMismatch | BoardMatches


@dataclass
class _Pending:
    """A ruling that waits for time to pass with the board unchanged."""

    due: float
    observation: Observation
    key: tuple = field(default=())


RECOVERY = ("recovery",)  # the key of the one decision taken on a board nobody watched


class MoveRecognizer:
    """Turns stable board states into MoveMade / BoardMismatch / BoardMatches."""

    def __init__(self, position: ExpectedPosition, *, scout_hold_s: float = 0.35, patience_s: float = 0.6,
                 idle_patience_s: float = 4.0, attack_min_gap_s: float = 0.1,
                 volcano_markers_sensed: bool | None = None) -> None:
        self.position = position
        self.volcano_markers_sensed = volcano_markers_sensed
        self.scout_hold_s = scout_hold_s
        self.patience_s = patience_s
        self.idle_patience_s = idle_patience_s
        self.attack_min_gap_s = attack_min_gap_s
        # How long a target may read occupied before the origin empties and still be the mover's
        # (a piece slid with both contacts closed; a scout's slide fills each square in turn).
        self.slide_overlap_s = 0.2
        self.board: StableBoard | None = None
        self.tags: dict[int, int] = {}  # piece id -> tag, learned from identifying sensors
        self._belief: dict[Square, int | None] = {}  # what physically stands where, by piece id
        self._restoring = True
        self._restore_reason = "setup"
        self._recovering = False
        self._last_emitted: Observation | None = None
        self._pending: _Pending | None = None
        self._ruled: Move | None = None
        self._wrong: set[Square] = set()
        self._focus: Square | None = None
        self.forget_s = 0.5
        self._marker_sensed: dict[Square, bool] = {}
        self._forget_at: float | None = None
        self._reset_history()
        self._take(position)

    # --- the referee's calls ------------------------------------------------------------

    def feed(self, board: StableBoard) -> list[Observation]:
        """A new stable board state; returns what it means."""
        self._track(board)
        self.board = board
        return self._evaluate(board.changed_at)

    def poll(self, now: float, settling: bool = False) -> list[Observation]:
        """Rulings that were waiting for the board to stay still (scout hold, patience).

        settling: the stabiliser has seen changes it has not yet reported (Stabiliser.settling());
        nothing that waits for stillness is ruled while the board is still moving. Boards made
        by a Stabiliser carry that question along, so passing it is only needed for others.
        """
        out: list[Observation] = []
        board = self.board
        if settling or (board is not None and board.still_settling is not None and board.still_settling()):
            return out
        if self._forget_at is not None and now >= self._forget_at:
            self._forget_at = None
            self._reset_history()
        pending = self._pending
        if pending is not None and now >= pending.due:
            self._pending = None
            if pending.key == RECOVERY:
                self._recovering = False  # decided once: from now on moves are read as they are made
            out += self._emit(pending.observation)
        return out

    def expect(self, position: ExpectedPosition) -> list[Observation]:
        """The position after a ruling (a move, a takeback, the end): say what the board needs.

        A position equal to the one expected already changes nothing.
        """
        if position == self.position:
            return []
        ruled = self._ruled
        if ruled is not None and ruled.origin in self._expected:
            # What physically happened: the piece from the origin now stands on the target.
            self._belief.pop(ruled.origin, None)
            self._belief[ruled.target] = self._expected[ruled.origin]
        if ruled is not None:
            self._focus = ruled.target
        self._take(position)
        self._ruled = None
        self._pending = None
        self._reset_history()
        self._wrong = {square for square, piece_id in self._expected.items()
                       if self._belief.get(square, piece_id) not in (piece_id, None)}
        self._restoring = True
        self._restore_reason = "after-battle" if ruled is not None else "restore"
        self._last_emitted = None
        if self.board is None:
            return []
        return self._evaluate(self.board.changed_at)

    def resume(self) -> None:
        """The board was not watched for a while (the referee restarted, the cable was out).

        What happened meanwhile is unknown: the history of lifts is forgotten, and the next board
        the sensors report, once it holds still, is compared with the position once (module
        docstring). The board seen before is stale: nothing is decided on it.
        """
        self._reset_history()
        self._pending = None
        self._ruled = None
        if not self._restoring:
            self._restore_reason = "restore"
        self._restoring = True
        self._recovering = True
        self._last_emitted = None

    @property
    def recovering(self) -> bool:
        """True until the board first seen after resume() has been decided on."""
        return self._recovering

    def refused(self, move: Move) -> None:
        """The referee refused ``move`` (or ignored it): the position stays, the hands put it back."""
        if self._ruled == move:
            self._ruled = None

    def guidance(self) -> BoardMismatch | None:
        """What to change on the board right now so it matches the game (None if it does)."""
        if self.board is None:
            return None
        return self._mismatch(self.board, self._restore_reason if self._restoring else "unexpected")

    @property
    def restoring(self) -> bool:
        """True while the board must be put right before moves are read again."""
        return self._restoring

    # --- following the rulings ---------------------------------------------------------------

    def _take(self, position: ExpectedPosition) -> None:
        self.position = position
        self._expected = {square: piece.id for square, piece in position.pieces.items()}
        self._volcanoes = position.volcanoes

    # --- what the sensors showed ----------------------------------------------------------------

    def _reset_history(self) -> None:
        self._lifted_at: dict[Square, float] = {}
        self._refilled: dict[Square, float] = {}  # square -> when it was last filled again
        # The longest a square stayed empty in one go: a captured piece is lifted for longer than a
        # knocked one loses contact, however often a knock repeats (see `_candidate`).
        self._last_emptied: dict[Square, float] = {}
        self._longest_empty: dict[Square, float] = {}
        self._filled_at: dict[Square, float] = {}  # square -> when it last became occupied

    def _track(self, board: StableBoard) -> None:
        before = self.board.occupied() if self.board is not None else frozenset()
        if board.events and self.board is not None:
            # Every debounced change, also those too brief to make a stable board.
            present = set(before)
            for square, when, value in board.events:
                if square in present:
                    self._emptied(square, when)
                    present.discard(square)
                if value:
                    self._filled(square, when)
                    present.add(square)
            return
        now = board.changed_at
        after = board.occupied()
        for square in before - after:
            self._emptied(square, now)
        for square in after - before:
            self._filled(square, now)

    def _emptied(self, square: Square, when: float) -> None:
        self._focus = square  # guidance starts where the hands last were
        self._lifted_at.setdefault(square, when)  # the first time: a flickering sensor keeps it
        self._last_emptied[square] = when
        self._belief.pop(square, None)
        self._wrong.discard(square)  # seen empty: whatever goes there next is checked anew

    def _filled(self, square: Square, when: float) -> None:
        self._focus = square
        self._filled_at[square] = when
        if square in self._last_emptied:
            self._refilled[square] = when
            gap = when - self._last_emptied.pop(square)
            self._longest_empty[square] = max(gap, self._longest_empty.get(square, 0.0))
        # A piece put down is taken to be the one the game expects there.
        self._belief[square] = self._expected.get(square)

    def _identity_problems(self, board: StableBoard) -> set[Square]:
        if not board.identifying:
            return set(self._wrong)
        wrong = set()
        for square, piece_id in self._expected.items():
            tag = board.tag_at(square)
            known = self.tags.get(piece_id)
            if tag and known is not None and known != tag:
                wrong.add(square)
        return wrong

    def _learn_tags(self, board: StableBoard) -> None:
        seen = [board.tag_at(square) for square in self._expected]
        if len(set(seen)) != len(seen):
            return  # two squares report the same tag: nothing trustworthy to learn
        for (square, piece_id), tag in zip(self._expected.items(), seen, strict=True):
            self.tags.setdefault(piece_id, tag)
            self._belief[square] = piece_id

    # --- deciding --------------------------------------------------------------------------------

    def _mismatch(self, board: StableBoard, reason: str) -> BoardMismatch | None:
        occupied = board.occupied()
        expected = set(self._expected) | self._markers_expected(occupied)
        clear = [s for s in occupied if s not in expected]
        fill = [s for s in expected if s not in occupied]
        wrong = [s for s in self._identity_problems(board) if s in occupied]
        if not clear and not fill and not wrong:
            return None
        focus = self._focus or self._nearest_anchor(clear + fill + wrong)
        return BoardMismatch(order_nearest(clear, focus), order_nearest(fill, focus),
                             order_nearest(wrong, focus), reason)

    def _markers_expected(self, occupied: frozenset[Square]) -> set[Square]:
        """The volcano squares that must read occupied (see the module docstring)."""
        if self.volcano_markers_sensed is not None:
            return set(self._volcanoes) if self.volcano_markers_sensed else set()
        if self._restoring:  # unknown: learn what each volcano square normally reads
            for volcano in self._volcanoes:
                self._marker_sensed[volcano] = volcano in occupied
        return {v for v, sensed in self._marker_sensed.items() if sensed}

    @staticmethod
    def _nearest_anchor(squares: list[Square]) -> Square:
        return min(squares, key=lambda s: (s.rank, s.file))

    def _evaluate(self, changed_at: float) -> list[Observation]:
        board = self.board
        if board is None:
            return []
        self._pending = None
        self._forget_at = None
        mismatch = self._mismatch(board, self._restore_reason if self._restoring else "unexpected")
        if mismatch is None:
            if board.identifying and self._restoring:
                self._learn_tags(board)
            self._restoring = False
            self._recovering = False
            self._ruled = None
            # The history of lifts is forgotten only once the match has lasted: a piece hovering
            # between two squares can make a half-done attack look complete for a moment.
            self._forget_at = changed_at + self.forget_s
            if self._last_emitted is None or not isinstance(self._last_emitted, BoardMatches):
                return self._emit(BoardMatches())
            return []
        if self._recovering:
            return self._decide_unseen(mismatch, changed_at)
        if self._restoring:
            return self._emit(mismatch)  # guiding: answer every change at once
        move, attack = self._candidate(board, mismatch)
        if move is None:
            if self._is_in_progress(mismatch):
                self._schedule(changed_at + self.idle_patience_s, mismatch)
            else:
                self._schedule(changed_at + self.patience_s, mismatch)
            return []
        made = MoveMade(move, attack, changed_at)
        if not self.position.allows(move):
            # Not a move the rules allow: most likely a hand still on its way. Reported (for the
            # referee to refuse) only once the board has held still.
            self._schedule(changed_at + self.patience_s, made)
            return []
        if not attack and self.is_scout_move(move):
            self._schedule(changed_at + self.scout_hold_s, made)
            return []
        if not attack and self._filled_before_lifted(move):
            # The target filled before the origin emptied: a piece slid with both contacts
            # closed for a moment, or a neighbour knocked just as a hovering piece touched down.
            # Rule it only if it holds.
            self._schedule(changed_at + self.scout_hold_s, made)
            return []
        return self._emit(made)

    def _decide_unseen(self, mismatch: BoardMismatch, changed_at: float) -> list[Observation]:
        """A board nobody watched: once it holds still, rule the one unseen move or guide back."""
        found = unseen_move(self.position, mismatch.clear, mismatch.fill, mismatch.wrong)
        if found is None:
            self._pending = _Pending(changed_at + self.patience_s, mismatch, RECOVERY)
            return []
        move, attack = found
        # A piece lifted and held in the hand looks like an attack on occupancy sensors: an
        # attack waits as long as a player thinking with a piece in the air may.
        wait = self.idle_patience_s if attack else self.patience_s
        if not attack and self.is_scout_move(move):
            wait = max(wait, self.scout_hold_s)
        self._pending = _Pending(changed_at + wait, MoveMade(move, attack, changed_at), RECOVERY)
        return []

    def _fill_lead(self, origin: Square, target: Square) -> float | None:
        """How long before `origin` emptied `target` filled (negative: after; None: unseen)."""
        filled = self._filled_at.get(target)
        lifted = self._lifted_at.get(origin)
        return None if filled is None or lifted is None else lifted - filled

    def _stray(self, origin: Square, target: Square) -> bool:
        """A piece put on `target` well before the mover left `origin` is not the mover: a
        stray (a battle's loser put down), whatever the mover then did."""
        lead = self._fill_lead(origin, target)
        return lead is not None and lead > self.slide_overlap_s

    def _filled_before_lifted(self, move: Move) -> bool:
        lead = self._fill_lead(move.origin, move.target)
        return lead is not None and lead > 0

    def _candidate(self, board: StableBoard, mismatch: BoardMismatch) -> tuple[Move | None, bool]:
        if len(mismatch.fill) != 1:
            return None, False
        origin = mismatch.fill[0]  # the mover's square is the one that must be filled again
        mover = self.position.piece_at(origin)
        tag = self.tags.get(mover.id) if mover is not None and board.identifying else None
        if tag is not None:
            # Identifying sensors: the mover's tag says where it went, an attack included.
            squares = mismatch.clear + mismatch.wrong
            if len(squares) == 1 and board.tag_at(squares[0]) == tag:
                return Move(origin, squares[0]), bool(mismatch.wrong)
            return None, False
        if mismatch.wrong:
            return None, False
        if len(mismatch.clear) == 1:
            if self._stray(origin, mismatch.clear[0]):
                return None, False
            return Move(origin, mismatch.clear[0]), False
        if mismatch.clear or mover is None:
            return None, False
        lifted = self._lifted_at.get(origin)
        best: tuple[float, Square] | None = None
        for square, refilled in self._refilled.items():
            defender = self.position.piece_at(square)
            if defender is None or defender.color is mover.color or lifted is None:
                continue
            # Empty for long enough in one go: two knocks a move apart (each a few hundredths of
            # a second) are no capture, though the square was first emptied long before.
            if refilled < lifted or self._longest_empty.get(square, 0.0) < self.attack_min_gap_s:
                continue
            if best is None or refilled > best[0]:
                best = (refilled, square)
        return (Move(origin, best[1]), True) if best else (None, False)

    def _is_in_progress(self, mismatch: BoardMismatch) -> bool:
        """Only pieces lifted, at most one of them the mover's: a player thinking, hand in the air."""
        if mismatch.clear or mismatch.wrong:
            return False
        own = [s for s in mismatch.fill
               if (p := self.position.piece_at(s)) is not None and p.color is self.position.to_move]
        return len(own) <= 1

    def is_scout_move(self, move: Move) -> bool:
        """True for a scout's move: it may still be sliding on, or a hovering piece may have
        brushed the square beyond its target, so its ruling waits for `scout_hold_s`."""
        piece = self.position.piece_at(move.origin)
        return piece is not None and piece.scout

    def scout_could_go_on(self, move: Move) -> bool:
        """True when the move is a scout's that could have gone further."""
        if not self.is_scout_move(move):
            return False
        df = (move.target.file > move.origin.file) - (move.target.file < move.origin.file)
        dr = (move.target.rank > move.origin.rank) - (move.target.rank < move.origin.rank)
        return self.position.allows(Move(move.origin, Square(move.target.file + df, move.target.rank + dr)))

    def _schedule(self, due: float, observation: Observation) -> None:
        if observation != self._last_emitted:
            self._pending = _Pending(due, observation)

    def _emit(self, observation: Observation) -> list[Observation]:
        if observation == self._last_emitted:
            return []
        self._last_emitted = observation
        if isinstance(observation, MoveMade):
            self._ruled = observation.move
        return [observation]


class BoardWatch:
    """Stabiliser and recogniser for a tool that owns a Game (tests, benches, the simulated table).

    It stands in for the referee's session: a MoveMade the game refuses comes back as an
    IllegalAttempt with the refusal; the caller pushes the moves it accepts and calls sync().
    """

    def __init__(self, game: Game, stabiliser: Stabiliser | None = None, **recognizer_options) -> None:
        self.game = game
        self.stabiliser = stabiliser or Stabiliser()
        self.recognizer = MoveRecognizer(ExpectedPosition.of(game), **recognizer_options)

    def feed(self, reading: Reading) -> list[Observation]:
        """One reading from a sensor source."""
        stable = self.stabiliser.feed(reading)
        return self._rule(self.recognizer.feed(stable)) if stable is not None else []

    def poll(self, now: float) -> list[Observation]:
        """Call every few milliseconds: boards become stable, and reports due, by time passing."""
        out: list[Observation] = []
        stable = self.stabiliser.poll(now)
        if stable is not None:
            out += self.recognizer.feed(stable)
        return self._rule(out + self.recognizer.poll(now))

    def sync(self) -> list[Observation]:
        """The game changed (push, pop): hand the recogniser its new position."""
        return self._rule(self.recognizer.expect(ExpectedPosition.of(self.game)))

    def guidance(self) -> BoardMismatch | None:
        """What to change on the board now (None when it matches)."""
        return self.recognizer.guidance()

    def _rule(self, observations: list[Observation]) -> list[Observation]:
        ruled: list[Observation] = []
        for observation in observations:
            refusal = self.game.check(observation.move) if isinstance(observation, MoveMade) else None
            if isinstance(observation, MoveMade) and refusal is not None:
                self.recognizer.refused(observation.move)
                observation = IllegalAttempt(observation.move, refusal)
            ruled.append(observation)
        return ruled
