"""The ``blokus`` command line: selfplay, perft, the list of variants, pictures of games, a GTP
engine and matches between engines.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "board.svg")
>>> main(["render", "duo 14/14/4P9/3PPP8/4P9/14/14/14/14/14/14/14/14/14 o -", "-o", path])
0
>>> with open(path) as f:
...     f.read().startswith("<svg")
True
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import NoReturn

from blokus import _arguments
from blokus.board import Board
from blokus.errors import BlokusError
from blokus.progress import Progress
from blokus.selfplay import selfplay
from blokus.variant import Variant, variant, variants


def _integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            # Up to 30 characters: no count needs more, and a longer number is not read.
            n = int(text) if len(text) <= 30 else None
        except ValueError:
            n = None
        if n is None:
            what = f"a number of {len(text)} characters" if len(text) > 30 else _arguments.shown(text)
            raise argparse.ArgumentTypeError(f"expected an integer of at most 30 digits, not {what}")
        if n < low or (high is not None and n > high):
            bounds = f"{low} to {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"expected {bounds}, not {n}")
        return n

    return parse


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0, at most a bot's most."""
    from blokus.bots import MAX_SECONDS

    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {_arguments.shown(text)}") from None
    if not (math.isfinite(x) and 0 < x <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds above 0 and at most {MAX_SECONDS:g}, not {_arguments.shown(text)}"
        )
    return x


def _rate(text: str) -> float:
    """An argparse type: a probability strictly between 0 and 1."""
    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if not 0 < x < 1:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, not {_arguments.shown(text)}")
    return x


def _folder(text: str) -> str:
    """An argparse type: a folder's path, not empty."""
    if not text:
        raise argparse.ArgumentTypeError("expected a folder, not an empty path")
    return text


_count = _integer(0)
_seed = _integer(0, _arguments.MAX_U64)
_threads = _integer(1, _arguments.MAX_THREADS)


def _variant_arg(text: str) -> Variant:
    if text.endswith((".toml", ".json")):
        return Variant.from_file(text)
    return variant(text)


def _cmd_selfplay(args: argparse.Namespace) -> int:
    v = _variant_arg(args.variant)
    if args.chunk is not None and args.ray is None:
        raise BlokusError("--chunk: chunks are Ray tasks; give --ray too")
    bar = Progress(args.games, sys.stderr, sys.stderr.isatty())
    try:
        if args.ray is not None:
            from blokus import distributed

            address = args.ray or None
            s = distributed.selfplay(
                v,
                args.games,
                args.seed,
                args.policy,
                address=address,
                chunk=args.chunk,
                threads_per_task=args.threads or 1,
                summary_only=True,
                simulations=args.simulations,
                progress=lambda done, total: bar.update(done, "games"),
            )
            where = f"Ray ({distributed.cluster_cpus(address)} CPUs, {args.threads or 1} thread(s) a task)"
        else:
            s = selfplay(
                v,
                games=args.games,
                seed=args.seed,
                threads=args.threads,
                policy=args.policy,
                simulations=args.simulations,
                progress=lambda done, total: bar.update(done, "games"),
            ).summary()
            where = f"{args.threads or 'all'} thread(s)"
    finally:
        bar.close()
    print(
        f"{v.id}: {s.games} {args.policy} games in {s.seconds:.3f} s on {where}: "
        f"{s.games_per_second:,.0f} games/s, {s.plies_mean:.1f} moves per game"
    )
    if s.games:
        print(s.table())
    return 0


def _cmd_perft(args: argparse.Namespace) -> int:
    if args.suite is not None:
        return _perft_suite(args)
    chosen = args.variant or ["duo"]
    if len(chosen) > 1:
        raise BlokusError("--variant: name one variant (several are for --suite)")
    if args.bpn and args.moves:
        raise BlokusError("--bpn and --moves: give one starting position")
    if args.bpn:
        board = Board.from_bpn(args.bpn, _variant_arg(chosen[0]) if args.variant else None)
    else:
        board = Board(_variant_arg(chosen[0]), args.moves.split(";") if args.moves else ())
    try:
        depth = _arguments.perft_depth(board.variant, 2 if args.depth is None else args.depth, low=1)
    except BlokusError as e:
        raise BlokusError(f"--depth: {e}") from None
    where = "the given position" if args.bpn else "the given moves" if args.moves else "the empty board"
    if args.divide:
        return _perft_divide(board, depth, where)
    print(f"{board.variant.id}: perft from {where}")
    print(f"{'depth':>5}{'nodes':>16}{'seconds':>10}{'nodes/s':>16}")
    for d in range(1, depth + 1):
        start = time.perf_counter()
        n = board.perft(d)
        dt = time.perf_counter() - start
        print(f"{d:>5}{n:>16,}{dt:>10.3f}{n / dt if dt > 0 else 0:>16,.0f}")
    return 0


def _perft_divide(board: Board, depth: int, where: str) -> int:
    """Each legal move (move text, sorted) with the count of sequences of ``depth`` moves that
    start with it: what an author compares line by line when another generator disagrees."""
    from blokus.perft import divide

    start = time.perf_counter()
    counts = divide(board, depth)
    dt = time.perf_counter() - start
    print(f"{board.variant.id}: perft({depth}) divided by first move, from {where}")
    for text, n in sorted((str(m), n) for m, n in counts.items()):
        print(f"{text}: {n}")
    total = sum(counts.values())
    print(f"\n{len(counts)} moves, {total} nodes in {dt:.3f} s")
    return 0


def _perft_suite(args: argparse.Namespace) -> int:
    """Checks every count of the perft suite (of the given variants), with nodes/s; exit 1 on
    a count that differs."""
    from blokus.perft import check_suite, load_suite

    try:
        positions = load_suite(args.suite or None)
    except ValueError as e:
        raise BlokusError(str(e)) from None
    known = {p.variant for p in positions}
    for vid in args.variant or ():
        if vid not in known:
            raise BlokusError(f"--variant {vid}: the suite has no positions of it (it has {', '.join(sorted(known))})")
    print(f"{'variant':<16}{'position':<10}{'depths':>7}{'nodes':>18}{'seconds':>10}{'nodes/s':>16}  result")
    bad = 0
    nodes = 0
    seconds = 0.0
    checked = 0
    for r in check_suite(positions, args.variant, args.depth):
        p = r.position
        checked += 1
        nodes += r.nodes
        seconds += r.seconds
        rate = r.nodes / r.seconds if r.seconds > 0 else 0.0
        depths = f"1-{len(r.depths)}" if r.depths else "-"
        print(
            f"{p.variant:<16}{p.name:<10}{depths:>7}{r.nodes:>18,}{r.seconds:>10.3f}{rate:>16,.0f}"
            f"  {'ok' if r.ok else 'MISMATCH'}",
            flush=True,
        )
        if r.bpn_mismatch is not None:
            print(f"  the moves give {r.bpn_mismatch}\n  the suite says {p.bpn}")
        for d, expected, got, _ in r.depths:
            if expected != got:
                print(f"  perft({d}): the suite says {expected:,}, counted {got:,}")
        bad += not r.ok
    rate = nodes / seconds if seconds > 0 else 0.0
    print(f"\n{checked} positions, {nodes:,} nodes in {seconds:.2f} s: {rate:,.0f} nodes/s")
    if bad:
        print(f"{bad} position(s) with a count that differs from the suite")
        return 1
    print("every count matches the suite")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from blokus.bench import run

    structures = ["3d_tower", "3d_wall", "3d_steps", "3d_pyramid"]
    chosen = args.variant or [v for v in variants() if not v.startswith("3d_")] + structures
    for v in chosen:
        variant(v)  # unknown ids fail before any work
    run(chosen, args.seconds, args.threads, args.rl_games, json_path=args.json, markdown_path=args.markdown)
    return 0


def _cmd_variants(args: argparse.Namespace) -> int:
    rows = [(vid, variant(vid)) for vid in variants()]
    # Columns as wide as their longest entry, and at least two spaces apart.
    id_width = max(len(vid) for vid, _ in rows) + 2
    name_width = max(len(v.name) for _, v in rows) + 2
    for vid, v in rows:
        print(
            f"{vid:<{id_width}}{v.name:<{name_width}}{v.num_colors} colours {v.num_players} players"
            f" {v.num_placements:>6} placements"
        )
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from blokus import sgf, svg

    source: str = args.source
    if os.path.exists(source) or source.endswith((".blksgf", ".sgf")):
        game = sgf.load(source)
        node = game.end()
        if args.move is not None:
            nodes = [game, *game.mainline()]
            moves = [n for n in nodes if n.color is not None]
            if not 0 <= args.move <= len(moves):
                raise BlokusError(f"--move {args.move}: the main line has {len(moves)} moves")
            node = moves[args.move - 1] if args.move > 0 else game
        board = node.board()
    else:
        if args.move is not None:
            raise BlokusError("--move needs a game file (.blksgf); a BPN string is a single position")
        board = Board.from_bpn(source)
    picture = svg.board(
        board, size=args.size, coordinates=not args.no_coordinates, last_move=not args.no_last_move, view=args.view
    )
    if args.output in (None, "-"):
        sys.stdout.write(picture)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(picture)
    return 0


def _bot_spec(args: argparse.Namespace) -> str:
    """``--bot`` with the options given as flags added (``--seed 3`` -> ``greedy:seed=3``)."""
    from blokus.bots import is_gtp_spec

    spec: str = args.bot.strip()
    if is_gtp_spec(spec):
        raise BlokusError(f"--bot {spec!r}: blokus gtp serves a built-in bot (random, greedy, mcts), not a GTP engine")
    extra = [
        f"{key}={value}"
        for key, value in (("seed", args.seed), ("seconds", args.seconds), ("threads", args.threads))
        if value is not None
    ]
    if extra:
        spec += ("," if ":" in spec else ":") + ",".join(extra)
    return spec


def _cmd_play(args: argparse.Namespace) -> int:
    """A person against a bot: the board after each move, moves typed as text."""
    from blokus.bots import from_spec

    v = _variant_arg(args.variant)
    if not 0 <= args.player < v.num_players:
        raise BlokusError(f"--player {args.player}: {v.id} has players 0 to {v.num_players - 1}")
    bot = from_spec(_bot_spec(args))
    board = Board(v)
    out = sys.stdout
    print(f"blokus {v.id}: you are player {args.player}; type a move (e.g. e10,d11,e11) or 'help'", file=out)
    while not board.is_game_over():
        print(board, file=out)
        if board.player != args.player:
            move = bot.choose(board)
            print(f"{bot.name} plays {move}", file=out)
            board.push(move)
            continue
        try:
            line = input(f"{v.colors[board.turn or 0]}> ").strip()
        except EOFError:
            print("", file=out)
            return 0
        if line in ("quit", "exit"):
            return 0
        if line in ("help", "?"):
            print(_PLAY_HELP, file=out)
            continue
        if line == "undo":
            # Back to the last position where it was the person's turn.
            while board.move_stack:
                board.pop()
                if board.player == args.player:
                    break
            continue
        if line == "hint":
            print(f"hint: {bot.choose(board)}", file=out)
            continue
        if line == "moves":
            legal = list(board.legal_moves)
            more = f" ... ({len(legal)} legal moves)" if len(legal) > 60 else ""
            print(" ".join(str(m) for m in legal[:60]) + more, file=out)
            continue
        if not line:
            continue
        try:
            board.push(line)
        except BlokusError as e:
            print(f"not played: {e}", file=out)
    print(board, file=out)
    outcome = board.outcome()
    assert outcome is not None
    winners = ", ".join(str(p) for p in outcome.winners)
    print(f"game over: {outcome.result} (winner: player {winners})", file=out)
    return 0


_PLAY_HELP = """\
a move:  its cells in Pentobi's notation, in any order (e10,d11,e11,f11,e12)
moves    the legal moves (the first 60)
hint     the bot's choice for you
undo     take back your last move (and the bot's answer)
quit     end the game (also exit, or end of input)"""


def _cmd_analyse(args: argparse.Namespace) -> int:
    """Annotates every move of a record's main line with the bot's view of it."""
    from blokus import sgf
    from blokus.bots import from_spec

    bot = from_spec(_bot_spec(args))
    game = sgf.load(args.record, _variant_arg(args.variant) if args.variant else None)
    nodes = [node for node, _ in game.mainline_boards()]
    bar = Progress(len(nodes), sys.stderr, sys.stderr.isatty())
    board = game.board()
    try:
        for k, node in enumerate(nodes):
            move = node.move
            if move is not None and not board.is_game_over():
                a = bot.analyse(board)
                values = {m.move: m for m in a.moves}
                played = values.get(move)
                best = a.moves[0]
                value = f"{played.value:.3f}" if played is not None and played.visits > 0 else "?"
                note = (
                    f"{bot.name}: played {move} value {value}; best {best.move} value {best.value:.3f} "
                    f"({best.visits} visits); win chances {' '.join(f'{x:.2f}' for x in a.value)}"
                )
                node.comment = f"{node.comment}\n{note}" if node.comment else note
                node.set(MOVE_VALUE, value if value != "?" else None)
                node.set(BEST_MOVE, str(best.move))
            board = node.board()
            bar.update(k + 1, "nodes")
    finally:
        bar.close()
    if args.output in (None, "-"):
        sys.stdout.write(sgf.dumps(game))
    else:
        sgf.dump(game, args.output)
    return 0


#: The SGF properties `blokus analyse` writes on a move's node: the analysing bot's value of the
#: move played (a win probability for its player), and the move it would have played.
MOVE_VALUE, BEST_MOVE = "XV", "XB"


def _cmd_gtp(args: argparse.Namespace) -> int:
    from blokus.bots import from_spec
    from blokus.gtp_server import serve

    v = _variant_arg(args.variant)
    bot = from_spec(_bot_spec(args))
    serve(bot, v)
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
    from blokus.match import MatchResult, match

    v = _variant_arg(args.variant)
    equal_time = None
    if args.equal_time is not None:
        if not 1 <= args.equal_time <= len(args.engines):
            raise BlokusError(f"--equal-time {args.equal_time}: engines are numbered 1 to {len(args.engines)}")
        equal_time = args.equal_time - 1
    tty = sys.stderr.isatty()
    bar = Progress(args.games, sys.stderr, tty)
    # Without a terminal (a log of a long unattended match) a line at each tenth of the games.
    step = max(1, args.games // 10)

    def show(r: MatchResult) -> None:
        first = r.engine_stats()[0]
        done = len(r.records)
        bar.update(done, f"games, {r.engines[0][:20]} {first.score.score:.3f}")
        if not tty and done % step == 0 and done < args.games:
            interval = f" ({first.score.low:.3f}-{first.score.high:.3f})" if first.score.n > 1 else ""
            print(
                f"blokus match: {done}/{args.games} games, {r.engines[0][:40]} {first.score.score:.3f}{interval}",
                file=sys.stderr,
                flush=True,
            )

    run: Callable[..., MatchResult] = match
    extra: dict[str, object] = {}
    if args.ray is not None:
        from blokus import distributed

        run, extra = distributed.match, {"address": args.ray or None}
    try:
        result = run(
            args.engines,
            v,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            out=args.out,
            resume=args.resume,
            openings=args.openings,
            opening_plies=args.opening_plies,
            sprt=tuple(args.sprt) if args.sprt else None,
            alpha=args.alpha,
            beta=args.beta,
            equal_time=equal_time,
            timeout=args.timeout,
            progress=show,
            stop_on_forfeit=args.stop_on_forfeit,
            **extra,
        )
    finally:
        bar.close()
    print(result.summary())
    return 0


def _cmd_gui(args: argparse.Namespace) -> int:
    """The web GUI: a local server, its URL (with the access token) on the first line."""
    from pathlib import Path

    try:
        from blokus.gui import server
        from blokus.gui._session import HUMAN, Config, Session
    except ModuleNotFoundError as e:
        raise BlokusError(f"blokus gui needs {e.name}: pip install 'blokus[gui]'") from None
    from blokus import sgf
    from blokus.bots import is_gtp_spec

    game = None
    folder = Path(args.folder).resolve() if args.folder else None
    if folder is not None and not folder.is_dir():
        raise BlokusError(f"--folder {args.folder}: no such folder")
    if args.open:
        game = sgf.load(args.open)
        folder = folder or Path(args.open).resolve().parent
        v = game.variant
    else:
        v = _variant_arg(args.variant)
    seats = [HUMAN] * v.num_players
    gtp = set()
    for item in args.seat or ():
        number, eq, spec = item.partition("=")
        if not eq or not number.strip().isdigit() or not 1 <= int(number) <= v.num_players:
            raise BlokusError(f"--seat {item!r}: give N=SPEC with N a player from 1 to {v.num_players} (e.g. 2=greedy)")
        seats[int(number) - 1] = spec.strip() or HUMAN
        if is_gtp_spec(spec):
            gtp.add(spec.strip())
    title = Path(args.open).name if args.open else ""
    config = Config(v, seats, game=game, folder=folder, gtp_specs=frozenset(gtp), analysis=args.analysis, title=title)
    Session(config).close()  # bad seats and analysis specs are refused here, before the server starts
    try:
        server.run(config, host=args.host, port=args.port, open_browser=not args.no_browser)
    except OSError as e:
        raise BlokusError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    return 0


def _ray_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help=f"{what}: on a local Ray started here (no ADDRESS), the cluster running on this machine (auto), "
        "or the cluster at ADDRESS; needs pip install 'blokus[ray]'",
    )


class _Parser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit code 2 (argparse prints its usage too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``blokus`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit status.

    >>> import contextlib, io
    >>> out = io.StringIO()
    >>> with contextlib.redirect_stdout(out):
    ...     status = main(["variants"])
    >>> status, out.getvalue().splitlines()[3]
    (0, 'duo             Duo                                                    2 colours 2 players  13729 placements')
    """
    parser = _Parser(prog="blokus", description="The blokus engine from the command line.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("selfplay", help="play random games in Rust; print games/s and score statistics")
    p.add_argument("--variant", default="classic", help="variant id, or a .toml/.json spec file")
    p.add_argument("--games", type=_count, default=10_000)
    p.add_argument("--seed", type=_seed, default=0)
    p.add_argument("--threads", type=_threads, default=None, help="default: every core")
    p.add_argument(
        "--policy",
        choices=["uniform", "greedy", "mcts"],
        default="uniform",
        help="how moves are chosen: uniformly, largest piece first, or by the MCTS bot's search",
    )
    p.add_argument(
        "--simulations", type=_count, default=200, help="with --policy mcts: the search's simulations per move"
    )
    _ray_option(p, "play the games as Ray tasks (--threads: threads a task; default 1)")
    p.add_argument(
        "--chunk", type=_integer(1), default=None, help="with --ray: games a task (default: about a second's worth)"
    )
    p.set_defaults(run=_cmd_selfplay)

    p = sub.add_parser(
        "perft",
        help="count move sequences to a depth; check the perft suite",
        description="Count move sequences to a depth (perft), split them by first move (--divide), "
        "or check every count of the perft suite shipped with the package (--suite).",
    )
    p.add_argument(
        "--variant",
        action="append",
        help="variant id, or a .toml/.json spec file (default duo); with --suite, the variants to check (repeat)",
    )
    p.add_argument(
        "--depth", type=_count, default=None, help="count to this depth (default 2); with --suite, the deepest to check"
    )
    p.add_argument("--moves", default="", help="moves to play first, separated by ';'")
    p.add_argument("--bpn", default="", help="start from this position string instead")
    p.add_argument("--divide", action="store_true", help="print the count below each first move, and the total")
    p.add_argument(
        "--suite",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="check the perft suite (or a suite file of the same format); exit 1 on a count that differs",
    )
    p.set_defaults(run=_cmd_perft)

    p = sub.add_parser("bench", help="games/s, legal moves/s and perft speed per variant")
    p.add_argument("--variant", action="append", help="a variant id (repeat for several; default: all)")
    p.add_argument("--seconds", type=_seconds, default=1.0, help="time per measurement")
    p.add_argument("--threads", type=_threads, default=None, help="threads for the all-core figure")
    p.add_argument("--rl-games", type=_integer(1), default=20, help="games per loop in the blokus-rl comparison")
    p.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write every figure, the machine, CPU level and version as JSON",
    )
    p.add_argument(
        "--markdown",
        default=None,
        metavar="FILE",
        help="also write the figures as a Markdown page (docs/BENCHMARKS.md is written so)",
    )
    p.set_defaults(run=_cmd_bench)

    p = sub.add_parser("variants", help="list the built-in variants")
    p.set_defaults(run=_cmd_variants)

    p = sub.add_parser("render", help="draw a game (.blksgf) or a position (BPN) as SVG")
    p.add_argument("source", help="a .blksgf file, or a BPN position string")
    p.add_argument("-o", "--output", help="the .svg file to write (default: standard output)")
    p.add_argument(
        "--move", type=_count, default=None, help="draw the main line after this many moves (default: the end)"
    )
    p.add_argument("--size", type=_integer(1, 100_000), default=None, help="width in pixels")
    p.add_argument("--no-coordinates", action="store_true", help="leave out column letters and row numbers")
    p.add_argument("--no-last-move", action="store_true", help="do not outline the last move")
    p.add_argument(
        "--view",
        choices=["top", "iso"],
        default="top",
        help="Blokus 3D: the columns from above with their heights (top), or the cubes in an isometric picture (iso)",
    )
    p.set_defaults(run=_cmd_render)

    p = sub.add_parser(
        "gtp",
        help="serve a bot as a GTP engine (Pentobi's dialect) on standard input and output",
        description="Serve a bot as a GTP engine that answers as Pentobi's pentobi-gtp does.",
    )
    p.add_argument("--variant", "--game", "-g", default="classic", help="variant id, or a .toml/.json spec file")
    p.add_argument(
        "--bot", default="greedy", help="random, greedy or mcts, with options: greedy:seed=3 (default greedy)"
    )
    p.add_argument("--seed", type=_seed, default=None, help="the bot's random seed")
    p.add_argument("--seconds", type=_seconds, default=None, help="the bot's time per move (bots that search)")
    p.add_argument("--threads", type=_threads, default=None, help="the bot's threads (bots that search)")
    p.set_defaults(run=_cmd_gtp)

    def bot_options(p: argparse.ArgumentParser, default: str) -> None:
        p.add_argument("--bot", default=default, help=f"random, greedy or mcts, with options (default {default})")
        p.add_argument("--seed", type=_seed, default=None, help="the bot's random seed")
        p.add_argument("--seconds", type=_seconds, default=None, help="the bot's time per move (bots that search)")
        p.add_argument("--threads", type=_threads, default=None, help="the bot's threads (bots that search)")

    p = sub.add_parser("play", help="play a bot in the terminal: moves typed as text, the board after each")
    p.add_argument("--variant", "--game", "-g", default="duo", help="variant id, or a .toml/.json spec file")
    p.add_argument("--player", type=int, default=0, help="the player you are (default 0, who starts)")
    bot_options(p, "mcts")
    p.set_defaults(run=_cmd_play)

    p = sub.add_parser(
        "analyse",
        help="annotate a game record's main line with a bot's values (comments, XV and XB properties)",
    )
    p.add_argument("record", help="a .blksgf file")
    p.add_argument("-o", "--output", help="the .blksgf file to write (default: standard output)")
    p.add_argument(
        "--variant", default=None, help="a .toml/.json spec file (or id): the variant of a record of your own variant"
    )
    bot_options(p, "mcts")
    p.set_defaults(run=_cmd_analyse)

    p = sub.add_parser(
        "match",
        help="play engines against each other: scores, Elo, SPRT, a game file per game",
        description="Play a match between engines. An engine is a built-in bot with options "
        "(random, greedy:seed=3, mcts:seconds=0.1) or a GTP engine's command line "
        "('pentobi-gtp --nobook --game duo --level 1', or gtp:PROGRAM).",
    )
    p.add_argument("engines", nargs="+", metavar="ENGINE", help="a bot spec or a GTP command line (quote it)")
    p.add_argument("--variant", "--game", "-g", default="duo", help="variant id, or a .toml/.json spec file")
    p.add_argument("--games", type=_integer(0, 10**9), default=100, help="games to play (default 100)")
    p.add_argument(
        "--seed", type=_integer(0, 2**63 - 1), default=0, help="seed of the openings and of the bots' seeds (default 0)"
    )
    p.add_argument(
        "--jobs", "-j", type=_integer(1, 100_000), default=None, help="games at once (default: one per core)"
    )
    p.add_argument("--out", "-o", type=_folder, default=None, help="folder for the game files and results (resumable)")
    p.add_argument("--resume", action="store_true", help="go on with the match in --out")
    p.add_argument("--openings", default=None, help="a file of openings, one a line (moves separated by ';')")
    p.add_argument("--opening-plies", type=_count, default=None, help="random opening moves (default: one per colour)")
    p.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"), help="stop when the SPRT decides")
    p.add_argument("--alpha", type=_rate, default=0.05, help="the SPRT's false positive rate (default 0.05)")
    p.add_argument("--beta", type=_rate, default=0.05, help="the SPRT's false negative rate (default 0.05)")
    p.add_argument(
        "--equal-time",
        type=_integer(1, 10**6),
        default=None,
        metavar="N",
        help="engine N (1-based) gets the others' mean time per move",
    )
    p.add_argument(
        "--timeout", type=_seconds, default=60.0, help="seconds a GTP engine has to answer (default 60, at most 1e6)"
    )
    p.add_argument(
        "--stop-on-forfeit",
        action="store_true",
        help="stop the match after a game an engine forfeited (default: start the engine again and go on)",
    )
    _ray_option(p, "play the games on Ray actors (--jobs: actors; default one per CPU of the cluster)")
    p.set_defaults(run=_cmd_match)

    p = sub.add_parser(
        "gui",
        help="play, watch and replay games in the browser (a local web server; needs blokus[gui])",
        description="Start a local web server for playing, watching and replaying games in the browser; "
        "the first line printed is the URL to open (it carries the access token).",
    )
    p.add_argument("--variant", "--game", "-g", default="duo", help="variant id, or a .toml/.json spec file")
    p.add_argument(
        "--seat",
        action="append",
        metavar="N=SPEC",
        help="player N (from 1) is an engine: a built-in bot (2=mcts:seconds=1) or a GTP command line; repeat",
    )
    p.add_argument("--open", metavar="FILE", help="a .blksgf game to replay; files are saved in its folder")
    p.add_argument("--folder", metavar="DIR", help="the folder the page may save and open game files in")
    p.add_argument("--port", type=_integer(0, 65535), default=0, help="the port (default: any free one)")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1, this machine only)"
    )
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument(
        "--analysis", default="mcts:seconds=1", help="the bot behind hints and analysis (default mcts:seconds=1)"
    )
    p.set_defaults(run=_cmd_gui)

    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except BlokusError as e:
        print(f"blokus: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader of the output went away (| head)
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"blokus: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("blokus: interrupted", file=sys.stderr)
        return 130
    except MemoryError:
        print("blokus: out of memory", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
