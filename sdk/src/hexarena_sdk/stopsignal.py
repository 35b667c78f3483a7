"""A stop request an engine can watch without the GIL.

A search written in C (or any native code) runs without the GIL and must still stop when its host gives up on the
move. Asking a Python callback means taking the GIL back, and waiting for whichever thread holds it: on a busy machine
that thread may not be running for tens of milliseconds, and a wait that straddles the search's deadline lands on the
match clock. So the host's stop request is also one byte of memory the engine reads directly.
"""

from __future__ import annotations

import threading

#: What an engine reads to know its host gave up on it: one byte, nonzero once set (``StopSignal.flag``). Native code
#: takes it through the buffer protocol and reads the byte; Python code reads ``flag[0]``.
StopFlag = bytearray


class StopSignal(threading.Event):
    """A ``threading.Event`` whose state is also ``flag``: one byte, nonzero from when the event is set until it is
    cleared, for an engine to read without the GIL."""

    def __init__(self) -> None:
        super().__init__()
        self.flag = StopFlag(1)

    def set(self) -> None:
        self.flag[0] = 1
        super().set()

    def clear(self) -> None:
        self.flag[0] = 0
        super().clear()
