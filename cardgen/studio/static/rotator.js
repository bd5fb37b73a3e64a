// The studio's Rotator page. It draws what the server sends (cardgen.api's
// rotator_play_record: the board, the choices and what each would do, the verdict) and
// sends what the player did: a choice's number, undo, hint. No rule of the game is here.
import { api, showError } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const U = 28; // a square, in the board's SVG units
const FOLD = 10; // grid B starts at y = 10
const GAP = 0.35 * U; // the fold between the grids
const LEFT = 1.3 * U; // room for the row numbers
const TOP = 1.6 * U; // room for grid A's words and letters
const WIDTH = 10;
const HEIGHT = 20;

const $ = (id) => document.getElementById(id);
const el = {
  svg: $("rot-svg"), form: $("rot-new"), boardId: $("rot-board-id"), seed: $("rot-seed"),
  difficulty: $("rot-difficulty"), error: $("rot-error"), game: $("rot-game"),
  title: $("rot-title"), status: $("rot-status"), card: $("rot-card"),
  cardLabel: $("rot-card-label"), boostText: $("rot-boost-text"), tally: $("rot-tally"),
  fills: $("rot-fills"), verdict: $("rot-verdict"),
  verdictText: $("rot-verdict-text"), verdictWhy: $("rot-verdict-why"),
  verdictAfter: $("rot-verdict-after"), question: $("rot-question"),
  options: $("rot-options"), undo: $("rot-undo"), hint: $("rot-hint"),
  again: $("rot-again"), say: $("rot-say"), logStart: $("rot-log-start"),
  log: $("rot-log"), touched: $("rot-touched"),
};

let game = null; // {game, version, state}
let hinted = null; // the number of the option a hint advises, at this version
let busy = false;

// --- talking to the server ----------------------------------------------------------

function clearError() {
  showError(el.error, null);
}

function say(text) {
  // Re-set so that the same words are announced again.
  el.say.textContent = "";
  window.setTimeout(() => { el.say.textContent = text; }, 30);
}

async function send(path, body) {
  if (busy) return null;
  busy = true;
  document.body.classList.add("rot-busy");
  try {
    const answer = await api(path, body);
    clearError();
    return answer;
  } catch (err) {
    showError(el.error, err.message);
    if (game && /moved on/.test(err.message)) await refresh();
    return null;
  } finally {
    busy = false;
    document.body.classList.remove("rot-busy");
  }
}

async function refresh() {
  try {
    const answer = await api("api/rotator/state", { game: game.game });
    show(answer, { focus: "options" });
  } catch (err) {
    showError(el.error, err.message);
  }
}

async function start(body) {
  const answer = await send("api/rotator/new", body);
  if (!answer) return;
  const url = new URL(window.location.href);
  url.search = "";
  url.searchParams.set("board", answer.state.board_id);
  window.history.replaceState(null, "", url);
  show(answer, { focus: "options" });
  say(`Rotator on board ${answer.state.board_id}. ${answer.state.status}.`);
}

async function choose(n) {
  if (!game) return;
  const answer = await send("api/rotator/play", { game: game.game, version: game.version, option: n });
  if (!answer) return;
  show(answer, { focus: "options" });
  const state = answer.state;
  if (state.verdict) {
    say(`${state.verdict.text} ${state.verdict.why}.`); // shown in the verdict's box
  } else if (answer.played) {
    say(`Last: ${answer.played}.`);
  } else {
    say(`You stand on ${state.you.name}.`);
  }
}

async function undo() {
  if (!game) return;
  const answer = await send("api/rotator/undo", { game: game.game, version: game.version });
  if (!answer) return;
  show(answer, { focus: "options" });
  say(answer.message);
}

async function hint() {
  if (!game) return;
  say("Thinking…");
  const answer = await send("api/rotator/hint", { game: game.game });
  if (!answer || answer.version !== game.version) return;
  hinted = answer.hint.option;
  drawOptions(game.state);
  say(answer.hint.text);
  if (hinted !== null) focusOption(hinted);
}

// --- drawing --------------------------------------------------------------------------

function node(name, attrs = {}, parent = null, text = null) {
  const item = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) item.setAttribute(key, value);
  if (text !== null) item.textContent = text;
  if (parent) parent.appendChild(item);
  return item;
}

function cellX(x) { return LEFT + x * U; }
function cellY(y) { return TOP + y * U + (y >= FOLD ? GAP : 0); }
function centre([x, y]) { return [cellX(x) + U / 2, cellY(y) + U / 2]; }

function defs(svg) {
  const d = node("defs", {}, svg);
  const rock = node("pattern", { id: "rot-rock", width: 6, height: 6, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" }, d);
  node("rect", { width: 6, height: 6, fill: "#b3b3b3" }, rock);
  node("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#6d6d6d", "stroke-width": 2 }, rock);
  const due = node("pattern", { id: "rot-due", width: 8, height: 8, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(-45)" }, d);
  node("rect", { width: 8, height: 8, fill: "#ffd0c8" }, due);
  node("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#f29c8f", "stroke-width": 3 }, due);
}

function drawBoard(state) {
  const svg = el.svg;
  svg.replaceChildren();
  const width = LEFT * 2 + WIDTH * U;
  const height = TOP * 2 + HEIGHT * U + GAP;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  defs(svg);
  const words = node("g", { class: "rot-words" }, svg);
  // Grid A's words and letters above it (read from the far side), grid B's below.
  node("text", { x: width / 2, y: 0.55 * U, class: "rot-grid-name" }, words,
    "grid A · start on its Row 10");
  node("text", { x: width / 2, y: height - 0.2 * U, class: "rot-grid-name" }, words,
    "grid B · reach its Row 10");
  for (let x = 0; x < WIDTH; x++) {
    node("text", { x: cellX(x) + U / 2, y: TOP - 0.25 * U, class: "rot-label" }, words, state.columns.A[x]);
    node("text", { x: cellX(x) + U / 2, y: cellY(HEIGHT - 1) + U + 0.7 * U, class: "rot-label" }, words,
      state.columns.B[x]);
  }
  for (let y = 0; y < HEIGHT; y++) {
    const ty = cellY(y) + U * 0.68;
    node("text", { x: LEFT / 2, y: ty, class: "rot-label" }, words, state.rows[y]);
    node("text", { x: width - LEFT / 2, y: ty, class: "rot-label" }, words, state.rows[y]);
  }
  // The start row (grey band) and the goal row (black band), as the rules' figure marks them.
  node("rect", { x: cellX(0), y: cellY(0) - 5, width: WIDTH * U, height: 4, class: "rot-start-band" }, svg);
  node("rect", { x: cellX(0), y: cellY(HEIGHT - 1) + U + 1, width: WIDTH * U, height: 4,
    class: "rot-goal-band" }, svg);

  const squares = node("g", { class: "rot-squares" }, svg);
  const offered = new Map();
  if (state.phase === "start" || state.phase === "pick") {
    for (const option of state.options) offered.set(option.cell.join(","), option);
  }
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const sq = state.cells[y][x];
      const g = node("g", { class: "rot-square", "data-cell": sq.name }, squares);
      node("title", {}, g, sq.title + (sq.rock ? " (rock)" : sq.touched === null ? " (open air)" : ""));
      let cls = sq.rock ? "rot-rock" : sq.touched !== null ? (sq.due ? "rot-due" : "rot-touched") : "rot-air";
      node("rect", { x: cellX(x), y: cellY(y), width: U, height: U, class: cls }, g);
      if (sq.touched !== null && !sq.rock) {
        node("text", { x: cellX(x) + U / 2, y: cellY(y) + U * 0.7, class: sq.due ? "rot-num rot-num-due" : "rot-num" },
          g, (sq.due ? "!" : "") + sq.fills);
      }
      if (sq.node !== null) {
        const [cx, cy] = centre([x, y]);
        if (sq.rock) node("circle", { cx, cy, r: U * 0.3, class: "rot-node" }, g);
        else node("circle", { cx, cy, r: U * 0.3, class: "rot-node-taken" }, g);
      }
      const option = offered.get(`${x},${y}`);
      if (option) {
        g.classList.add("rot-offered");
        g.setAttribute("data-option", option.n);
        node("rect", { x: cellX(x) + 2, y: cellY(y) + 2, width: U - 4, height: U - 4, class: "rot-offer" }, g);
        g.addEventListener("click", () => choose(option.n));
      }
    }
  }
  // The fold, dashed, between the grids.
  node("line", { x1: cellX(0) - 6, x2: cellX(WIDTH) + 6, y1: cellY(FOLD) - GAP / 2, y2: cellY(FOLD) - GAP / 2,
    class: "rot-fold" }, svg);
  node("rect", { x: cellX(0), y: cellY(0), width: WIDTH * U, height: FOLD * U, class: "rot-frame" }, svg);
  node("rect", { x: cellX(0), y: cellY(FOLD), width: WIDTH * U, height: FOLD * U, class: "rot-frame" }, svg);
  node("g", { id: "rot-preview" }, svg);
  if (state.you) drawYou(svg, state);
}

function drawYou(svg, state) {
  const [cx, cy] = centre(state.you.cell);
  const g = node("g", { class: "rot-you" }, svg);
  node("title", {}, g, `You, on ${state.you.name}`);
  if (state.phase !== "won" && state.phase !== "lost") {
    // A triangle on the side gravity pulls toward: "down" this turn.
    const [dx, dy] = state.gravity.step;
    const tip = [cx + dx * U * 0.62, cy + dy * U * 0.62];
    const base = [cx + dx * U * 0.42, cy + dy * U * 0.42];
    const side = [dy * U * 0.16, dx * U * 0.16];
    node("polygon", { points: [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]]
      .map((p) => p.join(",")).join(" "), class: "rot-gravity-tip" }, g);
  }
  node("circle", { cx, cy, r: U * 0.4, class: state.phase === "lost" ? "rot-you-dot rot-you-lost" : "rot-you-dot" }, g);
  node("text", { x: cx, y: cy + U * 0.17, class: "rot-you-mark" }, g, state.phase === "lost" ? "✕" : "@");
}

function drawPreview(option) {
  const layer = document.getElementById("rot-preview");
  if (!layer) return;
  layer.replaceChildren();
  for (const g of el.svg.querySelectorAll(".rot-offered")) g.classList.remove("rot-current");
  if (!option || !game) return;
  if (option.kind !== "move") {
    const g = el.svg.querySelector(`.rot-offered[data-option="${option.n}"]`);
    if (g) g.classList.add("rot-current");
    return;
  }
  const points = [game.state.you.cell, ...option.steps.map((s) => s.cell)].map(centre);
  if (points.length > 1) {
    node("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "rot-path" }, layer);
  }
  for (const step of option.steps) {
    const [x, y] = centre(step.cell);
    if (step.how === "fall") node("circle", { cx: x, cy: y, r: U * 0.13, class: "rot-step-fall" }, layer);
    else if (step.how === "drill") {
      node("rect", { x: x - U * 0.14, y: y - U * 0.14, width: U * 0.28, height: U * 0.28, class: "rot-step-drill" }, layer);
    } else {
      node("text", { x, y: y + U * 0.2, class: "rot-step-boost" }, layer, "✚");
    }
  }
  for (const cell of option.opens) {
    node("rect", { x: cellX(cell[0]) + 3, y: cellY(cell[1]) + 3, width: U - 6, height: U - 6, class: "rot-opens" }, layer);
  }
  const [ex, ey] = centre(option.end);
  node("circle", { cx: ex, cy: ey, r: U * 0.46, class: option.lost ? "rot-end rot-end-lost" : "rot-end" }, layer);
}

function drawCard(state) {
  // The card as it lies this turn: turned clockwise so that down points at you, start row
  // grey, goal row black, as the rules book's figure shows it.
  const svg = el.card;
  svg.replaceChildren();
  const u = 3.2;
  const size = HEIGHT * u + 8;
  svg.setAttribute("viewBox", `0 0 ${size + 22} ${size}`);
  const arrow = node("g", { class: "rot-card-down" }, svg);
  node("line", { x1: 8, y1: 8, x2: 8, y2: size - 16 }, arrow);
  node("polygon", { points: `2,${size - 18} 14,${size - 18} 8,${size - 6}` }, arrow);
  const g = node("g", { transform: `translate(${22 + size / 2} ${size / 2}) rotate(${90 * state.gravity.quarter_turns}) `
    + `translate(${-WIDTH * u / 2} ${-HEIGHT * u / 2})` }, svg);
  node("rect", { x: 0, y: 0, width: WIDTH * u, height: HEIGHT * u, class: "rot-card-face" }, g);
  node("rect", { x: 0, y: 0, width: WIDTH * u, height: u * 1.4, class: "rot-card-start" }, g);
  node("rect", { x: 0, y: (HEIGHT - 1.4) * u, width: WIDTH * u, height: u * 1.4, class: "rot-card-goal" }, g);
  node("line", { x1: 0, x2: WIDTH * u, y1: FOLD * u, y2: FOLD * u, class: "rot-card-fold" }, g);
  for (const [grid, row] of [["A", FOLD / 2], ["B", FOLD * 1.5]]) {
    const t = node("text", { x: WIDTH * u / 2, y: row * u + 4, class: "rot-card-letter",
      transform: `rotate(${-90 * state.gravity.quarter_turns} ${WIDTH * u / 2} ${row * u})` }, g, grid);
    t.setAttribute("aria-hidden", "true");
  }
  el.cardLabel.textContent = `The card as it lies in turn ${state.turn}: turned ${
    ["not at all", "a quarter clockwise", "half round", "three quarters clockwise"][state.gravity.quarter_turns]
  } from the start; down (the arrow) points at you.`;
}

function drawTally(state) {
  const svg = el.tally;
  svg.replaceChildren();
  const box = 12;
  svg.setAttribute("viewBox", `0 0 ${state.boost_cache * (box + 3)} ${box + 2}`);
  for (let i = 0; i < state.boost_cache; i++) {
    const spent = i >= state.boosts_left;
    const x = 1 + i * (box + 3);
    node("rect", { x, y: 1, width: box, height: box, class: spent ? "rot-tally-spent" : "rot-tally-left" }, svg);
    if (spent) node("path", { d: `M${x + 2} 3 L${x + box - 2} ${box - 1} M${x + box - 2} 3 L${x + 2} ${box - 1}`,
      class: "rot-tally-cross" }, svg);
  }
  el.boostText.textContent = state.boosts;
}

function optionLabel(option) {
  if (option.kind !== "move") return option.words;
  return `${option.words} ${option.short}`;
}

function drawOptions(state) {
  el.options.replaceChildren();
  el.options.classList.toggle("rot-options-squares", state.phase === "start" || state.phase === "pick");
  for (const option of state.options) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rot-option";
    button.dataset.option = option.n;
    const part = (cls, text) => {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      button.appendChild(span);
    };
    part("rot-option-n", option.n);
    part("rot-option-words", option.kind === "move" ? option.words : option.name);
    if (option.won) part("rot-option-end rot-win", "★ wins");
    if (option.lost) part("rot-option-end rot-loss", "✕ loses");
    if (hinted === option.n) {
      button.classList.add("rot-hinted");
      part("rot-hint-tag", "hint");
    }
    if (option.kind === "move") part("rot-option-what", option.outcome);
    button.setAttribute("aria-label", `${option.n}: ${optionLabel(option)}${option.kind === "move" ? ". " + option.outcome : ""}`
      + (hinted === option.n ? " (the hint)" : ""));
    button.addEventListener("click", () => choose(option.n));
    button.addEventListener("focus", () => drawPreview(option));
    button.addEventListener("mouseenter", () => drawPreview(option));
    li.appendChild(button);
    el.options.appendChild(li);
  }
}

function focusOption(n) {
  const button = el.options.querySelector(`button[data-option="${n}"]`);
  if (button) button.focus();
}

function show(answer, { focus = null } = {}) {
  if (!game || answer.version !== game.version || answer.game !== game.game) hinted = null;
  game = answer;
  const state = answer.state;
  el.game.hidden = false;
  el.title.textContent = `Rotator · ${state.board_id}`;
  el.status.textContent = state.status;
  drawCard(state);
  drawTally(state);
  el.fills.textContent = [state.fills, state.fills_under].filter(Boolean).join(" ");
  el.fills.classList.toggle("rot-warn", Boolean(state.fills_under));
  el.question.textContent = state.question || "";
  el.question.hidden = !state.question;
  if (state.verdict) {
    el.verdict.hidden = false;
    el.verdict.classList.toggle("rot-won", state.verdict.won);
    el.verdict.classList.toggle("rot-lost", !state.verdict.won);
    el.verdictText.textContent = (state.verdict.won ? "★ " : "✕ ") + state.verdict.text;
    el.verdictWhy.textContent = state.verdict.why;
    el.verdictAfter.textContent = state.verdict.after;
  } else {
    el.verdict.hidden = true;
  }
  // The live region's words are the verdict's box's once the game is over: heard, not
  // shown twice.
  el.say.classList.toggle("visually-hidden", Boolean(state.verdict));
  el.undo.disabled = !state.can_undo;
  el.hint.disabled = Boolean(state.verdict);
  el.logStart.textContent = state.log.start;
  el.log.replaceChildren(...state.log.turns.map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
  el.touched.textContent = state.touched;
  drawBoard(state);
  drawOptions(state);
  document.body.dataset.phase = state.phase;
  document.body.dataset.version = String(answer.version);
  document.body.dataset.game = answer.game;
  if (focus === "options") {
    if (state.options.length) focusOption(state.options[0].n);
    else if (state.verdict) el.verdict.focus();
  }
}

// --- keys -------------------------------------------------------------------------------

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement
    || target instanceof HTMLTextAreaElement;
}

function newGame() {
  el.boardId.focus();
  el.boardId.select();
}

el.options.addEventListener("keydown", (event) => {
  const buttons = [...el.options.querySelectorAll("button")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
  if (step) {
    event.preventDefault();
    buttons[(at + step + buttons.length) % buttons.length].focus();
  } else if (event.key === "Home" || event.key === "End") {
    event.preventDefault();
    buttons[event.key === "Home" ? 0 : buttons.length - 1].focus();
  }
});

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  const key = event.key.toLowerCase();
  if (key === "u") { event.preventDefault(); undo(); }
  else if (key === "h") { event.preventDefault(); hint(); }
  else if (key === "n") { event.preventDefault(); newGame(); }
});

el.undo.addEventListener("click", undo);
el.hint.addEventListener("click", hint);
el.again.addEventListener("click", newGame);
el.form.addEventListener("submit", (event) => {
  event.preventDefault();
  const board = el.boardId.value.trim();
  const seed = el.seed.value.trim();
  if (board && seed) {
    showError(el.error, "Give a board ID or a seed, not both: clear one of them.");
    return;
  }
  if (!board && !seed) {
    showError(el.error, "Type a board ID such as R1:B2B8E4I2I8-B4E2E8H4I9, or a seed such as 7.");
    return;
  }
  start(board ? { board } : { seed, difficulty: el.difficulty.value });
});
// Typing in one box clears the other: the game comes from one of them.
el.boardId.addEventListener("input", () => { if (el.boardId.value) el.seed.value = ""; });
el.seed.addEventListener("input", () => { if (el.seed.value) el.boardId.value = ""; });

// ?board=ID or ?seed=S&difficulty=D starts that game at once.
const params = new URLSearchParams(window.location.search);
if (params.get("board")) {
  el.boardId.value = params.get("board");
  start({ board: params.get("board") });
} else if (params.get("seed")) {
  el.seed.value = params.get("seed");
  if (params.get("difficulty")) el.difficulty.value = params.get("difficulty");
  start({ seed: params.get("seed"), difficulty: params.get("difficulty") || "easy" });
} else {
  // The rules book's example board, ready: Enter (or Play) starts it, typing replaces it.
  el.boardId.value = "R1:B2B8E4I2I8-B4E2E8H4I9";
  el.boardId.focus();
  el.boardId.select();
}
