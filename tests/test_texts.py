"""Product text is data (templates/texts): every text the code asks for exists, its
placeholders are exactly the values the code fills in, and no sentence is copied from
the seed documents."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from cardgen.errors import ConfigError
from cardgen.games.names import NODE_GAMES, GameName
from cardgen.games.nodes.figures import KEY_ORDER, Sample
from cardgen.games.nodes.tables import bundled
from cardgen.ladder.figures import PlaceState
from cardgen.physical.card import Side
from cardgen.texts import lookup, placeholders, say, say_lines, text_file, texts
from tests.helpers import ROOT, syntax_nodes

GROUPS = sorted(p.stem for p in (ROOT / "templates" / "texts").glob("*.toml"))
# Keys the code builds at run time, with every value they can take.
DYNAMIC = {("card", "slug.{side}"): [f"slug.{side}" for side in Side],
           ("card", "slug.{what or side}"): [*(f"slug.{side}" for side in Side), "slug.varnish"],
           ("rules", "credit.{game}"): [f"credit.{game}" for game in GameName],
           ("ladder_print", "figure.{state}"): [
               f"figure.{state}" for state in PlaceState if state is not PlaceState.BLANK],
           ("playsheet", "games.{game.value}"): [f"games.{game}" for game in NODE_GAMES],
           ("playsheet", "tables.names.{arr.name}"): [
               f"tables.names.{name}" for name, arr in bundled().items()
               if arr.game.value != "reflector"],
           ("tables", "legend.{kind}"): [f"legend.{kind}" for kind in Sample],
           ("tables", "example.key.{kind}"): [f"example.key.{kind}" for kind in KEY_ORDER]}
SEEDS = ROOT.parent / "shared" / "seeds"


def _calls() -> list[tuple[Path, int, str, str, str, set[str]]]:
    """Every call of say/say_lines/lookup in cardgen: (file, line, function, group, key,
    keyword names passed)."""
    found = []
    for path in sorted((ROOT / "cardgen").rglob("*.py")):
        if path.name == "texts.py":
            continue  # the module that defines them
        source = path.read_text(encoding="utf-8")
        if "say" not in source and "lookup" not in source:
            continue  # cannot call them by name (saves parsing most modules, twice a run)
        for node in syntax_nodes(path):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("say", "say_lines", "lookup")):
                continue
            group, key = node.args[0], node.args[1]
            assert isinstance(group, ast.Constant), f"{path}:{node.lineno}: group not literal"
            if isinstance(key, ast.Constant):
                key_text = key.value
            else:
                assert isinstance(key, ast.JoinedStr), f"{path}:{node.lineno}"
                key_text = "".join(v.value if isinstance(v, ast.Constant) else
                                   "{" + ast.unparse(v.value) + "}" for v in key.values)
            names = {k.arg for k in node.keywords if k.arg}
            found.append((path, node.lineno, node.func.id, group.value, key_text, names))
    return found


CALLS = _calls()


def test_the_code_asks_for_texts():
    assert len(CALLS) > 20
    assert {group for _, _, _, group, _, _ in CALLS} == set(GROUPS)


@pytest.mark.parametrize("path,line,function,group,key,names", CALLS,
                         ids=[f"{p.name}:{n}" for p, n, *_ in CALLS])
def test_every_text_the_code_asks_for_exists_with_exactly_its_placeholders(
        path, line, function, group, key, names):
    keys = DYNAMIC.get((group, key), [key])
    assert "{" not in "".join(keys), f"{path}:{line}: list the dynamic key in DYNAMIC"
    for k in keys:
        value = lookup(group, k)
        if function == "lookup":
            continue
        templates = value if function == "say_lines" else [value]
        assert all(isinstance(t, str) for t in templates), (group, k)
        used = {name for t in templates for name in placeholders(t)}
        assert used == names, f"{path}:{line}: {group}.{k} uses {used}, the code fills {names}"


@pytest.mark.parametrize("group", GROUPS)
def test_every_text_file_loads_and_every_text_is_used(group):
    data = texts(group)
    asked = {k for _, _, _, g, key, _ in CALLS if g == group
             for k in DYNAMIC.get((g, key), [key])}

    def leaves(value, prefix=""):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from leaves(v, f"{prefix}.{k}" if prefix else k)
        else:
            yield prefix

    unused = [key for key in leaves(data)
              if not any(key == a or key.startswith(a + ".") for a in asked)]
    assert not unused, f"{text_file(group).name}: texts nothing prints: {unused}"


def test_filling_texts_and_what_goes_wrong():
    assert say("prepress", "registration.caption", version="1", side=2) == (
        "cardgen 1 · registration test · side 2")
    assert say_lines("prepress", "registration.front", flip="long", paper="A4")[1] == (
        "Print both pages double-sided (flip on the long edge) at 100 % on A4.")
    with pytest.raises(ConfigError, match=r"card\.toml: has no text back\.nothing\."):
        say("card", "back.nothing")
    with pytest.raises(ConfigError, match=r"registration\.caption uses \{version\}"):
        say("prepress", "registration.caption", side=1)
    with pytest.raises(ConfigError, match="is not a single text"):
        say("card", "games")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not next to the repo")
def test_no_printed_text_copies_the_seed_documents():
    """SPEC: every sentence the project prints is in its own words. No run of eight words
    of any product text appears in a seed document."""
    seed_text = " ".join(" ".join(_words(p.read_text(encoding="utf-8", errors="replace")))
                         for p in sorted(SEEDS.glob("*.txt")))
    run = 8
    for group in GROUPS:
        for line in (ROOT / "templates" / "texts" / f"{group}.toml").read_text(
                encoding="utf-8").splitlines():
            words = _words(line.split("=", 1)[-1])
            for i in range(len(words) - run + 1):
                chunk = " ".join(words[i:i + run])
                assert f" {chunk} " not in f" {seed_text} ", f"{group}: {chunk!r} is a seed's"
