// starpnp studio: every distinct face of one game folder, kept up to date as its files are saved.
// The page never reloads: a live-update stream says when the folder was loaded again (polling when the
// server has no stream to spare), the page fetches the news, redraws only the faces whose version changed,
// and draws a face only while it is near the screen (so a set of thousands stays light).
"use strict";

const main = document.getElementById("faces");
const banner = document.getElementById("banner");
const newsBox = document.getElementById("news");
newsBox.title = "Click to close";
newsBox.addEventListener("click", (event) => { if (!event.target.closest("a")) newsBox.replaceChildren(); });
const tiles = new Map();  // id -> {summary, el, drawn: version drawn or null, face: last face JSON}
const picked = new Set();
let version = 0;
let folder = {};  // the folder shown, as /news says: its path and name, writable or why not, ours or an overrides folder
const TOKEN = document.querySelector('meta[name="studio-token"]').content;  // every write carries it back
const TAB = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);  // this tab, in every write's header
// A player's folder (one of our games, or their copy of it): the page speaks of cards, not of files and lines.
const player = () => Boolean(folder.builtin || folder.overrides);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// -- tiles -------------------------------------------------------------------------------------------

function makeTile(summary) {
  // The drawing and the button that opens it large lie side by side in the face: a button holding the
  // drawing would take its every word as part of its name (axe: label-content-name-mismatch).
  const face = el("div", {class: "face"}, el("div", {class: "drawing"}),
                  el("button", {type: "button", class: "open", "aria-label": "Open large"}));
  const pick = el("input", {type: "checkbox", class: "pick", "aria-label": "Choose for the proof sheet"});
  pick.addEventListener("change", () => {
    pick.checked ? picked.add(summary.id) : picked.delete(summary.id);
    document.querySelector("[data-picked]").textContent = picked.size;
    document.getElementById("proof").disabled = picked.size === 0;
  });
  const caption = el("figcaption", {}, el("label", {class: "pick-label"}, pick, el("b", {class: "names"})),
                     el("span", {class: "count"}), el("span", {class: "where"}),
                     el("span", {class: "error"}), el("ol", {class: "warnings"}));
  const node = el("figure", {class: "tile", id: "t-" + summary.id, "data-id": summary.id, "data-paints": "0"},
                  face, caption);
  const tile = {summary, el: node, drawn: null, face: null};
  face.addEventListener("click", () => openLarge(tile));
  takesDrops(face, () => summary.id);
  caption.addEventListener("change", (event) => { if (event.target.name === "count") commit(event.target); });
  caption.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.name === "count") { event.preventDefault(); commit(event.target); }
  });
  tiles.set(summary.id, tile);
  return tile;
}

function describe(tile, summary) {
  const old = tile.summary;
  tile.summary = summary;
  const node = tile.el;
  node.dataset.version = summary.version;
  node.dataset.side = summary.side;
  node.style.setProperty("--w", summary.width);
  node.style.setProperty("--h", summary.height);
  const names = summary.names.join(", ") + (summary.more_names ? ` and ${summary.more_names} more` : "");
  node.querySelector(".names").textContent = `${names} · ${summary.side}`;
  node.querySelector(".face .open").setAttribute("aria-label", `Open ${names} · ${summary.side} large`);
  showCount(tile);
  const where = node.querySelector(".where");  // a designer's file and line; a player's folder hides them
  where.textContent = player() ? "" : summary.sources.join(" ");
  where.title = summary.sources.join(" ");
  if (old && old.count !== summary.count) flash(node, `count ${old.count} → ${summary.count}`);
}

// A tile's count: a small number field once its face says the count can be written, else the number.
function showCount(tile) {
  const place = tile.el.querySelector(".count");
  const count = tile.face ? editsOf(tile.face).count : null;  // a face a version behind still says if it can be written
  const input = place.querySelector("input");
  if (!count || !count.writable) {
    if (input || place.textContent !== `× ${tile.summary.count}`) place.textContent = `× ${tile.summary.count}`;
    return;
  }
  if (!input) {
    const names = tile.summary.names.join(", ");
    place.replaceChildren("× ", el("input", {type: "number", name: "count", min: "0", step: "1", inputmode: "numeric",
                                             class: "count-input", "aria-label": `Copies of ${names}`}));
  }
  const field = place.querySelector("input");
  const now = String(tile.summary.count);  // a count is not drawn, so a face's version (and JSON) may predate it
  if (document.activeElement !== field || field.value === field.dataset.original) field.value = now;
  field.dataset.original = now;
  keepRefused(tile.summary.id, field, tile.el.querySelector("figcaption .error"));
  field.dataset.kind = "integer";
}

function flash(node, text) {
  node.dataset.changed = text;
  setTimeout(() => { if (node.dataset.changed === text) delete node.dataset.changed; }, 4000);
}

const headings = new Map();  // component id -> its heading, kept from one full news to the next

function heading(summary) {
  let node = headings.get(summary.component);
  if (!node) headings.set(summary.component, node = el("h2", {class: "component", "data-component": summary.component}));
  node.textContent = summary.component_name;
  return node;
}

function applyAll(list) {
  const seen = new Set();
  const parts = [];
  let component = null;
  for (const summary of list) {
    seen.add(summary.id);
    if (summary.component !== component) {
      component = summary.component;
      parts.push(heading(summary));
    }
    let tile = tiles.get(summary.id);
    if (!tile) tile = makeTile(summary);
    describe(tile, summary);
    parts.push(tile.el);
  }
  for (const [id, tile] of tiles) {
    if (!seen.has(id)) { observer.unobserve(tile.el); tiles.delete(id); picked.delete(id); }
  }
  arrange(main, parts);  // one task: the browser lays out once, the scroll stays where it was
  for (const tile of tiles.values()) observer.observe(tile.el);
}

// `parent` holding `nodes` in that order, moving only those out of place: a card added or deleted leaves the
// tiles' elements where they are (ids are places), and 500 elements put back anew cost a whole layout.
function arrange(parent, nodes) {
  let at = parent.firstChild;
  for (const node of nodes) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
  while (at) {
    const next = at.nextSibling;
    at.remove();
    at = next;
  }
}

function applyNews(news) {
  if (news.error) {
    banner.textContent = news.error;
    banner.hidden = false;
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
  folder = news.folder || folder;
  if (news.full) applyAll(news.tiles);
  else for (const summary of news.tiles) {
    const tile = tiles.get(summary.id);
    if (tile) describe(tile, summary);
  }
  const said = [];
  if (news.added.length) said.push(`${news.added.length} face${news.added.length > 1 ? "s" : ""} added: ${news.added.join("; ")}`);
  if (news.gone.length) said.push(`${news.gone.length} face${news.gone.length > 1 ? "s" : ""} gone: ${news.gone.join("; ")}`);
  if (said.length) newsBox.textContent = said.join(" · ");
  document.querySelector("[data-summary]").textContent =
    `${news.distinct} distinct faces, ${news.pieces} pieces`;
  version = news.version;
  document.body.dataset.version = version;
  for (const tile of tiles.values()) if (tile.near && tile.drawn !== tile.summary.version) want(tile);
  showUndo(news);
  showFolder();
  if (large) refreshLarge();
}

// -- drawing faces near the screen -----------------------------------------------------------------------

const wanted = new Set();
let asking = false;

// Drawings by version, the last few hundred painted: a card added or deleted moves every later face to another
// tile, and each is shown again at once from here (its face JSON, what can be edited where, still fetched).
const drawings = new Map();

function want(tile) {
  const kept = drawings.get(tile.summary.version);
  if (kept && tile.near && tile.drawn !== tile.summary.version) {
    tile.face = null;  // the edits of the face this tile showed before: not this one's
    show(tile, tile.summary.version, kept);
  }
  wanted.add(tile.summary.id);
  if (!asking) { asking = true; queueMicrotask(ask); }
}

// The faces asked for first come in a small batch, the face just edited at its head: a layout change redraws
// every face of its layout, and the one the person is looking at should not wait for the other forty.
let edited = null;
async function ask() {
  let batch = 3;
  while (wanted.size) {
    // faces not drawn yet first, alone: those already shown from `drawings` wait only for their edits' JSON
    const fresh = [...wanted].filter((id) => !drawings.has(tiles.get(id)?.summary.version));
    const ids = (fresh.length ? fresh : [...wanted]).sort((a, b) => (b === edited) - (a === edited)).slice(0, batch);
    batch = 40;
    ids.forEach((id) => wanted.delete(id));
    try {
      const response = await fetch("faces?ids=" + encodeURIComponent(ids.join(",")));
      const body = await response.json();
      for (const face of body.faces) paint(face);
    } catch (error) {
      ids.forEach((id) => wanted.add(id));
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  asking = false;
}

function paint(face) {
  const tile = tiles.get(face.id);
  if (!tile || tile.summary.version !== face.version || !tile.near) return;
  tile.face = face;
  drawings.delete(face.version);
  drawings.set(face.version, face);
  if (drawings.size > 300) drawings.delete(drawings.keys().next().value);
  if (tile.drawn === face.version) { showCount(tile); return; }
  show(tile, face.version, face);
}

function show(tile, drawn, face) {
  tile.drawn = drawn;
  const box = tile.el.querySelector(".face .drawing");
  box.innerHTML = face.svg + face.overlay;
  const list = tile.el.querySelector(".warnings");
  list.replaceChildren(...face.warnings.map((text) => el("li", {text})));
  tile.el.classList.toggle("has-warnings", face.warnings.length > 0);
  showCount(tile);
  tile.el.dataset.paints = String(Number(tile.el.dataset.paints) + 1);
}

function forget(tile) {
  tile.drawn = null;
  tile.face = null;
  tile.el.querySelector(".face .drawing").replaceChildren();
}

const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    const tile = tiles.get(entry.target.dataset.id);
    if (!tile) continue;
    tile.near = entry.isIntersecting;
    if (tile.near && tile.drawn !== tile.summary.version) want(tile);
    else if (!tile.near && tile.drawn) forget(tile);  // far off screen: let its drawing go (flat memory)
  }
}, {rootMargin: "600px 0px"});

// -- news ------------------------------------------------------------------------------------------

let fetching = null;  // the news fetch under way: one at a time, and one more if news came meanwhile
let again = false;

async function catchUp() {
  if (fetching) { again = true; return fetching; }
  fetching = (async () => {
    do {
      again = false;
      try {
        const response = await fetch(`news?since=${version}`);
        if (!response.ok) throw new Error(response.statusText);
        applyNews(await response.json());
      } catch (error) {
        banner.textContent = "The studio is not answering (was it stopped?); trying again…";
        banner.hidden = false;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        again = true;
      }
    } while (again);
    fetching = null;
  })();
  return fetching;
}

// The stream says "changed: N" at once and at every load; EventSource reconnects by itself after a drop.
// A 503 (every slot taken) closes it for good: then the page polls, and tries a stream again later.
function follow() {
  const stream = new EventSource("push");
  stream.addEventListener("changed", (event) => { if (Number(event.data) !== version) catchUp(); });
  stream.addEventListener("error", () => {
    if (stream.readyState !== EventSource.CLOSED) return;
    const poll = setInterval(catchUp, 2000);
    setTimeout(() => { clearInterval(poll); follow(); }, 30000);
  });
}

// -- controls ------------------------------------------------------------------------------------------

const zoom = document.getElementById("zoom");
function setZoom() {
  main.style.setProperty("--zoom", zoom.value);
  localStorage.setItem("studio-zoom", zoom.value);
}
zoom.value = localStorage.getItem("studio-zoom") || zoom.value;
zoom.addEventListener("input", setZoom);
setZoom();

for (const box of document.querySelectorAll("[data-overlay]")) {
  const name = "overlay-" + box.dataset.overlay;
  const kept = localStorage.getItem("studio-" + name);
  if (kept !== null) box.checked = kept === "1";
  const apply = () => {
    document.body.classList.toggle(name, box.checked);
    localStorage.setItem("studio-" + name, box.checked ? "1" : "0");
  };
  box.addEventListener("change", apply);
  apply();
}

for (const box of document.querySelectorAll("[data-setting]")) {
  box.addEventListener("change", async () => {
    const options = [...document.querySelectorAll('input[name="option"]:checked')].map((b) => b.value);
    try {
      await request("settings", {ink: document.getElementById("ink-low").checked ? "low" : "full",
                              write_ins: document.getElementById("write-ins").checked, options});
    } catch (error) {
      newsBox.textContent = error.message;
    }
  });
}

const jobList = document.getElementById("jobs");
function showJobs(list) {
  jobList.replaceChildren(...list.map((job) => {
    const item = el("li", {class: "job", "data-state": job.state, "data-kind": job.kind});
    const label = {pdf: "Print PDF", png: "PNG faces", tts: "Tabletop Simulator", proof: "Proof sheet"}[job.kind];
    item.append(el("b", {text: label + ": "}));
    if (job.state === "running" || job.state === "queued") {
      item.append(job.step || "starting");
      item.append(el("progress", job.total ? {max: job.total, value: job.done} : {}));
    } else if (job.state === "done") {
      item.append(el("a", {href: "output/" + job.result, target: "_blank", text: job.result}));
      if (job.warnings) item.append(` (${job.warnings} warnings)`);
    } else {
      item.append(el("span", {class: "error", text: job.error || "failed"}));
    }
    return item;
  }));
  return list.some((job) => job.state === "running" || job.state === "queued");
}

async function watchJobs() {
  for (;;) {
    const body = await (await fetch("jobs")).json();
    if (!showJobs(body.jobs)) return;
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

for (const button of document.querySelectorAll("[data-build]")) {
  button.addEventListener("click", async () => {
    try {
      await request("build", {kind: button.dataset.build});
      watchJobs();
    } catch (error) {
      newsBox.textContent = error.message;
    }
  });
}

document.getElementById("proof").addEventListener("click", async () => {
  try {
    const answer = await request("proof", {ids: [...picked]});
    newsBox.replaceChildren("Proof sheet: ", el("a", {href: "output/" + answer.result, target: "_blank",
                                                       "data-proof": "", text: answer.result}));
  } catch (error) {
    newsBox.textContent = error.message;
  }
});

// -- writing: every edit goes to the studio, which writes the file; the face redraws from the file ------

// One write: `body()` is called at send time, so a retry after a stale refusal carries the new version.
// A 400 is one line shown where the person was (`errorAt`); a 409 (the file changed on disk since) shows
// the file's new state and offers the same edit again in one click; nothing typed is lost.
async function send(url, body, {what, errorAt = null, refused = () => {}} = {}) {
  if (errorAt) errorAt.textContent = "";
  let answer;
  const payload = body();
  try {
    answer = await request(url, payload);
  } catch (error) {
    if (error.status === 409) await offerAgain(error, what, () => send(url, body, {what, errorAt, refused}));
    else {
      (errorAt || readout).textContent = error.message;
      refused(error);
    }
    return null;
  }
  staleBox.hidden = true;
  wroteAt = Math.max(wroteAt, answer.version || 0);
  edited = (payload instanceof FormData ? payload.get("id") : payload?.id) || edited;
  catchUp();  // at once, not waiting for the stream's word: the face redraws from the written file
  return answer;
}

// The version an edit is made on: the news the page has, or its own last write if the news of that is
// still on its way (a second edit right after a first is made on the first, not refused as stale).
let wroteAt = 0;
function base() {
  return Math.max(version, wroteAt);
}

async function request(url, body) {
  const form = body instanceof FormData;
  const headers = {"X-Studio-Token": TOKEN, "X-Studio-Tab": TAB};
  const response = await fetch(url, {method: "POST", body: form ? body : JSON.stringify(body),
                                     headers: form ? headers : {...headers, "Content-Type": "application/json"}});
  let answer = {};
  try { answer = await response.json(); } catch (error) { /* a proxy's page: the status says enough */ }
  if (!response.ok) {
    const error = new Error(answer.error || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.answer = answer;
    throw error;
  }
  return answer;
}

async function offerAgain(error, what, again) {
  await catchUp();      // the file's new state, as the faces now show it
  await refreshLarge();
  const button = el("button", {type: "button", class: "btn", "data-again": "", text: "Apply my edit again"});
  button.addEventListener("click", () => { staleBox.hidden = true; again(); });
  const now = Object.entries(error.answer.current || {}).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  staleBox.replaceChildren(el("span", {text: `${sentence(error.message)} The face now shows the file as saved`
                                       + (now.length ? ` (${now.join(", ")}). ` : ". ") + `Your edit: ${what}. `}),
                           button);
  staleBox.hidden = false;
  if (!dialog.open) { newsBox.replaceChildren(staleBox.cloneNode(true)); newsBox.querySelector("button").onclick = again; }
  button.focus();
}

function sentence(text) {
  return /[.!?]$/.test(text) ? text : text + ".";
}

// The undo and redo buttons, from what /news says a step would do (one line, or null for nothing) and the
// tab it was made in: two tabs share one journal, and a step of another tab's says so.
function showUndo(news) {
  for (const key of ["undo", "redo"]) {
    const whose = news[`${key}_tab`] === TAB ? "" : " (made in another tab)";
    for (const button of document.querySelectorAll(`[data-${key}]`)) {
      button.disabled = !news[key];
      button.title = news[key] ? `${key === "undo" ? "Undo" : "Redo"}: ${news[key]}${whose}` : `Nothing to ${key}`;
    }
  }
}

async function step(which) {
  const answer = await send(which, () => ({version: base()}), {what: which});
  if (!answer) return;
  const what = answer.undone || answer.redone;
  const line = `${which === "undo" ? "Undone" : "Done again"}: ${what} (${answer.whose} change).`;
  readout.textContent = line;
  if (!dialog.open) newsBox.textContent = line;
}

for (const button of document.querySelectorAll("[data-undo]")) button.addEventListener("click", () => step("undo"));
for (const button of document.querySelectorAll("[data-redo]")) button.addEventListener("click", () => step("redo"));
document.addEventListener("keydown", (event) => {
  const typing = event.target.closest("input:not([type=checkbox]):not([type=range]), textarea, [contenteditable]");
  if (typing || !(event.ctrlKey || event.metaKey) || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === "z" || key === "y") {
    event.preventDefault();
    step(key === "y" || event.shiftKey ? "redo" : "undo");
  }
});

// -- one face, large: look, edit, lay out -------------------------------------------------------------

const dialog = document.getElementById("large");
const bigFace = dialog.querySelector(".large-face");
const editForm = dialog.querySelector("[data-edit]");
const staleBox = dialog.querySelector("[data-stale]");
const readout = dialog.querySelector("[data-readout]");
const layoutSwitch = dialog.querySelector("[data-layout-mode]");
let large = null;  // the id of the face open large, and the version it shows

function openLarge(tile) {
  if (!tile.face) return;  // not drawn yet: it is on screen, so its drawing is on its way
  large = {id: tile.summary.id, version: null};
  staleBox.hidden = true;
  readout.textContent = "";
  showLarge(tile);
  if (!dialog.open) dialog.showModal();
}
dialog.addEventListener("close", () => { large = null; layoutSwitch.checked = false; bigFace.classList.remove("laying-out"); });

// The face open large follows the file: when its tile's version moves on, it is fetched and shown again.
async function refreshLarge() {
  const seen = version;
  const tile = large && tiles.get(large.id);
  if (!tile) return;
  const same = large.version === tile.summary.version && large.count === tile.summary.count;
  if (!same || tile.face?.version !== tile.summary.version) {
    if (tile.face?.version !== tile.summary.version) {
      const body = await (await fetch("faces?ids=" + encodeURIComponent(tile.summary.id))).json();
      const face = body.faces.find((f) => f.id === tile.summary.id && f.version === tile.summary.version);
      if (!face) return;  // moved on again meanwhile: the next news brings it
      tile.face = face;
    }
    if (!large || large.id !== tile.summary.id || dragging || nudged.size) return;
    showLarge(tile);
  }
  dialog.dataset.caughtUp = String(seen);  // the view shows the folder as of this version (tests wait on it)
}

function showLarge(tile) {
  const {face, summary} = tile;
  large.version = face.version;
  large.count = summary.count;
  const focused = document.activeElement;
  const keepBox = dialog.contains(focused) ? focused.dataset.box : null;
  bigFace.style.setProperty("--w", summary.width);
  bigFace.style.setProperty("--h", summary.height);
  bigFace.innerHTML = face.svg.replace(/f([0-9a-f]{12})-clip/g, "L$1-clip") + face.overlay;
  bigFace.append(boxLayer(face));
  bigFace.classList.toggle("laying-out", layoutSwitch.checked);
  bigFace.dataset.version = face.version;
  dialog.querySelector("[data-title]").textContent = `${summary.component_name}: ${summary.names.join(", ")}, ${summary.side}`;
  dialog.querySelector("[data-where]").textContent = `× ${summary.count}` + (player() ? "" : ` · ${summary.sources.join(" ")}`);
  const row = dialog.querySelector("[data-row]");
  fetch("row?id=" + encodeURIComponent(summary.id)).then((r) => r.json()).then((body) => {
    row.textContent = body.row || "";
  });
  dialog.querySelector("[data-warnings]").replaceChildren(...face.warnings.map((text) => el("li", {text})));
  fillForm(tile);
  if (keepBox) bigFace.querySelector(`[data-box="${CSS.escape(keepBox)}"]`)?.focus();
}

// What of a face can be written, from its JSON (docs/studio-api.md): its count, the fields its layout
// shows, its art, its layout's boxes; each with the file and line it comes from, or why it cannot be
// written here.
function editsOf(face) {
  const edit = face.edit || {fields: (face.fields || []).map(([name, value]) => ({name, value, writable: false}))};
  const fields = edit.fields || [];
  let count = fields.find((f) => f.name === "count") || null;
  // a face that stands for several items: its count is theirs together, written as one count where the studio
  // says so (`together`: a card and its variant), else changed in the file
  if (count && edit.items > 1 && !count.together) {
    count = {...count, writable: false, why: player() ? `this face stands for ${edit.items} cards alike, so its count is not changed here`
      : `this face stands for ${edit.items} items alike: change one in ${count.detail || count.where}`};
  }
  return {count, fields: fields.filter((f) => f.name !== "count"),
          art: edit.art || null, boxes: edit.boxes || [], layout: edit.layout || null};
}

const COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

// A field as a form control of its kind (text, integer, number, color, bool, choice, icon, file).
function fieldInput(field) {
  const value = field.value == null ? "" : String(field.value);
  const id = "edit-" + field.name.replace(/[^\w-]/g, "-");
  let input;
  if (field.kind === "integer") {
    input = el("input", {type: "number", step: "1", inputmode: "numeric"});
    if (field.name === "count") input.min = "0";
  } else if (field.kind === "bool") {
    input = el("input", {type: "checkbox"});
    input.checked = field.value === true;
  } else if (field.kind === "choice") {
    input = el("select", {}, ...(field.choices || []).map((choice) => el("option", {value: choice, text: choice})));
  } else if (field.kind === "text" && (value.length > 40 || value.includes("\n") || field.name === "text")) {
    input = el("textarea", {rows: String(Math.min(8, Math.max(3, Math.ceil(value.length / 40))))});
  } else {
    input = el("input", {type: "text", spellcheck: field.kind === "text" ? "true" : "false",
                         inputmode: field.kind === "number" ? "decimal" : "text"});
  }
  Object.assign(input, {id, name: field.name});
  if (field.kind !== "bool") input.value = value;
  if (field.several) input.dataset.several = JSON.stringify(field.several);  // asked on change: all, or one
  input.dataset.original = valueOf(input);
  input.dataset.kind = field.kind || "text";
  if (!field.writable) {
    input.readOnly = true;
    if (input.type === "checkbox" || input.tagName === "SELECT") input.disabled = true;
  }
  const parts = [el("label", {for: id, text: field.name}), input];
  if (field.kind === "color" && field.writable) {
    const swatch = el("input", {type: "color", class: "swatch", "aria-label": `Pick the ${field.name}`,
                                value: COLOR.test(value) ? fullHex(value) : "#000000"});
    swatch.addEventListener("change", () => { input.value = swatch.value; commit(input); });
    parts.push(swatch);
  }
  parts.push(el("span", {class: "error", "data-error": field.name}),
             ...note(field.writable ? "" : field.why, field.detail || field.where));
  return el("div", {class: "field", "data-field": field.name}, ...parts);
}

// Under a field: why it cannot be written, else where it is. A designer reads the file and line; a player
// reads the sentence, the file and line folded in a detail a designer can open.
function note(why, where) {
  if (!player() || !where) return [el("small", {class: "from", text: why || where || ""})];
  const file = where.replace(/ \(a new key\)$/, ", a line added there");
  return [...(why ? [el("small", {class: "from", text: why})] : []),
          el("details", {class: "from"}, el("summary", {text: "Which file"}), file)];
}

// What a control holds, as the edit sends it: a checkbox true or false, anything else its text.
function valueOf(input) {
  return input.type === "checkbox" ? String(input.checked) : input.value;
}

function fullHex(color) {
  return color.length === 4 ? "#" + [...color.slice(1)].map((c) => c + c).join("") : color;
}

function fillForm(tile) {
  const edits = editsOf(tile.face);
  const focused = editForm.contains(document.activeElement) ? document.activeElement : null;
  const typed = focused && focused.name && valueOf(focused) !== focused.dataset.original
    ? {name: focused.name, value: focused.value} : null;
  // Where some fields can be written, those that cannot (no such column, a list) go in a fold to keep the
  // form short; where none can (a workbook, one of our games), all show, each saying where to change it.
  // the count from the news: a count is not drawn, so the face's JSON may be from before it changed
  const all = edits.count ? [{...edits.count, value: tile.summary.count}, ...edits.fields] : edits.fields;
  const someWritable = all.some((field) => field.writable);
  const rows = [], aside = [];
  for (const field of all) (field.writable || !someWritable ? rows : aside).push(fieldInput(field));
  if (edits.art) {
    const file = el("input", {type: "file", id: "edit-art-file", accept: "image/png,image/jpeg,image/svg+xml"});
    file.disabled = !edits.art.writable;
    if (edits.art.several) file.dataset.several = JSON.stringify(edits.art.several);  // asked before it uploads
    file.addEventListener("change", () => { if (file.files.length) sendArt(tile.summary.id, file.files[0]); });
    rows.push(el("div", {class: "field art", "data-field": "art-file"},
                 el("label", {for: "edit-art-file", text: "picture"}), file,
                 el("span", {class: "error", "data-error": "art-file"}),
                 ...(!edits.art.writable ? note(edits.art.why, "") : player()
                   ? note("or drop an image on the face", edits.art.where)
                   : note(`or drop an image on the face; named in ${edits.art.where}`, ""))));
  }
  if (aside.length) {
    rows.push(el("details", {class: "aside"}, el("summary", {text: `${aside.length} more field${aside.length > 1 ? "s" : ""} this face could show`}),
                 el("div", {class: "edit"}, ...aside)));
  }
  editForm.replaceChildren(...rows);
  editForm.dataset.id = tile.summary.id;
  for (const input of editForm.querySelectorAll("[name]")) {
    keepRefused(tile.summary.id, input, input.closest(".field").querySelector(".error"));
  }
  const readOnly = dialog.querySelector("[data-read-only]");
  readOnly.textContent = folder.writable === false ? folder.why || "" : "";
  readOnly.hidden = !readOnly.textContent;
  if (focused?.name) {
    const again = editForm.querySelector(`[name="${CSS.escape(focused.name)}"]`);
    if (again) {
      if (typed && again.name === typed.name) again.value = typed.value;
      again.focus();
    }
  }
}

function commit(input, cards = null) {
  const typed = valueOf(input);
  if (input.readOnly || input.disabled || typed === input.dataset.original) return;
  if (input.dataset.several && !cards) return askSeveral(input);
  const value = input.type === "checkbox" ? input.checked
    : input.dataset.kind === "integer" && /^-?\d+$/.test(typed) ? Number(typed) : typed;
  const id = input.closest("[data-id]").dataset.id;
  input.dataset.original = typed;  // sent once; a refusal says why and the face keeps the file's value
  const errorAt = input.closest(".field, figcaption")?.querySelector(".error");
  const key = `${id}\n${input.name}`;
  send("edit", () => ({id, set: {[input.name]: value}, version: base(), ...(cards ? {cards} : {})}),
       {what: `${input.name} = ${JSON.stringify(value)}`, errorAt,
        refused: (error) => refusals.set(key, {typed, error: error.message})})
    .then((answer) => { if (answer) refusals.delete(key); });
}

// A face standing for several items alike: one plain question under the field, before anything is written —
// all its cards take the new value, or one card does, split out as an item of its own. Escape or Cancel takes
// the typed value back.
function askSeveral(input) {
  askCards(input, (cards) => commit(input, cards), () => {
    input.value = input.dataset.original;
    input.focus();
  });
}

// The question itself, under `control` (its `several` from the face's JSON): `send(cards)` with the answer,
// `cancelled()` for Escape or Cancel. Asked again, it asks afresh (a second picture dropped replaces the first).
function askCards(control, send, cancelled) {
  control.closest(".field").querySelector("[data-ask]")?.remove();
  const several = JSON.parse(control.dataset.several);
  const all = el("button", {type: "button", class: "btn", text: `All ${several.cards} cards`});
  const one = el("button", {type: "button", class: "btn secondary", text: "Only this card"});
  const cancel = el("button", {type: "button", class: "btn secondary", text: "Cancel"});
  const ask = el("fieldset", {class: "ask", "data-ask": ""}, el("legend", {text: several.question}), all, " ", one,
                 " ", cancel);
  const answer = (cards) => {
    ask.remove();
    return cards ? send(cards) : cancelled();
  };
  all.addEventListener("click", () => answer("all"));
  one.addEventListener("click", () => answer("one"));
  cancel.addEventListener("click", () => answer(null));
  ask.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    answer(null);
  });
  control.after(ask);
  all.focus();
}

// Values refused (400), by face id and field: they stay in their field, with their line, when the form is
// filled again from the file (another edit, a save elsewhere), until the person changes them.
const refusals = new Map();

function keepRefused(id, input, errorAt) {
  const refusal = refusals.get(`${id}\n${input.name}`);
  if (!refusal) return;
  if (document.activeElement !== input) input.value = refusal.typed;
  input.dataset.original = refusal.typed;
  if (errorAt) errorAt.textContent = refusal.error;
}

editForm.addEventListener("change", (event) => { if (event.target.name && event.target.type !== "file") commit(event.target); });
editForm.addEventListener("keydown", (event) => {
  const input = event.target;
  if (event.key === "Enter" && input.name && (input.tagName !== "TEXTAREA" || event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    commit(input);
  } else if (event.key === "Escape" && input.name && input.type !== "checkbox" && input.value !== input.dataset.original) {
    event.preventDefault();  // the first Escape takes back what was typed, the second closes the view
    input.value = input.dataset.original;
  }
});

// -- art: dropped on a face or picked -------------------------------------------------------------------

// On a face standing for several items alike the picture waits for the one question an edit asks (all its
// cards, or only this one) and is uploaded with the answer; Cancel uploads nothing.
function sendArt(id, file, cards = null) {
  const picker = editForm.dataset.id === id ? editForm.querySelector("#edit-art-file") : null;
  if (picker?.dataset.several && !cards) {
    return askCards(picker, (chosen) => sendArt(id, file, chosen), () => { picker.value = ""; picker.focus(); });
  }
  const errorAt = document.querySelector(`[data-id="${CSS.escape(id)}"] [data-error="art-file"]`)
    || document.querySelector(`#t-${CSS.escape(id)} .error`);
  send("art", () => {
    const form = new FormData();
    form.append("id", id);
    form.append("version", String(base()));
    if (cards) form.append("cards", cards);
    form.append("file", file, file.name);
    return form;
  }, {what: `picture ${file.name}`, errorAt});
}

function takesDrops(target, idOf) {
  target.addEventListener("dragover", (event) => {
    if (![...event.dataTransfer.types].includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    target.classList.add("drop-here");
  });
  target.addEventListener("dragleave", () => target.classList.remove("drop-here"));
  target.addEventListener("drop", (event) => {
    target.classList.remove("drop-here");
    const file = event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    sendArt(idOf(), file);
  });
}
takesDrops(bigFace, () => large.id);

// -- layout mode: the face's boxes outlined, moved and resized by hand -----------------------------------

const SNAP = 0.5;   // mm: a drag lands on this grid
const NUDGE = 0.1;  // mm: an arrow key's step (Shift: 1 mm)
const ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};  // a key's way across, down
const SMALLEST = 1; // mm: a box is never dragged smaller
const HANDLES = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];
let dragging = null;  // the drag under way: the box's node, its rectangle then and now, the pointer then
const nudged = new Map();  // box name -> timer of a write waiting for the arrows to rest

layoutSwitch.addEventListener("change", () => {
  bigFace.classList.toggle("laying-out", layoutSwitch.checked);
  const first = bigFace.querySelector(".box");
  first?.focus();
  readout.textContent = layoutSwitch.checked
    ? "Drag a box to move it, a handle to resize it (0.5 mm steps); arrow keys move the box in focus 0.1 mm (Shift: 1 mm), with Alt they resize it. "
      + reach(first?.dataset.box || "a box")
    : "";
});

// What a move changes, said before it is written: a box belongs to the layout, so it moves on every piece
// drawn with that layout ("Moving title moves it on all 18 pieces of Ability cards.").
function reach(box) {
  const layout = tiles.get(large?.id)?.summary.layout;
  const same = [...tiles.values()].map((tile) => tile.summary).filter((summary) => summary.layout === layout);
  const pieces = same.reduce((sum, summary) => sum + summary.count, 0);
  const names = [...new Set(same.map((summary) => summary.component_name))].join(", ");
  if (same.length <= 1 && pieces <= 1) return `Moving ${box} changes this one piece only.`;
  return `Moving ${box} moves it on all ${pieces} pieces of ${names} (the layout ${layout}).`;
}

bigFace.addEventListener("focusin", (event) => {
  const node = event.target.closest(".box");
  if (node && !node.classList.contains("fixed") && !dragging) readout.textContent = reach(node.dataset.box);
});

// The face's own box in millimetres (bleed included), from its overlay's viewBox.
function faceBox(face) {
  const [x, y, w, h] = face.overlay.match(/viewBox="([^"]+)"/)[1].split(" ").map(Number);
  return {x, y, w, h};
}

function boxLayer(face) {
  const whole = faceBox(face);
  const layer = el("div", {class: "boxes", "data-whole": JSON.stringify(whole)});
  for (const box of editsOf(face).boxes) {
    const node = el("div", {class: "box", tabindex: "0", role: "group", "data-box": box.name,
                            "aria-label": `box ${box.name}`});
    node.append(el("span", {class: "box-name", text: box.name}), el("span", {class: "box-size"}));
    if (box.movable !== false && editsOf(face).layout?.writable !== false) node.append(...HANDLES.map((h) => el("span", {class: "handle", "data-handle": h})));
    else node.classList.add("fixed");
    node.rect = {x: box.x, y: box.y, w: box.w, h: box.h};
    place(node, node.rect, whole);
    layer.append(node);
  }
  return layer;
}

function place(node, rect, whole) {
  node.style.left = `${(rect.x - whole.x) / whole.w * 100}%`;
  node.style.top = `${(rect.y - whole.y) / whole.h * 100}%`;
  node.style.width = `${rect.w / whole.w * 100}%`;
  node.style.height = `${rect.h / whole.h * 100}%`;
  const text = `x ${mm(rect.x)}  y ${mm(rect.y)}  w ${mm(rect.w)}  h ${mm(rect.h)} mm`;
  node.querySelector(".box-size").textContent = text;
  node.title = `${node.dataset.box}: ${text}`;
}

function mm(value) {
  return String(Math.round(value * 100) / 100);
}

const snap = (value) => Math.round(value / SNAP) * SNAP;
const tenth = (value) => Math.round(value * 10) / 10;

// Where a rectangle goes when the pointer moved (dx, dy) mm holding `handle` ("move" or a compass point).
function dragged(start, handle, dx, dy) {
  if (handle === "move") return {...start, x: snap(start.x + dx), y: snap(start.y + dy)};
  let left = start.x, top = start.y, right = start.x + start.w, bottom = start.y + start.h;
  if (handle.includes("w")) left = Math.min(snap(left + dx), right - SMALLEST);
  if (handle.includes("e")) right = Math.max(snap(right + dx), left + SMALLEST);
  if (handle.includes("n")) top = Math.min(snap(top + dy), bottom - SMALLEST);
  if (handle.includes("s")) bottom = Math.max(snap(bottom + dy), top + SMALLEST);
  return {x: left, y: top, w: right - left, h: bottom - top};
}

bigFace.addEventListener("pointerdown", (event) => {
  const node = event.target.closest(".box");
  if (!node || node.classList.contains("fixed") || event.button !== 0) return;
  event.preventDefault();
  node.focus();
  node.setPointerCapture(event.pointerId);
  const whole = JSON.parse(node.parentElement.dataset.whole);
  dragging = {node, whole, start: {...node.rect}, handle: event.target.dataset.handle || "move",
              from: [event.clientX, event.clientY], perPixel: whole.w / bigFace.getBoundingClientRect().width};
  node.classList.add("dragging");
});

bigFace.addEventListener("pointermove", (event) => {
  if (!dragging) return;
  const {node, start, handle, from, perPixel, whole} = dragging;
  node.rect = dragged(start, handle, (event.clientX - from[0]) * perPixel, (event.clientY - from[1]) * perPixel);
  place(node, node.rect, whole);
  readout.textContent = `${node.dataset.box}: ${node.querySelector(".box-size").textContent}`;
});

function endDrag() {
  if (!dragging) return;
  const {node, start} = dragging;
  dragging = null;
  node.classList.remove("dragging");
  if (["x", "y", "w", "h"].some((key) => node.rect[key] !== start[key])) move(node);
}
bigFace.addEventListener("pointerup", endDrag);
bigFace.addEventListener("lostpointercapture", endDrag);

bigFace.addEventListener("keydown", (event) => {
  const node = event.target.closest(".box");
  const arrow = ARROWS[event.key];
  if (!node || !arrow || node.classList.contains("fixed")) return;
  event.preventDefault();
  const by = event.shiftKey ? 1 : NUDGE;
  const rect = node.rect;
  // only the key the arrow moves changes: the other keeps its value (an expression's 12.98 is not sent as 13)
  const [across, down] = event.altKey ? ["w", "h"] : ["x", "y"];
  const least = event.altKey ? SMALLEST : -Infinity;
  if (arrow[0]) rect[across] = tenth(Math.max(least, rect[across] + arrow[0] * by));
  if (arrow[1]) rect[down] = tenth(Math.max(least, rect[down] + arrow[1] * by));
  place(node, rect, JSON.parse(node.parentElement.dataset.whole));
  readout.textContent = `${node.dataset.box}: ${node.querySelector(".box-size").textContent}`;
  clearTimeout(nudged.get(node.dataset.box));
  nudged.set(node.dataset.box, setTimeout(() => { nudged.delete(node.dataset.box); move(node); }, 400));
});

// A move sends where the box is now; the studio writes only the keys that changed. A key the layout sets by
// an expression (y: title_h + 2) is asked about first: keep it following, or set the number moved to.
function move(node, numbers = false) {
  const {x, y, w, h} = node.rect;
  const id = large.id, box = node.dataset.box;
  let follows = null;
  send("move", () => ({id, box, x, y, w, h, version: base(), ...(numbers ? {numbers: true} : {})}),
       {what: `box ${box} to x ${mm(x)}, y ${mm(y)}, w ${mm(w)}, h ${mm(h)} mm`,
        refused: (error) => { follows = error.answer?.expressions || null; }}).then((answer) => {
    const tile = tiles.get(id);
    if (!answer && tile?.face && large?.id === id) showLarge(tile);  // refused: the box goes back where the file has it
    if (!answer && follows) askNumbers(id, box, {x, y, w, h}, follows);
  });
}

function askNumbers(id, box, rect, follows) {
  const keys = Object.entries(follows).map(([key, expression]) => `${key} follows ${expression}`).join(", ");
  const number = el("button", {type: "button", class: "btn", text: "Set the number I moved it to"});
  const keep = el("button", {type: "button", class: "btn", text: "Keep it following"});
  readout.replaceChildren(el("span", {text: `Box ${box}: ${keys}. `}), number, " ", keep);
  keep.addEventListener("click", () => { readout.textContent = ""; });
  number.addEventListener("click", () => {
    readout.textContent = "";
    const node = bigFace.querySelector(`.box[data-box="${CSS.escape(box)}"]`);
    if (node && large?.id === id) { node.rect = {...rect}; move(node, true); }
  });
  number.focus();
}

// -- one of our games: read-only until the person makes a copy of their own --------------------------

const customise = document.getElementById("customise");
const customiseForm = customise.querySelector("[data-customise]");
document.querySelector("[data-open-customise]")?.addEventListener("click", () => {
  customiseForm.querySelector("[data-error]").textContent = "";
  customise.showModal();
  customiseForm.elements.folder.select();
});
customiseForm.querySelector("[data-cancel]").addEventListener("click", () => customise.close());
customiseForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = customiseForm.querySelector("[type=submit]");
  button.disabled = true;
  try {
    await request("customise", {folder: customiseForm.elements.folder.value.trim()});
    customise.close();
    for (const tile of tiles.values()) forget(tile);  // every face again: each now says what can be written
    version = wroteAt = 0;
    await catchUp();
  } catch (error) {
    customiseForm.querySelector("[data-error]").textContent = error.message;
  } finally {
    button.disabled = false;
  }
});

// The header says which folder this is; one of ours offers Customise; an overrides folder says where the
// person's changes go and how to print them.
function showFolder() {
  document.body.classList.toggle("read-only", folder.writable === false);
  const button = document.querySelector("[data-open-customise]");
  button.hidden = !(folder.builtin && folder.writable === false);
  const name = document.querySelector("[data-folder]");
  if (folder.path) Object.assign(name, {textContent: folder.path.split(/[\\/]/).pop(), title: folder.path});
  const where = document.querySelector("[data-own-copy]");
  where.hidden = !(folder.overrides && folder.writable);
  if (where.hidden || where.dataset.path === folder.path) return;
  where.dataset.path = folder.path;
  const build = el("button", {type: "button", class: "btn", "data-build-open": "", text: "Build the PDF and open it"});
  build.addEventListener("click", buildAndOpen);
  where.replaceChildren("Your copy is ", el("code", {text: folder.path}),
                        ": your changes go into its overrides.yaml and art/, our files stay as they are. To print it: ",
                        el("code", {"data-build-line": "", text: folder.build}),
                        ...(folder.out ? [". The PDF will be in ", el("code", {"data-pdf-folder": "", text: folder.out})] : []),
                        ". ", build);
}

// The Print PDF build, its file opened in a new tab when it is made. The tab is opened at the click (a tab
// opened seconds later, when the build is done, is a pop-up a browser blocks) and shown the PDF once made.
async function buildAndOpen() {
  const tab = window.open("about:blank", "_blank");
  try {
    const job = await request("build", {kind: "pdf"});
    for (;;) {
      const body = await (await fetch("jobs")).json();
      showJobs(body.jobs);
      const now = body.jobs.find((entry) => entry.id === job.id);
      if (now?.state === "done") {
        if (tab) tab.location = new URL("output/" + now.result, location.href).href;
        return;
      }
      if (!now || now.state === "failed") throw new Error(now?.error || "the build stopped");
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  } catch (error) {
    tab?.close();
    newsBox.textContent = sentence(`The PDF was not made: ${error.message}`);
  }
}

catchUp().then(follow);
