"""Rotator as a library: boards from IDs, board files or seeds; solving; seeded, graded
books; printed boards and answer keys; and play, move by move.

Everything ``cardgen rotator`` does, as values in memory::

    import cardgen.api.rotator as rot

    board = rot.rotator_board("R1:B2B8E4I2I8-B4E2E8H4I9")
    answer = rot.solve_rotator(board)
    answer.solvable, answer.best.turns          # (True, 5)
    made = rot.generate_rotator(seed=7, count=6, difficulty="easy,hard")
    book = rot.make_rotator_book(made)          # book.files["rotator.pdf"]: the PDF's bytes

The same arguments give the same boards and the same bytes in any process, whatever
``jobs`` is (the parallel processes change only the speed). Bad input raises the
domain errors: a :class:`~cardgen.errors.BoardError` (codes ``board.*``) for an ID that
breaks a rule, a :class:`~cardgen.errors.ConfigError` for a board file, a
:class:`~cardgen.errors.ParameterError` naming the parameter for a value outside its
range. Nothing prints, nothing is written: ``result.files.write(folder)`` writes.

Play: :func:`play_rotator` gives the undoable game the terminal plays (its choices,
each with the turn it would play, and hints), and :func:`rotator_game` the referee in
python-chess's words (``initial``, ``legal_moves``, ``push``, ``outcome``); both run the
one rules engine of :mod:`cardgen.games.rotator`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api.common import (
    check_output_folder,
    choice,
    file_stem,
    format_list,
    in_range,
    whole_in_range,
)
from cardgen.api.common import usable_jobs as usable_jobs
from cardgen.errors import ParameterError, number, quoted, shorten
from cardgen.games.registry import (
    ARROWS,
    BOOST_CACHE,
    GRAVITY_WORDS,
    NODE_MARK,
    SOLID_MARK,
    Choice,
    Grade,
    Hint,
    HintStatus,
    Outcome,
    Phase,
    Position,
    RotatorGame,
    RotatorMap,
    Session,
    StartColumn,
    Status,
    TurnReport,
    gravity,
    plural,
    rotator,
    sort_key,
    turn_text,
)

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.games.registry import GradedBoard, Solution, StartResult
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.puzzlebook import PuzzleSize
    from cardgen.render import Format

__all__ = [
    "ARROWS",
    "BOOST_CACHE",
    "COLUMNS",
    "DEFAULT_BUDGET",
    "GRAVITY_WORDS",
    "MAX_BUDGET",
    "MAX_COUNT",
    "MAX_TRIES",
    "MIN_BUDGET",
    "NODE_MARK",
    "SEEDS",
    "SOLID_MARK",
    "Cell",
    "Choice",
    "Format",
    "Grade",
    "Grid",
    "Hint",
    "HintStatus",
    "Outcome",
    "Paper",
    "Phase",
    "Position",
    "PuzzleSize",
    "RotatorBoards",
    "RotatorBook",
    "RotatorGame",
    "RotatorGeneration",
    "RotatorMap",
    "RotatorSolution",
    "Session",
    "StartColumn",
    "Status",
    "TurnReport",
    "board_cell",
    "card_name",
    "check_output",
    "generate_rotator",
    "gravity",
    "lookup",
    "make_rotator_boards",
    "make_rotator_book",
    "parse_cell",
    "play_rotator",
    "read_rotator_board",
    "rotator_board",
    "rotator_decide",
    "rotator_game",
    "rotator_hint_record",
    "rotator_lines",
    "rotator_play_record",
    "rotator_start",
    "say",
    "solve_rotator",
    "sort_key",
    "text_board",
    "turn_text",
    "usable_jobs",
]

DEFAULT_BUDGET = 400_000  # the solver's own default: states any one search may explore
MIN_BUDGET = 100
MAX_BUDGET = 10_000_000  # 25 times the default: every state a search stores is kept in memory
MAX_COUNT = 500  # boards in one book
MAX_TRIES = 1_000_000  # maps drawn for one book
SEEDS = (-2 ** 63, 2 ** 63 - 1)  # SplitMix64 reads 64 bits: any more would repeat seeds

Progress = Callable[[int], None]

# Names loaded when first asked for: the printing modules are not for a solve.
_LAZY = {
    "PuzzleSize": "cardgen.prepress.puzzlebook", "Paper": "cardgen.prepress.paper",
    "Format": "cardgen.render", "COLUMNS": "cardgen.board.cells",
    "Cell": "cardgen.board.cells", "Grid": "cardgen.board.cells",
    "board_cell": "cardgen.board.cells", "card_name": "cardgen.board.cells",
    "parse_cell": "cardgen.board.cells", "text_board": "cardgen.board.text",
    # the words the terminal game says (templates/texts/rotator_play.toml, by key)
    "lookup": "cardgen.texts", "say": "cardgen.texts",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from cardgen.board.cells import (
        COLUMNS,
        Cell,
        Grid,
        board_cell,
        card_name,
        parse_cell,
    )
    from cardgen.board.text import text_board
    from cardgen.texts import lookup, say


def check_output(folder: Path | str, name: str, suffixes: Iterable[str] = (".pdf",)) -> Path:
    """Check, before any work and without creating anything, that the files ``name``
    with each of ``suffixes`` (``rotator.pdf``) can be written into ``folder``: ``name``
    is a plain file name (:func:`~cardgen.api.common.file_stem`), and
    :func:`~cardgen.api.common.check_output_folder` for the files.

    Args:
        folder: Where the files will be written.
        name: Their name without suffix.
        suffixes: Their suffixes, such as ``".pdf"``.

    Returns:
        The folder.

    Raises:
        ParameterError: ``name`` is not a plain file name.
        OutputError: The folder or a file's name cannot be used (the sentence says why).
    """
    file_stem(name)
    return check_output_folder(folder, *(f"{name}{suffix}" for suffix in suffixes))


# --- boards -----------------------------------------------------------------------------

def rotator_board(board: RotatorMap | str | Path | Mapping[str, Any] | None = None, *,
                  seed: int | None = None, difficulty: str | Grade | None = None
                  ) -> RotatorMap:
    """A Rotator board, from what names it or from a seed. Text is never taken for a
    file's name, so a board typed by a user cannot make this read the disk (the command
    line's reading of BOARD, an ID or a file's path, is :func:`read_rotator_board`).

    Args:
        board: A board ID (``"R1:B2B8E4I2I8-B4E2E8H4I9"``); a board file's text
            (TOML with ``nodes = ["A:C4", ...]``) or contents (``{"nodes": [...]}``);
            the :class:`~pathlib.Path` of a board file; or a :class:`RotatorMap`
            (returned as it is). Leave it out to generate one from ``seed``.
        seed: The first board :func:`generate_rotator` finds from this seed (of
            ``difficulty``, default easy).
        difficulty: With ``seed``: ``"easy"``, ``"medium"`` or ``"hard"``.

    Returns:
        The board; ``board.board_id`` is its ID.

    Raises:
        BoardError: The ID breaks a rule of the board (codes ``board.*``).
        ConfigError: The board file breaks its schema or is not TOML (codes
            ``config.*``).
        InputFileError: The board file cannot be read.
        ParameterError: Neither or both of ``board`` and ``seed``; a seed or grade out of
            range; no board found from the seed.

    Example:
        >>> rotator_board("R1:B2B8E4I2I8-B4E2E8H4I9").board_id
        'R1:B2B8E4I2I8-B4E2E8H4I9'
        >>> rotator_board('nodes = ["A:B2", "A:B8", "A:E4", "A:I2", "A:I8", '
        ...               '"B:B4", "B:E2", "B:E8", "B:H4", "B:I9"]').board_id
        'R1:B2B8E4I2I8-B4E2E8H4I9'
    """
    if board is None:
        if seed is None:
            raise ParameterError("board", "or seed: give one of them.", value=board)
        made = generate_rotator(seed=seed, count=1,
                                difficulty=difficulty if difficulty is not None else "easy")
        if not made.boards:
            raise ParameterError("seed", f"{number(made.seed)} gave no board in "
                                 f"{made.candidates} maps; try another seed.", value=seed)
        return made.boards[0].rmap
    if seed is not None:
        raise ParameterError("seed", "must be left out when board is given.", value=seed)
    if isinstance(board, RotatorMap):
        return board
    if isinstance(board, Path):
        return RotatorMap.from_toml(board)
    if isinstance(board, str):
        if "=" in board:  # a board file's text: an ID never holds '='
            from cardgen.datafile import parse_toml

            return RotatorMap.from_data(parse_toml(board, "board"), "board")
        return RotatorMap.from_id(board)
    if isinstance(board, Mapping):
        return RotatorMap.from_data(board)
    raise ParameterError("board", "must be a board ID, a board file's text, contents or "
                         f"path, or a RotatorMap, not {type(board).__name__}.", value=board)


def read_rotator_board(spec: str) -> RotatorMap:
    """A board as the command line reads its BOARD argument: an ID, or the path of a
    board file (text that ends in ``.toml`` or names something that exists). It reads
    the disk: give it no text from someone who should not choose which file is read
    (:func:`rotator_board` takes text as an ID only).

    Args:
        spec: An ID or a file's path.

    Returns:
        The board.

    Raises:
        BoardError, ConfigError, InputFileError: As :func:`rotator_board`.

    Example:
        >>> read_rotator_board("R1:B2B8E4I2I8-B4E2E8H4I9").board_id
        'R1:B2B8E4I2I8-B4E2E8H4I9'
    """
    return rotator().load(spec)


def rotator_lines(board: RotatorMap | str | Path | Mapping[str, Any]) -> list[str]:
    """The board as text, as the card shows it opened flat (``cardgen rotator show``):
    its ID and a legend, then grid A (read from the far side) above grid B, ``●`` for
    the Nodes and ``▒`` for their territories.

    Args:
        board: What :func:`rotator_board` takes.

    Returns:
        The lines, without line ends.

    Raises:
        BoardError, ConfigError, InputFileError: As :func:`rotator_board`.

    Example:
        >>> rotator_lines("R1:B2B8E4I2I8-B4E2E8H4I9")[0].split()[0]
        'R1:B2B8E4I2I8-B4E2E8H4I9'
    """
    return rotator().board_lines(rotator_board(board))


# --- solving ----------------------------------------------------------------------------

@dataclass(frozen=True)
class RotatorSolution:
    """A board solved: whether it can be won, every start's outcome and the best line.

    Attributes:
        board: The board solved.
        solution: The solver's answer: ``solution.best`` the board's best line,
            ``solution.results`` the outcome of each of the ten starts.
        budget: The states any one search could explore.
    """

    board: RotatorMap
    solution: Solution
    budget: int

    @property
    def board_id(self) -> str:
        """The board's ID."""
        return self.board.board_id

    @property
    def solvable(self) -> bool | None:
        """True when some start wins, False when every start is proved lost, None when a
        search ran out of its budget before deciding."""
        return self.solution.solvable

    @property
    def best(self) -> StartResult:
        """The board's best line: fewest turns, then fewest boost spaces."""
        return self.solution.best

    def describe(self, budget_name: str = "budget") -> list[str]:
        """The verdict, every start and the best line turn by turn, as
        ``cardgen rotator solve`` prints them; ``budget_name`` is what the reader calls
        the state budget."""
        return rotator().describe(self.board, self.solution, budget_name=budget_name)

    def record(self) -> dict[str, Any]:
        """The answer as JSON-ready data, as ``cardgen rotator solve --json`` gives it."""
        return rotator().solution_record(self.board, self.solution)


def solve_rotator(board: RotatorMap | str | Path | Mapping[str, Any], *,
                  budget: int = DEFAULT_BUDGET, quick: bool = False, jobs: int = 1,
                  progress: Progress | None = None) -> RotatorSolution:
    """Solve a board: is it winnable, from which starts, and its shortest winning line.

    Args:
        board: What :func:`rotator_board` takes.
        budget: The most states any one search may explore before it answers
            "undecided" (100 to 10,000,000).
        quick: For each start, any winning line instead of the shortest (the board's
            best line stays the shortest).
        jobs: Parallel processes searching the ten starts, at most the CPUs this
            process may use (more are cut down to those): the same answer.
        progress: Called with the starts solved so far, after each.

    Returns:
        The answer; ``solvable`` is False when every start is proved lost.

    Raises:
        BoardError, ConfigError, InputFileError: As :func:`rotator_board`.
        ParameterError: ``budget`` or ``jobs`` out of range.
        RuntimeFault: A worker process died.

    Example:
        >>> solve_rotator("R1:B2B8E4I2I8-B4E2E8H4I9").solvable
        True
    """
    whole_in_range(budget, "budget", MIN_BUDGET, MAX_BUDGET)
    workers, _ = usable_jobs(jobs)
    rmap = rotator_board(board)
    solution = rotator().solve(rmap, budget, shortest=not quick, jobs=workers,
                               progress=(lambda done: progress(done)) if progress else None)
    return RotatorSolution(rmap, solution, budget)


# --- generated books --------------------------------------------------------------------

@dataclass(frozen=True)
class RotatorGeneration:
    """Boards generated from a seed, proved winnable and graded, in book order (a mixed
    book ramps from its first grade to its last).

    Attributes:
        seed: The seed.
        grades: The grades asked for, in ramp order.
        wanted: How many boards were asked for.
        boards: The boards found: each with ``rmap`` (the board), ``grade``, ``best``
            (the par line) and ``figures``. Fewer than ``wanted`` when the tries ran out.
        candidates: How many maps were drawn and analysed.
        short: The grades of which fewer boards were found than wanted:
            (grade, found, wanted).
    """

    seed: int
    grades: tuple[Grade, ...]
    wanted: int
    boards: tuple[GradedBoard, ...]
    candidates: int
    short: tuple[tuple[Grade, int, int], ...]

    @property
    def complete(self) -> bool:
        """Whether every board asked for was found."""
        return len(self.boards) >= self.wanted

    @property
    def board_ids(self) -> tuple[str, ...]:
        """The boards' IDs, in book order."""
        return tuple(b.rmap.board_id for b in self.boards)

    def records(self) -> list[dict[str, Any]]:
        """Each board and its figures as JSON-ready data, as ``cardgen rotator generate
        --json`` lists them."""
        return [rotator().graded_record(b) for b in self.boards]


def _grades(value: str | Grade | Sequence[str | Grade] | None) -> tuple[Grade, ...]:
    if value is None:
        return tuple(Grade)
    parts: list[str | Grade]
    if isinstance(value, Grade):
        parts = [value]
    elif isinstance(value, str):
        parts = [part.strip() for part in value.split(",")]
    else:
        parts = list(value)
    grades = tuple(choice(Grade, part, "difficulty") for part in parts)
    twice = next((g for i, g in enumerate(grades) if g in grades[:i]), None)
    if twice is not None or not grades:
        raise ParameterError("difficulty", f"names {twice} twice; name each grade once, in "
                             "the order the book ramps, such as easy,hard." if twice else
                             "must name at least one grade.", value=value)
    return grades


def generate_rotator(seed: int = 1, count: int = 12,
                     difficulty: str | Grade | Sequence[str | Grade] | None = None, *,
                     budget: int = DEFAULT_BUDGET, tries: int | None = None,
                     jobs: int | None = None,
                     progress: Callable[[int, int], None] | None = None
                     ) -> RotatorGeneration:
    """New boards from a seed, proved winnable and graded, as ``cardgen rotator
    generate`` makes them (:func:`make_rotator_book` prints them).

    Args:
        seed: Any 64-bit integer; the same seed gives the same boards.
        count: How many boards (1 to 500).
        difficulty: ``"easy"``, ``"medium"`` or ``"hard"``, or several in the order the
            book ramps (``"easy,hard"`` or a sequence), in equal shares. Default: all
            three.
        budget: The most states any one search may explore (100 to 10,000,000).
        tries: The most maps to draw (default 60 per board asked; at most 1,000,000).
        jobs: Parallel processes (default and most: the CPUs this process may use). The
            boards and their order are the same for any ``jobs``.
        progress: Called with (maps tried, boards found) as the search goes.

    Returns:
        The boards found, in book order. When the tries run out first, fewer than
        ``count`` (``complete`` is False, ``short`` says of which grades).

    Raises:
        ParameterError: A value out of range, or a grade unknown or named twice.
        RuntimeFault: A worker process died.

    Example:
        >>> made = generate_rotator(seed=7, count=3, difficulty="easy")
        >>> made.complete, [b.grade.value for b in made.boards]
        (True, ['easy', 'easy', 'easy'])
    """
    grades = _grades(difficulty)
    whole_in_range(seed, "seed", *SEEDS)
    whole_in_range(count, "count", 1, MAX_COUNT)
    whole_in_range(budget, "budget", MIN_BUDGET, MAX_BUDGET)
    if tries is not None:
        whole_in_range(tries, "tries", 1, MAX_TRIES)
    workers, _ = usable_jobs(jobs)
    found = rotator().graded(seed, count, grades, budget=budget, tries=tries, jobs=workers,
                             progress=progress)
    return RotatorGeneration(seed, grades, count, tuple(found.boards), found.candidates,
                             tuple(found.short()))


@dataclass(frozen=True)
class RotatorBook:
    """A printed book of boards.

    Attributes:
        files: The book, ``NAME.pdf``.
        board_ids: The boards in it, in order.
    """

    files: Files
    board_ids: tuple[str, ...]


def _fonts() -> Any:
    from cardgen.text.fonts import bundled_fonts

    return bundled_fonts()


def make_rotator_book(generation: RotatorGeneration, *, size: str | PuzzleSize = "card",
                      keys: bool = True, rules: bool = True, paper: str | Paper = "a4",
                      name: str = "rotator") -> RotatorBook:
    """The puzzle book of generated boards as ``cardgen rotator generate`` prints it: the
    rules sheet, the boards with their grades, then the answer keys with the figures
    that would give the puzzles away.

    Args:
        generation: What :func:`generate_rotator` returned (it must hold a board).
        size: ``"card"``: card-sized boards, several per page; ``"large"``: one board per
            page, as large as it allows.
        keys: Answer keys after the boards.
        rules: The one-page rules sheet before the boards.
        paper: ``"a4"`` or ``"letter"``.
        name: The file's name without ``.pdf``.

    Returns:
        The book in ``files`` (``{name}.pdf``).

    Raises:
        ParameterError: An unknown size or paper, a bad name, or no board to print.

    Example:
        >>> book = make_rotator_book(generate_rotator(seed=7, count=2))
        >>> list(book.files)
        ['rotator.pdf']
    """
    from cardgen.api.files import Files
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.puzzlebook import PuzzleSize, puzzle_book
    from cardgen.render import Format, render
    from cardgen.rules.rotator import rules_sheet
    from cardgen.texts import say

    book_size = choice(PuzzleSize, size, "size")
    sheet = choice(Paper, paper, "paper")
    file_stem(name)
    if not generation.boards:
        raise ParameterError("generation", "holds no board to print.", value=generation)
    game = rotator()
    # Players see the grade only; the figures that give the puzzle away go on the keys.
    boards = [game.line_puzzle(b.rmap, b.best, b.grade.value, say(
        "rotator", "caption.graded", grade=b.grade.value,
        best=say("rotator", "caption.best", turns=plural(b.best.turns, "turn"),
                 boosts=plural(b.best.boosts, "boost")),
        needed=say("rotator", "caption.needed",
                   boosts=plural(b.figures.boosts_needed, "boost")),
        horizon=b.figures.horizon, opened=b.figures.open_moves,
        first=b.figures.first_moves)) for b in generation.boards]
    fonts = _fonts()
    document = puzzle_book(boards, size=book_size, keys=keys, paper=sheet, fonts=fonts,
                           title=say("rotator", "book.title_seeded", seed=generation.seed),
                           subject=say("rotator", "book.subject"),
                           front=rules_sheet(sheet, fonts) if rules else ())
    pdf = render(document, [Format.PDF])[".pdf"]
    return RotatorBook(Files({f"{name}.pdf": pdf}), generation.board_ids)


# --- printed boards ---------------------------------------------------------------------

@dataclass(frozen=True)
class RotatorBoards:
    """Boards printed as ``cardgen rotator print`` prints them.

    Attributes:
        files: ``NAME.pdf`` (every board), ``NAME.svg`` and ``NAME.png`` (one board).
        board_ids: The boards, in order.
        keys: With answer keys, each board's best line (or why there is none), in
            order; empty without.
    """

    files: Files
    board_ids: tuple[str, ...]
    keys: tuple[StartResult, ...] = ()


def make_rotator_boards(boards: RotatorMap | str | Path | Mapping[str, Any]
                        | Sequence[RotatorMap | str | Path | Mapping[str, Any]], *,
                        formats: str | Format | Iterable[str | Format] = "pdf",
                        size: str | PuzzleSize = "large", key: bool = False,
                        rules: bool = False, paper: str | Paper = "a4",
                        budget: int = DEFAULT_BUDGET, dpi: float = 300, name: str = "board",
                        progress: Progress | None = None) -> RotatorBoards:
    """Boards as PDF pages, or one board as SVG or PNG, with answer keys if asked.

    Args:
        boards: One board or several, each what :func:`rotator_board` takes.
        formats: ``"pdf"``, ``"svg"``, ``"png"``, several (``"pdf,png"`` or a list);
            SVG and PNG take one board.
        size: ``"large"``: as large as the page allows; ``"card"``: as on the card.
        key: Solve each board and draw its answer key too.
        rules: The one-page rules sheet before the boards (PDF only).
        paper: ``"a4"`` or ``"letter"``.
        budget: With ``key``: the most states the search for a key may explore.
        dpi: The PNG's resolution (36 to 1200).
        name: The files' name without suffix.
        progress: With ``key``: called with the boards solved so far, after each.

    Returns:
        The files, ``{name}.pdf`` first, and the answer keys' lines.

    Raises:
        BoardError, ConfigError, InputFileError: A board, as :func:`rotator_board`.
        ParameterError: An unknown format, size or paper; SVG or PNG for several boards;
            rules without PDF; a value out of range; a bad name.

    Example:
        >>> made = make_rotator_boards("R1:B2B8E4I2I8-B4E2E8H4I9", formats="pdf,svg")
        >>> list(made.files)
        ['board.pdf', 'board.svg']
    """
    from cardgen.api.files import Files
    from cardgen.draw.page import Document
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.puzzlebook import PuzzleSize, puzzle_book, single_page
    from cardgen.render import Format, render
    from cardgen.rules.rotator import rules_sheet
    from cardgen.texts import say

    wanted = format_list(formats)
    in_range(dpi, "dpi", 36, 1200)
    whole_in_range(budget, "budget", MIN_BUDGET, MAX_BUDGET)
    board_size = choice(PuzzleSize, size, "size")
    sheet = choice(Paper, paper, "paper")
    items = ([boards] if isinstance(boards, RotatorMap | str | Path | Mapping)
             else list(boards))
    if not items:
        raise ParameterError("boards", "must name at least one board.", value=boards)
    maps = [rotator_board(b) for b in items]
    file_stem(name)
    pictures = [f for f in wanted if f is not Format.PDF]
    if len(maps) > 1 and pictures:
        raise ParameterError("formats", "svg and png take one board; use pdf for several.",
                             value=formats)
    if rules and Format.PDF not in wanted:
        raise ParameterError("rules", "puts the rules sheet in the PDF; add pdf to formats.",
                             value=formats)
    game = rotator()
    bests: list[StartResult | None] = []
    for rmap in maps:
        bests.append(game.best_line(rmap, budget) if key else None)
        if key and progress is not None:
            progress(len(bests))
    printed = []
    for rmap, best in zip(maps, bests, strict=True):
        details = ""
        if best is not None:
            details = {Status.NONE: say("rotator", "caption.none"),
                       Status.UNDECIDED: say("rotator", "caption.undecided"),
                       Status.WIN: say("rotator", "caption.best",
                                       turns=plural(best.turns, "turn"),
                                       boosts=plural(best.boosts, "boost"))}[best.status]
        printed.append(game.line_puzzle(rmap, best, "", details))
    fonts = _fonts()
    files: dict[str, bytes] = {}
    if Format.PDF in wanted:
        document = puzzle_book(printed, size=board_size, keys=key, paper=sheet, fonts=fonts,
                               title=say("rotator", "book.title"),
                               subject=say("rotator", "book.subject"),
                               front=rules_sheet(sheet, fonts) if rules else ())
        files[f"{name}.pdf"] = render(document, [Format.PDF])[".pdf"]
    if pictures:
        page = single_page(printed[0], board_size, key=key, fonts=fonts)
        for end, data in render(Document([page]), pictures, dpi=dpi).items():
            files[f"{name}{end}"] = data
    return RotatorBoards(Files(files), tuple(m.board_id for m in maps),
                         tuple(b for b in bests if b is not None))


# --- play -------------------------------------------------------------------------------

def rotator_start(start: str | int) -> int:
    """The start column of a game: a column letter of grid A (``"E"``), a square of its
    Row 10 (``"A:E10"``, ``"E10"``) or the column's number on the board (0–9).

    Raises:
        ParameterError: Anything else (parameter ``start``).

    Example:
        >>> rotator_start("E"), rotator_start("A:E10"), rotator_start(5)
        (5, 5, 5)
    """
    from cardgen.board.cells import COLUMNS, WIDTH, Grid, board_cell, parse_cell
    from cardgen.errors import BoardError

    if isinstance(start, int) and not isinstance(start, bool):
        if 0 <= start < WIDTH:
            return start
        cell = None
    else:
        text = str(start)
        value = text.strip().upper()
        if len(value) == 1 and value in COLUMNS:
            return board_cell(Grid.A, COLUMNS.index(value), 10)[0]
        try:
            cell = parse_cell(value if ":" in value else f"A:{value}")
        except BoardError:
            cell = None
    if cell is None or cell[1] != 0:
        raise ParameterError("start", "must be a column letter A–J or a square of grid A's "
                             f"Row 10 such as A:E10, not {shorten(str(start))}.", value=start)
    return cell[0]


def play_rotator(board: RotatorMap | str | Path | Mapping[str, Any],
                 start: str | int | None = None) -> Session:
    """A game to play move by move, as ``cardgen rotator play`` plays it, with undo and
    hints (the model behind the terminal, with no input or output of its own).

    Args:
        board: What :func:`rotator_board` takes.
        start: The start column, as :func:`rotator_start` reads it; None to choose it
            as the first decision.

    Returns:
        The session: ``phase`` says what it waits for; ``options()`` the choices of a
        turn, each with the turn it would play; ``play(option)``, ``choose_start(x)``,
        ``pick(cell)`` and ``undo()`` decide; ``hint()`` asks the solver.

    Raises:
        BoardError, ConfigError, InputFileError: As :func:`rotator_board`.
        ParameterError: A start that is not a column of grid A's Row 10.

    Example:
        >>> game = play_rotator("R1:B2B8E4I2I8-B4E2E8H4I9", start="E")
        >>> game.phase.value, len(game.options()) > 0
        ('move', True)
    """
    column = rotator_start(start) if start is not None else None
    return rotator().session(rotator_board(board), column)


def rotator_game() -> RotatorGame:
    """Rotator's referee in python-chess's words, with immutable positions.

    Returns:
        The game: ``initial(board)`` the position before the start column is chosen;
        ``legal_moves(position)`` a :class:`StartColumn` for each column first, then
        each turn's drill-and-boost :class:`Choice`; ``push(position, move)`` the next
        position (an illegal move raises a ``ValueError``); ``outcome(position)`` an
        :class:`Outcome` once won (``"goal"``) or lost (``"collapse"``), else None.

    Example:
        >>> game = rotator_game()
        >>> position = game.initial(rotator_board("R1:B2B8E4I2I8-B4E2E8H4I9"))
        >>> position = game.push(position, game.legal_moves(position)[4])
        >>> game.outcome(position) is None
        True
    """
    return rotator()


# --- play, as data for a view -----------------------------------------------------------

# How many quarter turns clockwise the card lies turned in a turn of this gravity: the
# turn that brings "down" to point at the player, as the rules' figure shows it.
_QUARTER_TURNS = {(0, 1): 0, (1, 0): 1, (0, -1): 2, (-1, 0): 3}


def _choice_words(choice: Choice) -> str:
    from cardgen.texts import say

    if not choice.drill:
        return say("rotator_play", "choice.fall")
    if not choice.boost:
        return say("rotator_play", "choice.drill")
    return say("rotator_play", "choice.boost", count=choice.boost)


def _move_record(session: Session, n: int, choice: Choice, report: TurnReport
                 ) -> dict[str, Any]:
    """One choice of a turn and what it would do: words, and the squares it passes."""
    from cardgen.board.cells import card_name
    from cardgen.texts import say

    nodes = session.rmap.nodes
    steps: list[dict[str, Any]] = []

    def step(cells: Iterable[Cell], how: str) -> None:
        steps.extend({"cell": list(c), "name": card_name(c), "how": how} for c in cells)

    step(report.fall, "fall")
    if report.drill is not None:
        step([report.drill], "drill")
    step(report.boosted, "boost")
    step(report.fall_after, "fall")
    text = turn_text(report, nodes).split(": ", 1)[1]
    to = say("rotator_play", "screen.to", cell=card_name(report.end))
    if report.won:
        short = say("rotator_play", "screen.won", to=to)
    elif report.lost:
        short = say("rotator_play", "screen.lost", to=to)
    elif report.captured is not None:
        short = say("rotator_play", "screen.captures", to=to,
                    node=card_name(nodes[report.captured]))
    else:
        short = to
        text = say("rotator_play", "choice.ends", outcome=text, cell=card_name(report.end))
    return {
        "n": n, "kind": "move", "words": _choice_words(choice), "outcome": text,
        "short": short, "drill": choice.drill, "boost": choice.boost, "steps": steps,
        "end": list(report.end), "end_name": card_name(report.end),
        "captures": None if report.captured is None else card_name(nodes[report.captured]),
        "opens": [list(c) for c in report.captured_cells],
        "won": report.won, "lost": report.lost,
    }


def rotator_play_record(session: Session) -> dict[str, Any]:
    """A game in progress as JSON-ready data: everything a view needs to draw the board
    and offer the choices (the studio's Rotator page draws it; the words are those of
    ``cardgen rotator play``), with no rule left for the view to apply.

    The keys:

    * ``board_id``; ``phase``: ``"start"``, ``"pick"``, ``"move"``, ``"won"`` or
      ``"lost"``; ``turn``: the turn about to be played, or the one the game ended in;
      ``status``: that turn and gravity in words.
    * ``gravity``: ``way``, ``arrow``, ``words``, ``step`` (where a fall goes next, as
      dx and dy) and ``quarter_turns`` (how far the card lies turned clockwise).
    * ``boosts_left`` of ``boost_cache``, and ``boosts`` in words.
    * ``cells``: 20 rows (y = 0 is grid A's Row 10) of 10 squares, each with its
      ``name`` in card notation, ``rock``, ``node`` (the index of the Node centred
      there, or None), ``territory`` (the Node whose diamond holds it), ``touched`` (the
      turn that touched it, or None), ``fills`` (the turn at whose collapse step it fills
      in), ``due`` (it fills in this turn) and ``title`` (all that in words).
    * ``columns`` (each grid's column letters by x), ``rows`` (row numbers by y),
      ``nodes`` (``cell``, ``name``, ``active``), ``you`` (``cell`` and ``name``, or
      None before the start).
    * ``fills``, ``fills_under`` and ``touched``: what fills in this turn, and the open
      squares by turn, in words.
    * ``question`` and ``options``: each choice with ``n`` (from 1, as
      :func:`rotator_decide` takes it), ``kind`` (``"start"``, ``"pick"`` or
      ``"move"``) and ``words``; a square's ``cell`` and ``name``; a move's ``outcome``,
      ``short``, ``steps`` (each square it passes: ``cell``, ``name``, ``how``: fall,
      drill or boost), ``end``, ``captures``, ``opens``, ``won`` and ``lost``.
    * ``last`` (the last turn in words), ``log`` (``start`` and ``turns``), ``verdict``
      (None, or ``won``, ``text``, ``why`` and ``after``) and ``can_undo``.

    Args:
        session: The game, from :func:`play_rotator`.

    Returns:
        The game as a dict of the keys above, ready for ``json.dumps``.

    Example:
        >>> game = play_rotator("R1:B2B8E4I2I8-B4E2E8H4I9")
        >>> record = rotator_play_record(game)
        >>> record["phase"], len(record["options"]), record["you"] is None
        ('start', 10, True)
    """
    from cardgen.board.cells import COLUMNS, HEIGHT, WIDTH, card_name
    from cardgen.games.rotator.engine import COLLAPSE_AFTER
    from cardgen.texts import lookup, say

    rmap, state, phase = session.rmap, session.state, session.phase
    over = phase in (Phase.WON, Phase.LOST)
    last = session.log[-1] if session.log else None
    turn = last.turn if over and last is not None else (state.turn if state else 1)
    way = gravity(turn)
    words = str(lookup("rotator_play", "gravity")[GRAVITY_WORDS[way]])
    solid = state.solid if state is not None else rmap.solid
    touched = state.touch_turns() if state is not None else {}
    due = set() if over else set(session.fills_in())
    territory = {cell: i for i, area in enumerate(rmap.territories) for cell in area}
    centres = {cell: i for i, cell in enumerate(rmap.nodes)}

    def square(cell: Cell) -> dict[str, Any]:
        when = touched.get(cell)
        name = card_name(cell)
        title = name
        if when is not None:
            title = (say("rotator_studio", "touched.fills_now", cell=name, touched=when)
                     if cell in due else
                     say("rotator_studio", "touched.cell", cell=name, touched=when,
                         fills=when + COLLAPSE_AFTER))
        return {"name": name, "rock": cell in solid, "node": centres.get(cell),
                "territory": territory.get(cell), "touched": when,
                "fills": None if when is None else when + COLLAPSE_AFTER,
                "due": cell in due, "title": title}

    you = None
    if state is not None:
        here = session.picked or state.pos
        you = {"cell": list(here), "name": card_name(here)}
    options: list[dict[str, Any]] = []
    question = None
    if phase is Phase.MOVE:
        question = say("rotator_studio", "ask.move")
        options = [_move_record(session, n, o.choice, o.report)
                   for n, o in enumerate(session.options(), 1)]
    elif phase in (Phase.START, Phase.PICK):
        if phase is Phase.START:
            question = say("rotator_studio", "ask.start")
        else:
            assert state is not None and state.choose_from is not None
            question = say("rotator_studio", "ask.pick",
                           node=card_name(rmap.nodes[state.choose_from]))
        for n, cell in enumerate(session.start_cells(), 1):
            name = card_name(cell)
            wins = phase is Phase.PICK and cell[1] == HEIGHT - 1
            said = (say("rotator_studio", "option.start", cell=name)
                    if phase is Phase.START else
                    say("rotator_studio", "option.pick_wins", cell=name) if wins else
                    say("rotator_studio", "option.pick", cell=name))
            options.append({"n": n, "kind": phase.value, "cell": list(cell), "name": name,
                            "words": said, "won": wins})
    fills = fills_under = None
    if state is not None and not over:
        if due:
            fills = say("rotator_play", "screen.fills", turn=state.turn - COLLAPSE_AFTER,
                        cells=" ".join(card_name(c) for c in sorted(due, key=sort_key)))
            if state.pos in due and phase is Phase.MOVE:
                fills_under = say("rotator_play", "touch.fills_under")
        else:
            fills = say("rotator_play", "touch.nothing")
    by_turn: dict[int, list[str]] = {}
    for cell, when in sorted(touched.items(), key=lambda ct: (ct[1], sort_key(ct[0]))):
        by_turn.setdefault(when, []).append(card_name(cell))
    touched_text = (say("rotator_play", "touch.list", turns="; ".join(
        say("rotator_play", "touch.turn", turn=t, cells=" ".join(cells))
        for t, cells in by_turn.items())) if by_turn else say("rotator_play", "touch.none"))
    verdict = None
    if over and last is not None:
        if last.won:
            text = say("rotator_studio", "end.won", turn=last.turn,
                       cell=card_name(last.end), boosts=BOOST_CACHE - session.boosts_left)
        else:
            text = say("rotator_studio", "end.lost", turn=last.turn,
                       cell=card_name(last.end), touched=last.turn - COLLAPSE_AFTER)
        verdict = {"won": last.won, "text": text, "why": turn_text(last, rmap.nodes),
                   "after": say("rotator_studio", "end.after")}
    return {
        "board_id": rmap.board_id,
        "phase": phase.value,
        "turn": turn,
        "status": say("rotator_play", "screen.turn", turn=turn, arrow=ARROWS[way],
                      words=words),
        "gravity": {"way": GRAVITY_WORDS[way], "arrow": ARROWS[way], "words": words,
                    "quarter_turns": _QUARTER_TURNS[way], "step": list(way)},
        "boosts_left": session.boosts_left,
        "boosts": say("rotator_play", "screen.boosts", boosts=session.boosts_left),
        "boost_cache": BOOST_CACHE,
        "cells": [[square((x, y)) for x in range(WIDTH)] for y in range(HEIGHT)],
        "columns": {"A": [COLUMNS[WIDTH - 1 - x] for x in range(WIDTH)],
                    "B": list(COLUMNS[:WIDTH])},
        "rows": [card_name((0, y), with_grid=False)[1:] for y in range(HEIGHT)],
        "nodes": [{"cell": list(c), "name": card_name(c), "active": c in solid}
                  for c in rmap.nodes],
        "you": you,
        "fills": fills,
        "fills_under": fills_under,
        "touched": touched_text,
        "question": question,
        "options": options,
        "last": turn_text(last, rmap.nodes) if last is not None else None,
        "log": {"start": (say("rotator_play", "log.start", cell=card_name((session.start, 0)))
                          if session.start is not None else say("rotator_play", "log.empty")),
                "turns": [turn_text(r, rmap.nodes) for r in session.log]},
        "verdict": verdict,
        "can_undo": session.can_undo,
    }


def rotator_decide(session: Session, option: int) -> TurnReport | None:
    """Take choice number ``option`` of :func:`rotator_play_record`'s ``options`` (from
    1, as ``cardgen rotator play`` numbers them): stand on a start square, pick one after
    a capture, or play a turn.

    Args:
        session: The game, from :func:`play_rotator`.
        option: The choice's number.

    Returns:
        The turn played, or None when only a square was chosen.

    Raises:
        ParameterError: ``option`` is not a whole number from 1 to the count of
            choices, or the game is over (parameter ``option``).

    Example:
        >>> game = play_rotator("R1:B2B8E4I2I8-B4E2E8H4I9")
        >>> rotator_decide(game, 5) is None, game.phase.value
        (True, 'move')
    """
    phase = session.phase
    if phase in (Phase.WON, Phase.LOST):
        raise ParameterError("option", "cannot be taken: the game is over; undo the last "
                             "turn or start a new game.", value=option)
    moves = session.options() if phase is Phase.MOVE else []
    cells = session.start_cells() if not moves else []
    count = len(moves) or len(cells)
    if isinstance(option, bool) or not isinstance(option, int) or not 1 <= option <= count:
        shown = (number(option) if isinstance(option, int) and not isinstance(option, bool)
                 else quoted(option))
        raise ParameterError("option", f"must be a whole number from 1 to {count}, not "
                             f"{shown}.", value=option)
    if moves:
        return session.play(moves[option - 1])
    if phase is Phase.START:
        session.choose_start(cells[option - 1][0])
        return None
    return session.pick(cells[option - 1])


def rotator_hint_record(session: Session, budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    """The solver's hint from where the game stands, as JSON-ready data: the words
    ``cardgen rotator play`` says for ``h``, and the number of the choice it advises.

    Args:
        session: The game, from :func:`play_rotator`.
        budget: The most states the search may explore (100 to 10,000,000).

    Returns:
        ``status`` (``"win"``, ``"lost"``, ``"undecided"`` or ``"over"``), ``text``, and
        ``option``: the number of the advised choice in :func:`rotator_play_record`'s
        ``options``, or None.

    Raises:
        ParameterError: ``budget`` out of range.

    Example:
        >>> game = play_rotator("R1:B2B8E4I2I8-B4E2E8H4I9")
        >>> hint = rotator_hint_record(game)
        >>> hint["status"], hint["option"]
        ('win', 5)
    """
    from cardgen.board.cells import card_name
    from cardgen.texts import say

    whole_in_range(budget, "budget", MIN_BUDGET, MAX_BUDGET)
    phase = session.phase
    if phase in (Phase.WON, Phase.LOST):
        return {"status": "over", "text": say("rotator_play", "hint.over"), "option": None}
    hint: Hint = session.hint(budget)
    if hint.status is HintStatus.LOST:
        return {"status": "lost", "text": say("rotator_play", "hint.lost"), "option": None}
    if hint.status is HintStatus.UNDECIDED:
        return {"status": "undecided", "option": None,
                "text": say("rotator_play", "hint.undecided", states=f"{hint.states:,}")}
    assert hint.choice is not None
    turns, boosts = plural(hint.turns, "turn"), plural(hint.boosts, "boost space")
    option = None
    if hint.start is not None:
        text = say("rotator_play", "hint.start", cell=card_name((hint.start, 0)),
                   turns=turns, boosts=boosts)
        option = session.start_cells().index((hint.start, 0)) + 1
    elif phase is Phase.PICK and hint.choice.start is not None:
        text = say("rotator_play", "hint.pick", cell=card_name(hint.choice.start),
                   choice=_choice_words(hint.choice), turns=turns, boosts=boosts)
        option = session.start_cells().index(hint.choice.start) + 1
    else:
        text = say("rotator_play", "hint.move", choice=_choice_words(hint.choice),
                   turns=turns, boosts=boosts)
        choices = [o.choice for o in session.options()]
        option = choices.index(hint.choice) + 1 if hint.choice in choices else None
    return {"status": "win", "text": text, "option": option}
