"""Problem codes beside the sentences (issue 23, point 7): every problem of a
ProblemsError is a Problem, its sentence unchanged and a code of its domain's enum, so
that callers and tests tell kinds of problem apart without matching words; a fault of
the run (a dead worker, a full disk) is a RuntimeFault, never a ValueError."""

from __future__ import annotations

import enum
import pickle

import pytest

from cardgen.connector.validate import AssemblyProblem
from cardgen.errors import (
    BoardError,
    BoardProblem,
    CardgenError,
    Code,
    ConfigError,
    ConfigProblem,
    GeneralProblem,
    Problem,
    ProblemsError,
    RuntimeFault,
    one_line,
)
from cardgen.games.nodes.recordfile import RecordProblem
from cardgen.ladder.deck import DeckProblem
from cardgen.rules.markup import MarkupError, MarkupProblem, parse
from cardgen.schema import Choice, ListOf, Number, Table, Text, check
from tests.helpers import cli, error_line, write_config

DOMAINS: tuple[type[Code], ...] = (GeneralProblem, ConfigProblem, BoardProblem,
                                   MarkupProblem, DeckProblem, AssemblyProblem,
                                   RecordProblem)


def test_every_code_is_named_by_its_domain_once():
    """A code's value is ``domain.kind`` (what --json shows), unique across domains."""
    values = [code.value for domain in DOMAINS for code in domain]
    assert len(values) == len(set(values))
    for domain in DOMAINS:
        assert issubclass(domain, Code) and issubclass(domain, enum.StrEnum)
        prefixes = {code.value.split(".")[0] for code in domain}
        assert len(prefixes) == 1, domain
        assert all(code.value.split(".")[1] for code in domain)


def test_a_problem_is_its_sentence_with_a_code():
    problem = Problem("grid A has 4 Nodes.", BoardProblem.NODE_COUNT)
    assert problem == problem.message == "grid A has 4 Nodes." and isinstance(problem, str)
    assert problem.code is BoardProblem.NODE_COUNT
    assert problem.reworded("board: " + problem).code is BoardProblem.NODE_COUNT
    copied = pickle.loads(pickle.dumps(problem))  # as it crosses a worker's pipe
    assert copied == problem and copied.code is BoardProblem.NODE_COUNT


def test_problems_error_keeps_each_code_and_its_sentences():
    error = ConfigError("f.toml", ["plain\nsentence.",
                                   Problem("x is missing.", ConfigProblem.MISSING)],
                        value={"x": 1})
    assert isinstance(error, ValueError) and isinstance(error, CardgenError)
    assert error.value == {"x": 1}
    assert error.problems == (one_line("plain\nsentence."), "x is missing.")
    assert error.codes == (ConfigProblem.INVALID, ConfigProblem.MISSING)  # the default
    assert str(error) == "f.toml: plain\\nsentence. Also: x is missing."
    given = ConfigError("f.toml", ["a.", Problem("b.", ConfigProblem.RETIRED)],
                        code=ConfigProblem.UNREADABLE)
    assert given.codes == (ConfigProblem.UNREADABLE, ConfigProblem.RETIRED)
    assert ProblemsError("", ["a."]).codes == (GeneralProblem.INVALID,)
    assert BoardError("", ["a."]).codes == (BoardProblem.PLACEMENT,)


SCHEMA = Table({"card": Table({
    "name": Text(nonempty=True, max_length=5, printed=True, default="x"),
    "size": Number(low=1, high=9, default=1),
    "kind": Choice(ConfigProblem, default=ConfigProblem.INVALID),
    "tags": ListOf(Text(), min_items=2, default=[]),
    "need": Number(),
})})


@pytest.mark.parametrize(("card", "code"), [
    ({"nope": 1}, ConfigProblem.UNKNOWN_KEY),
    ({"size": "big"}, ConfigProblem.WRONG_TYPE),
    ({"size": 10}, ConfigProblem.OUT_OF_RANGE),
    ({"size": float("nan")}, ConfigProblem.OUT_OF_RANGE),
    ({"kind": "config.nothing"}, ConfigProblem.NOT_A_CHOICE),
    ({"name": "far too long"}, ConfigProblem.TOO_LONG),
    ({"name": "a\x07b"}, ConfigProblem.BAD_CHARACTER),
    ({"name": ""}, ConfigProblem.MISSING),
    ({"tags": ["one"]}, ConfigProblem.ITEM_COUNT),
    ({"tags": ["one", 2]}, ConfigProblem.WRONG_TYPE),  # an item's code, kept
])
def test_schema_problems_have_their_codes(card, code):
    with pytest.raises(ConfigError) as caught:
        check(SCHEMA, {"card": {"need": 1, **card}}, "x.toml")
    assert caught.value.codes == (code,), caught.value.problems


def test_missing_keys_and_unknown_sections_have_their_codes():
    with pytest.raises(ConfigError) as caught:
        check(SCHEMA, {"card": {}, "cards": {}}, "x.toml")
    assert caught.value.codes == (ConfigProblem.MISSING, ConfigProblem.UNKNOWN_SECTION)
    # The sentences say it in words, unchanged (they are what the user reads).
    assert caught.value.problems[0] == "card.need is missing (a number)."
    assert caught.value.problems[1].startswith("unknown section [cards]; did you mean [card]?")


def test_a_card_config_problem_at_the_command_line_is_the_same_sentence(tmp_path):
    config = write_config(tmp_path, '[person]\nname = "Ada"\nmail = "a@b.c"\n')
    line = error_line(cli("card", config, "-o", tmp_path / "out"), "unknown key person.mail")
    with pytest.raises(ConfigError) as caught:
        from cardgen.card.config import load_config

        load_config(config)
    assert caught.value.codes == (ConfigProblem.UNKNOWN_KEY,)
    assert line.endswith(caught.value.problems[0])


@pytest.mark.parametrize(("text", "code"), [
    ("# G\n\nsome **bold\n", MarkupProblem.BOLD),
    ("# G\n\n#### deep\n\nText.\n", MarkupProblem.HEADING),
    ("# G\n\n- item\n  - nested\n", MarkupProblem.BULLET),
    ("# G\n\n- item\nparagraph\n", MarkupProblem.PARAGRAPH),
    ("# G\n\nplain\n  two spaces\n", MarkupProblem.INDENT),
    ("# G\n\n- \n", MarkupProblem.LINE),  # how a line starts: not the markup's
    ("# G\n\nuse `code`\n", MarkupProblem.LINE),
    ("# G\n\n## Nothing\n", MarkupProblem.EMPTY),
    ("# G\n\n| a |\n| b |\n", MarkupProblem.TABLE),
    ("# G\n\nA \x07 bell.\n", MarkupProblem.CHARACTER),
])
def test_markup_problems_have_their_codes(text, code):
    with pytest.raises(MarkupError) as caught:
        parse(text, "rules/x.md")
    assert code in caught.value.codes, caught.value.problems


def test_a_runtime_fault_is_not_bad_input():
    fault = RuntimeFault("a worker process stopped.", value=3)
    assert not isinstance(fault, ValueError) and not isinstance(fault, CardgenError)
    assert str(fault) == "a worker process stopped." and fault.value == 3
    assert str(RuntimeFault("a\nb")) == "a\\nb"  # one line, like every message


def test_a_broken_pipe_ends_quietly_with_its_own_status():
    """The reader of the output went away (``| head``): nothing to say, exit 141 (as a
    shell reports a command that SIGPIPE stopped), not the fault status 3."""
    import contextlib
    import io

    from cardgen.cli import run

    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError

    err = io.StringIO()
    with contextlib.redirect_stdout(Gone()), contextlib.redirect_stderr(err):
        status = run(["ladder", "deck"])
    assert status == 141 and err.getvalue() == ""
