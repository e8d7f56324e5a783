"""The referee's log of refused junk: the first of each kind is logged, the rest counted, and a
refusal that is counted has already been logged (a test or an operator reading the count from
another thread finds its line)."""

from __future__ import annotations

import logging

from firmware_bridge.referee.refusals import RefusalLog

TOPIC = "arbiter/v1/board-1/hello"


class CountAtLogTime(logging.Handler):
    """Records, for each refusal line, how many refusals the log had counted when it was written."""

    def __init__(self, refusals: RefusalLog) -> None:
        super().__init__()
        self.refusals = refusals
        self.counts: list[int] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("refused a message"):
            self.counts.append(self.refusals.count)


def test_the_first_refusal_of_a_kind_is_logged_before_it_is_counted():
    refusals = RefusalLog()
    handler = CountAtLogTime(refusals)
    logger = logging.getLogger("firmware_bridge.referee.service")
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        refusals.note(TOPIC, "malformed", "not JSON")
        refusals.note(TOPIC, "malformed", "not JSON either")
        refusals.note(TOPIC, "too-large", "ten megabytes")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    assert handler.counts == [0, 2], "a refusal was counted before its line was written"
    assert refusals.count == 3


def test_later_refusals_of_a_kind_are_summed_in_one_line(caplog):
    now = [0.0]
    refusals = RefusalLog(summary_seconds=60, clock=lambda: now[0])
    caplog.set_level(logging.INFO, logger="firmware_bridge.referee.service")
    for _ in range(50):
        refusals.note(TOPIC, "malformed", "not JSON")
    now[0] = 61.0
    refusals.note(TOPIC, "malformed", "not JSON")
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2, lines
    assert lines[1] == "refused 50 more messages (hello malformed: 50)"
