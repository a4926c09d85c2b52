// starpnp studio: the card list beside the faces (cardlist.py). Every component's cards as rows; choose
// rows and add, duplicate, delete or move them, or set one column for all of them at once. Each change is
// one write of the list's file by the studio (studio.js's send: the 409 of a stale page and Undo as for
// any edit); the list is read again whenever the folder's version moves on.
"use strict";

(() => {
  const panel = document.getElementById("cardlist");
  const opener = document.querySelector("[data-open-cardlist]");
  const picker = panel.querySelector("[data-cl-component]");
  const columnPicker = panel.querySelector("[data-cl-column]");
  const valueInput = panel.querySelector("[data-cl-value]");
  const status = panel.querySelector("[data-cl-status]");
  const where = panel.querySelector("[data-cl-where]");
  const head = panel.querySelector("thead");
  const body = panel.querySelector("tbody");
  let list = null;          // the component's list as /cards gave it
  let shownAt = -1;         // the version it was read at
  const chosen = new Set(); // row numbers (from 0) chosen
  let focusRow = null;      // the row to focus once the list is drawn again (after a move by keyboard)

  // The panel hangs under the header, however many lines its controls wrap to.
  const placePanel = () => document.body.style.setProperty(
    "--cardlist-top", `${Math.ceil(document.querySelector("header.top").getBoundingClientRect().bottom)}px`);
  addEventListener("resize", placePanel);

  opener.addEventListener("click", () => {
    placePanel();
    const open = panel.hidden;
    panel.hidden = !open;
    opener.setAttribute("aria-pressed", String(open));
    document.body.classList.toggle("with-cardlist", open);
    if (open) load(true);
  });

  async function load(components = false) {
    const wanted = picker.value || "";
    const answer = await (await fetch("cards" + (wanted && !components ? `?component=${encodeURIComponent(wanted)}` : ""))).json();
    if (components || !picker.options.length) {
      picker.replaceChildren(...answer.lists.map((entry) => el("option", {value: entry.component, text: entry.name})));
      if (wanted && answer.lists.some((entry) => entry.component === wanted)) picker.value = wanted;
    }
    const found = answer.lists.find((entry) => entry.component === picker.value) || answer.lists[0];
    if (found) draw(found, answer.version);
  }

  picker.addEventListener("change", () => { chosen.clear(); load(); });

  function draw(entry, at) {
    if (list?.component !== entry.component) chosen.clear();
    list = entry;
    shownAt = at;
    for (const row of [...chosen]) if (row >= entry.rows.length) chosen.delete(row);
    where.textContent = !entry.writable ? entry.why : entry.kind === "overrides"
      ? "Your copy's cards: added and copied cards go last, a deleted one is left out; the game's own files stay as they are."
      : `Written to ${entry.file}.`;
    panel.classList.toggle("read-only", !entry.writable);
    for (const button of panel.querySelectorAll("[data-cl]")) button.disabled = !entry.writable;
    const kept = columnPicker.value;
    columnPicker.replaceChildren(...entry.columns.map((name) => el("option", {value: name, text: name})));
    if (entry.columns.includes(kept)) columnPicker.value = kept;
    else if (entry.columns.includes("count")) columnPicker.value = "count";
    head.replaceChildren(el("tr", {}, el("th", {scope: "col", text: "Chosen"}), el("th", {scope: "col", text: "#"}),
                            ...entry.columns.map((name) => el("th", {scope: "col", text: name}))));
    body.replaceChildren(...entry.rows.map((row, index) => rowOf(row, index)));
    if (focusRow !== null) {
      body.querySelectorAll("input.cl-pick")[focusRow]?.focus();
      focusRow = null;
    }
  }

  function cardName(row, index) {
    for (const key of ["title", "name", "label"]) if (row.values[key]) return row.values[key];
    return `card ${index + 1}`;
  }

  function rowOf(row, index) {
    const name = cardName(row, index);
    const pick = el("input", {type: "checkbox", class: "cl-pick", "aria-label": `Choose ${name} (row ${index + 1})`});
    pick.checked = chosen.has(index);
    pick.addEventListener("change", () => { pick.checked ? chosen.add(index) : chosen.delete(index); });
    const tr = el("tr", {"data-row": String(index), draggable: String(list.writable)},
                  el("td", {}, pick), el("td", {class: "cl-number", text: String(index + 1)}),
                  ...list.columns.map((column) => el("td", {text: row.values[column] ?? ""})));
    tr.classList.toggle("chosen", pick.checked);
    pick.addEventListener("change", () => tr.classList.toggle("chosen", pick.checked));
    tr.addEventListener("dragstart", (event) => {
      event.dataTransfer.setData("text/x-card-row", String(index));
      event.dataTransfer.effectAllowed = "move";
    });
    tr.addEventListener("dragover", (event) => {
      if (![...event.dataTransfer.types].includes("text/x-card-row")) return;
      event.preventDefault();
      tr.classList.add("drop-here");
    });
    tr.addEventListener("dragleave", () => tr.classList.remove("drop-here"));
    tr.addEventListener("drop", (event) => {
      tr.classList.remove("drop-here");
      const from = Number(event.dataTransfer.getData("text/x-card-row"));
      if (Number.isNaN(from) || from === index) return;
      event.preventDefault();
      change("move", {row: from, to: index});
    });
    return tr;
  }

  // Alt+Up / Alt+Down on a row moves that card (the keyboard's drag).
  body.addEventListener("keydown", (event) => {
    const by = {ArrowUp: -1, ArrowDown: 1}[event.key];
    const tr = event.target.closest("tr[data-row]");
    if (!by || !event.altKey || !tr || !list?.writable) return;
    event.preventDefault();
    const from = Number(tr.dataset.row), to = from + by;
    if (to < 0 || to >= list.rows.length) return;
    focusRow = to;
    change("move", {row: from, to});
  });

  const picked = () => [...chosen].sort((a, b) => a - b);

  panel.addEventListener("click", (event) => {
    const button = event.target.closest("[data-cl]");
    if (!button || !list) return;
    const rows = picked();
    const action = button.dataset.cl;
    if (action === "add") return change("add", {at: rows.length ? rows[rows.length - 1] + 1 : list.rows.length});
    if (!rows.length) { status.textContent = "Choose a card first (the box at the start of its row)."; return; }
    if (action === "copy" || action === "delete") return change(action, {rows});
    if (action === "up" || action === "down") {
      if (rows.length !== 1) { status.textContent = "Choose one card to move."; return; }
      const to = rows[0] + (action === "up" ? -1 : 1);
      if (to < 0 || to >= list.rows.length) return;
      chosen.clear();
      chosen.add(to);
      return change("move", {row: rows[0], to});
    }
    if (action === "set") return change("set", {rows, column: columnPicker.value, value: valueInput.value});
  });
  valueInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); panel.querySelector('[data-cl="set"]').click(); }
  });

  async function change(action, fields) {
    const component = list.component;
    if (action === "delete") chosen.clear();
    const answer = await send(`cards/${action}`, () => ({component, version: base(), ...fields}),
                              {what: `${action} in the card list`, errorAt: status});
    if (!answer) return;
    status.textContent = `Done: ${answer.done}. Undo takes it back.`;
    await load();
  }

  // The folder moved on (this page's change, another tab's, a save in an editor): read the list again.
  new MutationObserver(() => {
    if (!panel.hidden && Number(document.body.dataset.version) !== shownAt) load();
  }).observe(document.body, {attributes: true, attributeFilter: ["data-version"]});
})();
