"""A GTP engine that misbehaves on purpose, for the client's and the match runner's tests.

It knows no rules (so that it starts at once): it accepts every command, and answers ``genmove``
with the moves it is given, in turn, until the N-th ``genmove`` (or other COMMAND), where it does
the fault it was asked for; several faults, separated by commas, go to that command and the
following ones:

    python fake_engine.py FAULT[,FAULT...] COMMAND N [--moves M;M;...] [--log FILE] [--once MARKER]

FAULT is one of: crash (a message on stderr, exit code 3), sigint (killed as Ctrl-C kills), hang, garbage (a line that is no GTP
answer), illegal (``e10``: it overlaps the first move of Duo), nomove (text that names no
move), pass, resign, wrongid (the answer of another command), refuse (``? no thanks``),
chatty (256 kB on stderr, four pipe buffers, then the right answer), flood (an answer line of
3 MB). ``--log FILE`` appends every command line
to FILE. With ``--once MARKER`` the fault happens once: the engine creates MARKER when it
starts (atomically), and an engine that finds MARKER there is blokus's real one (``blokus gtp``).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable

KNOWN = ["clear_board", "cputime", "genmove", "known_command", "list_commands", "name", "play", "quit", "set_game"]
KNOWN += ["set_random_seed", "time_left", "time_settings", "undo", "version"]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("fault")
    p.add_argument("command")
    p.add_argument("n", type=int)
    p.add_argument("--moves", default="")
    p.add_argument("--log", default=None)
    p.add_argument("--once", default=None)
    args = p.parse_args()
    if args.once:
        try:  # created atomically: of two engines started at once, only one is the faulty one
            os.close(os.open(args.once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            os.execv(sys.executable, [sys.executable, "-m", "blokus", "gtp", "--game", "duo", "--bot", "random"])
    faults = args.fault.split(",")
    moves = [m for m in args.moves.split(";") if m]
    count = 0
    out = sys.stdout.buffer
    while True:
        raw = sys.stdin.buffer.readline()
        if not raw:
            return
        line = raw.decode().strip()
        if args.log:
            with open(args.log, "a", encoding="utf-8") as f:
                f.write(line + "\n")
        words = line.split()
        if not words:
            continue
        id = words[0] if len(words) >= 2 and words[0].isdigit() else ""
        name, rest = (words[1], words[2:]) if id else (words[0], words[1:])

        def answer(text: str, ok: bool = True, id: str = id) -> None:
            out.write(f"{'=' if ok else '?'}{id} {text}\n\n".encode())
            out.flush()

        if name == args.command:
            count += 1
            k = count - args.n
            if 0 <= k < len(faults) and fault(faults[k], id, answer):
                continue
        if name == "genmove":
            answer(moves.pop(0) if moves else "pass")
        elif name == "name":
            answer("fake")
        elif name == "list_commands":
            answer("\n".join(KNOWN))
        elif name == "known_command":
            answer("true" if rest and rest[0] in KNOWN else "false")
        elif name == "cputime":
            answer("0")
        elif name == "quit":
            answer("")
            return
        elif name in KNOWN:
            answer("")
        else:
            answer(f"unknown command ({name})", ok=False)


def fault(kind: str, id: str, say: Callable[..., None]) -> bool:
    """Does the fault; ``True`` if it was the answer."""
    if kind == "crash":
        sys.stderr.write("fake: crashing on purpose\n")
        sys.stderr.flush()
        sys.exit(3)
    elif kind == "sigint":  # as if Ctrl-C reached it
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    elif kind == "hang":
        time.sleep(3600)
    elif kind == "garbage":
        sys.stdout.buffer.write(b"this is not gtp\n\n")
        sys.stdout.buffer.flush()
    elif kind == "illegal":
        say("e10")
    elif kind == "nomove":
        say("zz99")
    elif kind == "pass":
        say("pass")
    elif kind == "resign":
        say("resign")
    elif kind == "wrongid":
        sys.stdout.buffer.write(f"={int(id or 0) + 100} e10\n\n".encode())
        sys.stdout.buffer.flush()
    elif kind == "refuse":
        say("no thanks", False)
    elif kind == "flood":  # an answer line of 3 MB, past what a client reads
        sys.stdout.buffer.write(b"= " + b"e10," * 786_432 + b"\n\n")
        sys.stdout.buffer.flush()
    elif kind == "chatty":
        for _ in range(256):
            sys.stderr.write("x" * 1023 + "\n")
        sys.stderr.flush()
        return False
    else:
        raise SystemExit(f"unknown fault {kind}")
    return True


if __name__ == "__main__":
    main()
