// The card page: draws the card the studio pushes after every save.
import { api, showError } from "./common.js";

const $ = (id) => document.getElementById(id);
const spreads = $("spreads");

function show(card) {
  spreads.dataset.generation = String(card.generation);
  if (card.outside && String(card.shown) !== spreads.dataset.shown) {
    $("outside").innerHTML = card.outside;
    $("inside").innerHTML = card.inside;
    spreads.dataset.shown = String(card.shown);
    spreads.dataset.renderedAt = String(Date.now());
  }
  const source = $("source");
  source.textContent = card.config
    ? `Watching ${card.config.split(/[\\/]/).pop()} and the files it names`
    : "The built-in example";
  source.title = card.config || "";
  const error = card.error ? card.error.error : null;
  showError($("error"), error);
  spreads.classList.toggle("stale", Boolean(error && card.outside));
  $("state").textContent = error
    ? `Build ${card.generation} failed; showing the last good picture.`
    : `Build ${card.generation}${card.changed.length ? ` after saving ${card.changed.join(", ")}` : ""}, ${card.build_ms} ms.`;
  $("ladder").textContent = card.ladder || "";
  const warnings = $("warnings");
  warnings.replaceChildren(...(card.warnings || []).map((text) => {
    const p = document.createElement("p");
    p.className = "warning";
    p.textContent = text;
    return p;
  }));
  for (const id of ["write", "write-pdf"]) $(id).disabled = Boolean(error);
}

async function write(formats) {
  $("written").textContent = "Writing…";
  try {
    const done = await api("api/card/write", { formats });
    const names = done.written.map((w) => `${w.replaced ? "replaced" : "wrote"} ${w.name}`);
    $("written").textContent = `In ${done.folder}: ${names.join(", ")}.`;
  } catch (error) {
    $("written").textContent = "";
    showError($("error"), error.message);
  }
}

$("write").addEventListener("click", () => write("pdf,svg,png"));
$("write-pdf").addEventListener("click", () => write("pdf"));

const events = new EventSource("api/events");
events.addEventListener("card", (event) => show(JSON.parse(event.data)));
events.addEventListener("error", () => {
  $("state").textContent = "Lost the studio (is it still running?); trying again…";
});
