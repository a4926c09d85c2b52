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
const TOKEN = document.querySelector('meta[name="studio-token"]').content;  // every write carries it back

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
  const face = el("div", {class: "face", role: "button", tabindex: "0", "aria-label": "Open large"});
  const pick = el("input", {type: "checkbox", class: "pick", "aria-label": "Choose for the proof sheet"});
  pick.addEventListener("change", () => {
    pick.checked ? picked.add(summary.id) : picked.delete(summary.id);
    document.querySelector("[data-picked]").textContent = picked.size;
    document.getElementById("proof").disabled = picked.size === 0;
  });
  const caption = el("figcaption", {}, el("label", {class: "pick-label"}, pick, el("b", {class: "names"})),
                     el("span", {class: "count"}), el("span", {class: "where"}),
                     el("ol", {class: "warnings"}));
  const node = el("figure", {class: "tile", id: "t-" + summary.id, "data-id": summary.id, "data-paints": "0"},
                  face, caption);
  const tile = {summary, el: node, drawn: null, face: null};
  face.addEventListener("click", () => openLarge(tile));
  face.addEventListener("keydown", (event) => { if (event.key === "Enter") openLarge(tile); });
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
  node.querySelector(".count").textContent = `× ${summary.count}`;
  node.querySelector(".where").textContent = summary.sources.join(" ");
  if (old && old.count !== summary.count) flash(node, `count ${old.count} → ${summary.count}`);
}

function flash(node, text) {
  node.dataset.changed = text;
  setTimeout(() => { if (node.dataset.changed === text) delete node.dataset.changed; }, 4000);
}

function heading(summary) {
  return el("h2", {class: "component", "data-component": summary.component, text: summary.component_name});
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
  main.replaceChildren(...parts);  // one task: the browser lays out once, the scroll stays where it was
  for (const tile of tiles.values()) observer.observe(tile.el);
}

function applyNews(news) {
  if (news.error) {
    banner.textContent = news.error;
    banner.hidden = false;
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
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
    `${news.distinct} distinct faces, ${news.faces} pieces`;
  version = news.version;
  document.body.dataset.version = version;
  for (const tile of tiles.values()) if (tile.near && tile.drawn !== tile.summary.version) want(tile);
}

// -- drawing faces near the screen -----------------------------------------------------------------------

const wanted = new Set();
let asking = false;

function want(tile) {
  wanted.add(tile.summary.id);
  if (!asking) { asking = true; queueMicrotask(ask); }
}

async function ask() {
  while (wanted.size) {
    const ids = [...wanted].slice(0, 40);
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
  if (tile.drawn === face.version) return;
  tile.drawn = face.version;
  const box = tile.el.querySelector(".face");
  box.innerHTML = face.svg + face.overlay;
  const list = tile.el.querySelector(".warnings");
  list.replaceChildren(...face.warnings.map((text) => el("li", {text})));
  tile.el.classList.toggle("has-warnings", face.warnings.length > 0);
  tile.el.dataset.paints = String(Number(tile.el.dataset.paints) + 1);
}

function forget(tile) {
  tile.drawn = null;
  tile.face = null;
  tile.el.querySelector(".face").replaceChildren();
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

async function post(url, body) {
  const response = await fetch(url, {method: "POST", body: JSON.stringify(body),
                                     headers: {"Content-Type": "application/json", "X-Studio-Token": TOKEN}});
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

for (const box of document.querySelectorAll("[data-setting]")) {
  box.addEventListener("change", async () => {
    const options = [...document.querySelectorAll('input[name="option"]:checked')].map((b) => b.value);
    try {
      await post("settings", {ink: document.getElementById("ink-low").checked ? "low" : "full",
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
      await post("build", {kind: button.dataset.build});
      watchJobs();
    } catch (error) {
      newsBox.textContent = error.message;
    }
  });
}

document.getElementById("proof").addEventListener("click", async () => {
  try {
    const answer = await post("proof", {ids: [...picked]});
    newsBox.replaceChildren("Proof sheet: ", el("a", {href: "output/" + answer.result, target: "_blank",
                                                       "data-proof": "", text: answer.result}));
  } catch (error) {
    newsBox.textContent = error.message;
  }
});

// -- one face, large -----------------------------------------------------------------------------------

const dialog = document.getElementById("large");
function openLarge(tile) {
  const face = tile.face;
  if (!face) return;  // not drawn yet: it is on screen, so its drawing is on its way
  const summary = tile.summary;
  const big = dialog.querySelector(".large-face");
  big.style.setProperty("--w", summary.width);
  big.style.setProperty("--h", summary.height);
  big.innerHTML = face.svg.replace(/f([0-9a-f]{12})-clip/g, "L$1-clip") + face.overlay;
  dialog.querySelector("[data-title]").textContent = `${summary.component_name}: ${summary.names.join(", ")}, ${summary.side}`;
  dialog.querySelector("[data-where]").textContent = `× ${summary.count} · ${summary.sources.join(" ")}`;
  const row = dialog.querySelector("[data-row]");
  row.textContent = "";
  fetch("row?id=" + encodeURIComponent(summary.id)).then((r) => r.json()).then((body) => {
    row.textContent = body.row || "";
  });
  dialog.querySelector("[data-warnings]").replaceChildren(...face.warnings.map((text) => el("li", {text})));
  dialog.querySelector("[data-fields]").replaceChildren(...face.fields.map(([key, value]) =>
    el("tr", {}, el("th", {scope: "row", text: key}), el("td", {text: value}))));
  dialog.showModal();
}

catchUp().then(follow);
