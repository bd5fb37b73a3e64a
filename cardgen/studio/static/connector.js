// cardgen studio: the Connector sandbox. The layout is an assembly file's content
// ({game, preset, card: [{x, y, rotation, tabs}]}, bottom card first, millimetres, y
// down). This script only draws what the server says and sends what the user did:
// snapping, verdicts and hints all come from the studio's API (cardgen.api).
import { api, showError } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const TURNS = { 0: "upright", 90: "turned a quarter clockwise", 180: "upside down",
  270: "turned a quarter anticlockwise" };
const $ = (id) => document.getElementById(id);

const state = {
  sizes: { eu: [85, 55], us: [88.9, 50.8] }, games: [],
  layout: { game: "reflector", preset: "eu", card: [] },
  selected: null,   // index into layout.card
  hintCard: null,   // the card (from 1) the last hint is about
  verdict: null,
  view: null,       // [x, y, w, h] of the table's viewBox, mm
  asked: 0,         // requests sent: only the latest answer is shown
  pictures: {},     // "eu-open" -> a blob: URL of that card's SVG, fetched once
};

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function game() {
  return state.games.find((g) => g.game === state.layout.game) || state.games[0];
}

function cardWords(card) {
  return `${TURNS[card.rotation]}, tabs ${card.tabs}`;
}

// --- the table ---------------------------------------------------------------------

/** The card's size (mm, upright) for the layout's card size. */
function size() {
  return state.sizes[state.layout.preset] || state.sizes.eu;
}

function footprint(card) {
  const [width, height] = size();
  const turned = card.rotation % 180 !== 0;
  const w = turned ? height : width;
  const h = turned ? width : height;
  return { x: card.x - w / 2, y: card.y - h / 2, w, h };
}

function fit() {
  const cards = state.layout.card;
  let box = { x: -60, y: -45, w: 120, h: 90 };
  if (cards.length) {
    const boxes = cards.map(footprint);
    const x0 = Math.min(...boxes.map((b) => b.x)), y0 = Math.min(...boxes.map((b) => b.y));
    const x1 = Math.max(...boxes.map((b) => b.x + b.w));
    const y1 = Math.max(...boxes.map((b) => b.y + b.h));
    box = { x: x0 - 14, y: y0 - 6, w: x1 - x0 + 20, h: y1 - y0 + 12 };
  }
  const w = Math.max(box.w, 100), h = Math.max(box.h, 70);
  state.view = [box.x - (w - box.w) / 2, box.y - (h - box.h) / 2, w, h];
  applyView();
}

/** Fit the view again when a card lies partly outside it. */
function keepInView() {
  const [x, y, w, h] = state.view;
  const out = state.layout.card.map(footprint).some((b) =>
    b.x < x || b.y < y || b.x + b.w > x + w || b.y + b.h > y + h);
  if (out) fit();
}

function zoom(factor) {
  const [x, y, w, h] = state.view;
  const cx = x + w / 2, cy = y + h / 2;
  state.view = [cx - (w * factor) / 2, cy - (h * factor) / 2, w * factor, h * factor];
  applyView();
}

function applyView() {
  $("table").setAttribute("viewBox", state.view.map((v) => v.toFixed(2)).join(" "));
}

/** A card's picture, fetched once a page (the studio sends every answer "no-store"). */
function picture(preset, tabs) {
  const key = `${preset}-${tabs}`;
  if (!state.pictures[key]) {
    state.pictures[key] = fetch(`api/connector/card.svg?preset=${preset}&tabs=${tabs}`)
      .then((response) => {
        if (!response.ok) throw new Error(`the card's picture did not load (${response.status})`);
        return response.blob();
      })
      .then((blob) => URL.createObjectURL(blob))
      .catch((error) => { delete state.pictures[key]; showError($("error"), error.message); return ""; });
  }
  return state.pictures[key];
}

function placeCard(node, card) {
  node.querySelector(".turned").setAttribute("transform",
    `translate(${card.x} ${card.y}) rotate(${card.rotation})`);
  const foot = footprint(card);
  const tag = node.querySelector(".tag");
  const width = Number(tag.dataset.width);
  tag.setAttribute("transform", `translate(${foot.x - width - 1} ${foot.y})`);
  node.dataset.x = card.x;
  node.dataset.y = card.y;
  node.dataset.rotation = card.rotation;
  node.dataset.tabs = card.tabs;
}

function drawCards() {
  const group = $("cards");
  const focused = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest(".card") : null;
  const refocus = focused ? Number(focused.dataset.card) : null;
  group.replaceChildren();
  const count = state.layout.card.length;
  state.layout.card.forEach((card, i) => {
    const number = i + 1;
    const hinted = state.hintCard === number;
    const node = el("g", {
      class: "card" + (state.selected === i ? " selected" : "") + (hinted ? " hinted" : ""),
      tabindex: "0", role: "button", "data-card": String(number),
      "aria-pressed": state.selected === i ? "true" : "false",
      "aria-label": `Card ${number} of ${count}${number === 1 ? " (bottom)" : ""}`
        + `${number === count && count > 1 ? " (top)" : ""}: ${cardWords(card)}`
        + `${hinted ? "; the hint is about this card" : ""}`,
    }, group);
    const turned = el("g", { class: "turned" }, node);
    const [width, height] = size();
    const image = el("image", {
      x: -width / 2, y: -height / 2, width, height, preserveAspectRatio: "none",
    }, turned);
    picture(state.layout.preset, card.tabs).then((url) => image.setAttribute("href", url));
    el("rect", { class: "edge", x: -width / 2, y: -height / 2, width, height }, turned);
    const label = String(number) + (state.selected === i ? " ✓" : "") + (hinted ? " hint" : "");
    const tagWidth = 3 + label.length * 1.9;
    const tag = el("g", { class: "tag", "data-width": tagWidth }, node);
    el("rect", { x: 0, y: 0, width: tagWidth, height: 4.4, rx: 0.8 }, tag);
    const text = el("text", { x: 1.3, y: 3.3 }, tag);
    text.textContent = label;
    placeCard(node, card);
    node.addEventListener("pointerdown", (event) => startDrag(event, i, node));
    node.addEventListener("keydown", (event) => cardKey(event, i));
    node.addEventListener("focus", () => { if (state.selected !== i) select(i, true); });
  });
  if (refocus !== null) {
    const again = group.querySelector(`.card[data-card="${refocus}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  drawSelection();
}

function drawSelection() {
  const i = state.selected;
  const card = i === null ? null : state.layout.card[i];
  $("selected-title").textContent = card
    ? `Card ${i + 1} selected: ${cardWords(card)}` : "No card selected";
  for (const id of ["turn-cw", "turn-ccw", "fold", "raise", "lower", "snap", "remove"]) {
    $(id).disabled = !card;
  }
  if (card) {
    $("fold").textContent = card.tabs === "open" ? "Fold tabs" : "Open tabs";
    $("raise").disabled = i === state.layout.card.length - 1;
    $("lower").disabled = i === 0;
  }
}

function drawMarks() {
  const marks = $("marks");
  marks.replaceChildren();
  const v = state.verdict;
  if (!v) return;
  v.read.forEach(([x, y, w, h], k) => {
    el("rect", { class: "read", x, y, width: w, height: h }, marks);
    el("circle", { class: "order", cx: x - 1.6, cy: y + h / 2, r: 1.3 }, marks);
    const n = el("text", { class: "order-number", x: x - 1.6, y: y + h / 2 + 0.7 }, marks);
    n.textContent = String(k + 1);
  });
  for (const half of v.half_covered) {
    const [x, y, w, h] = half.box;
    el("rect", { class: "half", x, y, width: w, height: h }, marks);
    const t = el("text", { class: "half-label", x: x + w + 0.8, y: y + h - 0.2 }, marks);
    t.textContent = "½ covered";
  }
  for (const c of v.connections) {
    el("circle", { class: "joint", cx: c.x, cy: c.y, r: 3.4 }, marks);
    el("path", { class: "tick", d: `M ${c.x - 1.3} ${c.y + 4.6} l 1 1 l 2 -2.2` }, marks);
  }
}

// --- the verdict -------------------------------------------------------------------

function list(id, items) {
  const ul = $(id);
  ul.replaceChildren();
  for (const item of items) {
    const li = document.createElement("li");
    li.textContent = item;
    ul.appendChild(li);
  }
}

function showVerdict(v) {
  state.verdict = v;
  const g = game();
  const name = v.game[0].toUpperCase() + v.game.slice(1);
  const status = $("status");
  status.dataset.valid = v.valid ? "1" : "0";
  status.classList.toggle("solved", v.valid);
  if (v.valid) {
    status.textContent = `✔ Solved: the ${name} description reads.`;
    $("reads").textContent = `“${v.text}”`;
  } else {
    const pieces = v.pieces
      ? ` ${v.pieces.visible} of the ${v.pieces.needed} ${v.colour} pieces it needs show.` : "";
    status.textContent = `✘ Not solved yet.${pieces}`;
    $("reads").textContent = v.text ? `Reads so far: “${v.text}”` : "Nothing reads yet.";
  }
  list("connections", v.connections.length ? v.connections.map((c) =>
    `✔ Card ${c.card}'s corner ${c.corner} on card ${c.onto_card}'s ${v.colour} `
    + `${c.corner} (${c.offset_mm.toFixed(1)} mm off)`) : ["None yet."]);
  list("problems", v.problems.length ? v.problems.map((p) => "✘ " + p[0].toUpperCase()
    + p.slice(1)) : ["None."]);
  $("size").textContent = `${state.layout.card.length} of ${g ? g.players : "?"} cards `
    + `(${state.layout.preset} size)`;
  drawMarks();
  $("table").dataset.ready = String(state.asked);
}

async function call(path, body) {
  try {
    const answer = await api(path, body);
    showError($("error"), null);
    return answer;
  } catch (error) {
    showError($("error"), error.message);
    return null;
  }
}

/** After every change: redraw, and ask for the verdict. */
async function changed({ refit = false, keepHint = false } = {}) {
  if (!keepHint) { state.hintCard = null; $("hint-text").textContent = ""; }
  if (refit) fit(); else keepInView();
  drawCards();
  const asked = ++state.asked;
  $("table").dataset.ready = "0";
  const v = await call("api/connector/verdict", { layout: state.layout });
  if (v && asked === state.asked) showVerdict(v);
}

async function snap(i) {
  const asked = ++state.asked;
  $("table").dataset.ready = "0";
  const answer = await call("api/connector/snap", { layout: state.layout, card: i + 1 });
  if (!answer || asked !== state.asked) return;
  state.layout = answer.layout;
  state.hintCard = null;
  $("hint-text").textContent = "";
  keepInView();
  drawCards();
  if (answer.snapped) {
    announce(`Card ${i + 1} snapped ${answer.moved_mm.toFixed(1)} mm: card ${answer.upper}'s `
      + `corner ${answer.number} on card ${answer.lower}'s ${answer.verdict.colour} `
      + `${answer.number}.`);
  }
  showVerdict(answer.verdict);
}

function announce(message) {
  $("hint-text").textContent = message;
}

// --- what the user does --------------------------------------------------------------

function select(i, fromFocus = false) {
  state.selected = i;
  if (fromFocus) {
    for (const node of document.querySelectorAll("#cards .card")) {
      const on = Number(node.dataset.card) === i + 1;
      node.classList.toggle("selected", on);
      node.setAttribute("aria-pressed", on ? "true" : "false");
    }
    drawSelection();
  } else {
    drawCards();
  }
}

function tablePoint(event) {
  const svg = $("table");
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function startDrag(event, i, node) {
  if (event.button !== 0) return;
  event.preventDefault();
  node.focus({ preventScroll: true });
  if (state.selected !== i) select(i, true);
  const start = tablePoint(event);
  const card = state.layout.card[i];
  const from = { x: card.x, y: card.y };
  let moved = false;
  node.setPointerCapture(event.pointerId);
  node.classList.add("dragging");
  const move = (e) => {
    const p = tablePoint(e);
    card.x = Math.round((from.x + p.x - start.x) * 100) / 100;
    card.y = Math.round((from.y + p.y - start.y) * 100) / 100;
    moved = moved || Math.hypot(card.x - from.x, card.y - from.y) > 0.3;
    placeCard(node, card);
  };
  const end = (e) => {
    node.removeEventListener("pointermove", move);
    node.removeEventListener("pointerup", end);
    node.removeEventListener("pointercancel", end);
    node.classList.remove("dragging");
    if (e.type === "pointercancel") { card.x = from.x; card.y = from.y; placeCard(node, card); }
    if (moved && e.type === "pointerup") snap(i);
    else drawCards();
  };
  node.addEventListener("pointermove", move);
  node.addEventListener("pointerup", end);
  node.addEventListener("pointercancel", end);
}

function turn(i, by) {
  const card = state.layout.card[i];
  card.rotation = (card.rotation + by + 360) % 360;
  changed();
}

function fold(i) {
  const card = state.layout.card[i];
  card.tabs = card.tabs === "open" ? "folded" : "open";
  changed();
}

function restack(i, by) {
  const cards = state.layout.card;
  const j = i + by;
  if (j < 0 || j >= cards.length) return;
  [cards[i], cards[j]] = [cards[j], cards[i]];
  state.selected = j;
  changed();
}

function remove(i) {
  state.layout.card.splice(i, 1);
  state.selected = state.layout.card.length ? Math.min(i, state.layout.card.length - 1) : null;
  changed({ refit: true });
}

function addCard() {
  const cards = state.layout.card;
  let x = 0, y = 0;
  if (cards.length) {
    const boxes = cards.map(footprint);
    x = Math.max(...boxes.map((b) => b.x + b.w)) + 10 + size()[0] / 2;
    y = cards[0].y;
  }
  if (cards.length >= 24) {
    showError($("error"), "24 cards are on the table, the most an assembly file holds.");
    return;
  }
  cards.push({ x: Math.round(x * 10) / 10, y, rotation: 0, tabs: "open" });
  state.selected = cards.length - 1;
  changed({ refit: true });
}

function cardKey(event, i) {
  const card = state.layout.card[i];
  const step = event.shiftKey ? 10 : 1;
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step],
    ArrowDown: [0, step] };
  const key = event.key;
  if (moves[key]) {
    card.x = Math.round((card.x + moves[key][0]) * 100) / 100;
    card.y = Math.round((card.y + moves[key][1]) * 100) / 100;
    changed();
  } else if (key === "r" || key === "R") {
    turn(i, event.shiftKey ? -90 : 90);
  } else if (key === "f" || key === "F") {
    fold(i);
  } else if (key === "s" || key === "S") {
    snap(i);
  } else if (key === "PageUp") {
    restack(i, 1);
  } else if (key === "PageDown") {
    restack(i, -1);
  } else if (key === "Delete" || key === "Backspace") {
    remove(i);
  } else if (key === "Enter" || key === " ") {
    select(i);
  } else {
    return;
  }
  event.preventDefault();
}

async function hint() {
  const answer = await call("api/connector/hint", { layout: state.layout });
  if (!answer) return;
  state.hintCard = answer.card;
  drawCards();
  $("hint-text").textContent = `${answer.text} (step ${Math.min(answer.done + 1,
    answer.steps)} of ${answer.steps})`;
}

async function download() {
  const answer = await call("api/connector/toml", { layout: state.layout });
  if (!answer) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([answer.text], { type: "application/toml" }));
  link.download = answer.name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  $("file-status").textContent = `Downloaded ${answer.name}.`;
}

async function save() {
  $("file-status").textContent = "Saving…";
  const answer = await call("api/connector/save", { layout: state.layout });
  if (!answer) { $("file-status").textContent = "Nothing was saved."; return; }
  $("file-status").textContent = answer.written.map((w) =>
    `${w.replaced ? "Replaced" : "Wrote"} ${w.path}`).join("; ") + ".";
}

async function load(event) {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  const answer = await call("api/connector/load", { text, name: file.name });
  event.target.value = "";
  if (!answer) { $("file-status").textContent = `${file.name} was not loaded.`; return; }
  state.layout = answer.layout;
  state.selected = null;
  $("game").value = state.layout.game;
  $("file-status").textContent = `Loaded ${file.name}: ${state.layout.card.length} cards.`;
  changed({ refit: true });
}

function withSelected(action) {
  return () => { if (state.selected !== null) action(state.selected); };
}

async function start() {
  const setup = await call("api/connector/setup");
  if (!setup) { $("status").textContent = "The Connector cannot be tried with this card."; return; }
  state.sizes = setup.sizes;
  state.games = setup.games;
  state.layout = { game: "reflector", preset: setup.preset,
    card: [{ x: 0, y: 0, rotation: 0, tabs: "open" }] };
  const select = $("game");
  for (const g of setup.games) {
    const option = document.createElement("option");
    option.value = g.game;
    option.textContent = `${g.game[0].toUpperCase() + g.game.slice(1)} — ${g.players} `
      + `card${g.players > 1 ? "s" : ""}, ${g.colour}`;
    select.appendChild(option);
  }
  select.value = state.layout.game;
  select.addEventListener("change", () => { state.layout.game = select.value; changed(); });
  $("add").addEventListener("click", addCard);
  $("fit").addEventListener("click", fit);
  $("zoom-in").addEventListener("click", () => zoom(0.8));
  $("zoom-out").addEventListener("click", () => zoom(1.25));
  $("turn-cw").addEventListener("click", withSelected((i) => turn(i, 90)));
  $("turn-ccw").addEventListener("click", withSelected((i) => turn(i, -90)));
  $("fold").addEventListener("click", withSelected(fold));
  $("raise").addEventListener("click", withSelected((i) => restack(i, 1)));
  $("lower").addEventListener("click", withSelected((i) => restack(i, -1)));
  $("snap").addEventListener("click", withSelected(snap));
  $("remove").addEventListener("click", withSelected(remove));
  $("hint").addEventListener("click", hint);
  $("download").addEventListener("click", download);
  $("save").addEventListener("click", save);
  $("load-file").addEventListener("change", load);
  state.selected = 0;
  changed({ refit: true });
  // The card page's events: when a save redraws the user's card, lay the new picture.
  let shown = null;
  new EventSource("api/events").addEventListener("card", (event) => {
    const card = JSON.parse(event.data);
    if (shown !== null && card.shown !== shown) {
      for (const url of Object.values(state.pictures)) {
        url.then((u) => { if (u) URL.revokeObjectURL(u); });
      }
      state.pictures = {};
      drawCards();
    }
    shown = card.shown;
  });
}

start();
