"""Team cards: what a card costs in ``cardgen card --batch`` and ``cardgen sheet
--batch``, warm and cold.

    python benchmarks/bench_team.py [--people 100] [--cold 8]

A studio of ``--people`` people (a shared config with a logo, the company and the web
site; a row per person with name, title, e-mail, phone and, for every fifth, an ability)
is printed three ways, in this run:

- **batch**: ``cardgen card --batch people.csv studio.toml -f pdf`` in this process:
  every card laid out, rendered and written as one set. Per card, warm: fonts, the card
  layout, the Connector's layout and the logo are read once for all.
- **one run per person, warm**: ``cardgen card person.toml --name STEM -f pdf`` once per
  person, in this process (what a script calling cardgen as a library does). The
  module-level caches stay warm, so this shows what the batch itself adds or saves.
- **one process per person, cold** (the baseline): the same command as a new process for
  ``--cold`` of the people (what a shell loop does): each pays Python's start, the
  imports and reading the fonts again.

Then ``cardgen sheet --batch`` for the same people, per card. The ratio is the cold
baseline's time per card over the batch's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TITLES = ["Game Designer", "Producer", "Artist", "CEO", "Writer", "Illustrator",
          "QA Tester", "Freelance Writer", "Art Director", "Journalist"]
STUDIO = """\
[card]
theme = "dark"

[person]
company = "Paper Lantern Games"
web = "paperlantern.example"
tagline = "Small games for big tables."

[images]
logo = "logo.png"
"""


def person(i: int) -> dict[str, str]:
    return {"name": f"Person {i:03d}", "title": TITLES[i % len(TITLES)],
            "email": f"p{i}@paperlantern.example", "phone": f"+44 20 7946 {1000 + i}",
            "ability": "Look at the top card of the deck." if i % 5 == 0 else ""}


def write_studio(folder: Path, people: int) -> tuple[Path, Path]:
    shutil.copy(ROOT / "tests" / "data" / "logo.png", folder / "logo.png")
    (folder / "studio.toml").write_text(STUDIO, encoding="utf-8")
    lines = ["person.name,person.title,person.email,person.phone,ladder.ability"]
    for i in range(people):
        p = person(i)
        lines.append(f'{p["name"]},{p["title"]},{p["email"]},{p["phone"]},"{p["ability"]}"')
    (folder / "people.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "people.csv", folder / "studio.toml"


def person_config(folder: Path, i: int) -> Path:
    p = person(i)
    text = STUDIO.replace("[person]\n", f'[person]\nname = "{p["name"]}"\n'
                          f'title = "{p["title"]}"\nemail = "{p["email"]}"\n'
                          f'phone = "{p["phone"]}"\n')
    if p["ability"]:
        text += f'\n[ladder]\nability = "{p["ability"]}"\n'
    path = folder / f"person-{i:03d}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def quiet_run(args: list[str]) -> None:
    from cardgen.cli import run

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = run(args)
    if code != 0:
        raise SystemExit(f"cardgen {' '.join(args)} failed ({code})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--cold", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table, studio = write_studio(folder, args.people)
        configs = [person_config(folder, i) for i in range(args.people)]

        start = time.perf_counter()
        quiet_run(["card", "--batch", str(table), str(studio), "-o", str(folder / "batch"),
                   "-f", "pdf"])
        batch = (time.perf_counter() - start) / args.people

        start = time.perf_counter()
        for i, config in enumerate(configs):
            quiet_run(["card", str(config), "-o", str(folder / "loop"), "--name", f"p{i}",
                       "-f", "pdf"])
        loop = (time.perf_counter() - start) / args.people

        cold_times = []
        for i, config in enumerate(configs[:args.cold]):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "cardgen", "card", str(config), "-o",
                            str(folder / "cold"), "--name", f"p{i}", "-f", "pdf"],
                           check=True, capture_output=True)
            cold_times.append(time.perf_counter() - start)
        cold = statistics.median(cold_times)

        start = time.perf_counter()
        quiet_run(["sheet", "--batch", str(table), str(studio), "-o", str(folder / "sheet")])
        sheet = (time.perf_counter() - start) / args.people

    print(f"Team cards: {args.people} people, PDF only (eu, dark theme, a shared logo)")
    print(f"{'how':44} {'ms per card':>12} {'ratio':>7}")
    rows = [("one process per person, cold (baseline)", cold),
            ("one run per person in this process, warm", loop),
            ("cardgen card --batch", batch),
            ("cardgen sheet --batch", sheet)]
    for how, seconds in rows:
        print(f"{how:44} {seconds * 1000:12.0f} {cold / seconds:6.1f}×")
    print(f"(the cold baseline is the median of {len(cold_times)} processes)")


if __name__ == "__main__":
    main()
