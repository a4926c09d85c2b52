// starpnp studio, layout mode beyond a move: zoom the large view (to 400 %, the pointer as the centre),
// guides that snap a dragged box, and stop an arrow key's nudge, on the other boxes and the safe zone (Ctrl held: no guides), a box added or deleted, a text's font,
// a picture's fit and focus (drag the picture inside its box with Alt held), and the face as a PNG.
// It runs beside studio.js and uses its names (bigFace, dragging, large, send, base, readout, place, el …).
"use strict";

(() => {
  const SAFE = 3;            // mm inside the trim: the safe zone the overlay shows (desk.SAFE)
  const SNAP_PX = 6;         // a dragged edge or centre this close (on screen) to a guide lands on it
  const ZOOMS = [1, 1.25, 1.5, 2, 2.5, 3, 4];  // the large view's zoom steps: 100 % to 400 %
  const layoutSwitch = dialog.querySelector("[data-layout-mode]");
  const tools = dialog.querySelector(".edit-tools");

  // -- zoom: the face in a view that scrolls; the point under the pointer stays under it ----------------

  // focusable: zoomed in, the keyboard scrolls it (arrows, Page Up/Down) as a scroll bar does
  const view = el("div", {class: "large-view", "data-large-view": "", tabindex: "0", role: "region",
                          "aria-label": "The face, zoomable"});
  bigFace.before(view);
  view.append(bigFace);
  let zoom = 1;
  const zoomOut = el("button", {type: "button", class: "btn secondary", "data-zoom-out": "", "aria-label": "Zoom out", text: "−"});
  const zoomShown = el("button", {type: "button", class: "btn secondary", "data-zoom-reset": "",
                                  "aria-label": "100 %: zoom to fit", text: "100 %"});
  const zoomIn = el("button", {type: "button", class: "btn secondary", "data-zoom-in": "", "aria-label": "Zoom in", text: "+"});
  const png = el("a", {class: "btn secondary", "data-export-png": "", href: "#", download: "", text: "Export PNG",
                       title: "This face as a PNG at the build's dpi, bleed included"});
  tools.append(el("span", {class: "zoom-tools", role: "group", "aria-label": "Zoom"}, zoomOut, zoomShown, zoomIn), png);

  function setZoom(next, pivot) {
    next = Math.min(4, Math.max(1, next));
    const rect = view.getBoundingClientRect();
    const at = pivot || {x: rect.left + rect.width / 2, y: rect.top + rect.height / 2};
    const px = at.x - rect.left, py = at.y - rect.top;
    const contentX = view.scrollLeft + px, contentY = view.scrollTop + py;
    const ratio = next / zoom;
    zoom = next;
    view.style.setProperty("--large-zoom", zoom);
    view.scrollLeft = contentX * ratio - px;
    view.scrollTop = contentY * ratio - py;
    zoomShown.textContent = `${Math.round(zoom * 100)} %`;
    zoomShown.setAttribute("aria-label", `${zoomShown.textContent}: zoom to fit`);
    view.dataset.zoom = String(zoom);
  }
  const step = (by) => {
    const index = ZOOMS.findIndex((z) => z >= zoom - 1e-6);
    return ZOOMS[Math.min(ZOOMS.length - 1, Math.max(0, (ZOOMS[index] > zoom + 1e-6 && by > 0 ? index - 1 : index) + by))];
  };
  zoomIn.addEventListener("click", () => setZoom(step(1)));
  zoomOut.addEventListener("click", () => setZoom(step(-1)));
  zoomShown.addEventListener("click", () => setZoom(1));
  view.addEventListener("wheel", (event) => {
    event.preventDefault();
    setZoom(zoom * Math.exp(-event.deltaY / 400), {x: event.clientX, y: event.clientY});
  }, {passive: false});
  dialog.addEventListener("keydown", (event) => {
    if (event.target.closest("input:not([type=checkbox]), textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const by = {"+": 1, "=": 1, "-": -1, "_": -1}[event.key];
    if (by) { event.preventDefault(); setZoom(step(by)); }
    else if (event.key === "0") { event.preventDefault(); setZoom(1); }
  });
  dialog.addEventListener("close", () => setZoom(1));

  // -- guides: a dragged box snaps to the other boxes' edges and centres and to the safe zone -----------

  const guides = el("div", {class: "guides", "aria-hidden": "true"});
  const hideGuides = () => guides.replaceChildren();

  function lines(node) {
    const size = faceSize();
    const across = [SAFE, size.w - SAFE, size.w / 2], down = [SAFE, size.h - SAFE, size.h / 2];
    for (const other of bigFace.querySelectorAll(".box")) {
      if (other === node || !other.rect) continue;
      const r = other.rect;
      across.push(r.x, r.x + r.w / 2, r.x + r.w);
      down.push(r.y, r.y + r.h / 2, r.y + r.h);
    }
    return {across, down};
  }

  function faceSize() {
    const face = tiles.get(large?.id)?.face;
    return face?.edit?.size || {w: 0, h: 0};
  }

  // The nearest guide to any of `edges` (those the drag moves), within reach: how far to shift, and where.
  function nearest(edges, candidates, reach) {
    let best = null;
    for (const edge of edges) for (const line of candidates) {
      const by = line - edge;
      if (Math.abs(by) <= reach && (!best || Math.abs(by) < Math.abs(best.by))) best = {by, line};
    }
    return best;
  }

  bigFace.addEventListener("pointermove", (event) => {
    if (!dragging || dragging.focus) return;
    if (event.ctrlKey || event.metaKey) { hideGuides(); return; }  // held: the 0.5 mm grid alone, no guides
    const {node, handle, whole, perPixel} = dragging;
    const rect = {...node.rect};
    const {across, down} = lines(node);
    const reach = SNAP_PX * perPixel;
    const shown = [];
    const moveX = handle === "move", moveY = handle === "move";
    const xs = moveX ? [rect.x, rect.x + rect.w / 2, rect.x + rect.w] : handle.includes("w") ? [rect.x] : handle.includes("e") ? [rect.x + rect.w] : [];
    const ys = moveY ? [rect.y, rect.y + rect.h / 2, rect.y + rect.h] : handle.includes("n") ? [rect.y] : handle.includes("s") ? [rect.y + rect.h] : [];
    const gx = nearest(xs, across, reach), gy = nearest(ys, down, reach);
    if (gx) {
      if (moveX) rect.x += gx.by; else if (handle.includes("w")) { rect.x += gx.by; rect.w -= gx.by; } else rect.w += gx.by;
      shown.push({x: gx.line});
    }
    if (gy) {
      if (moveY) rect.y += gy.by; else if (handle.includes("n")) { rect.y += gy.by; rect.h -= gy.by; } else rect.h += gy.by;
      shown.push({y: gy.line});
    }
    for (const key of ["x", "y", "w", "h"]) rect[key] = Math.round(rect[key] * 100) / 100;
    if (gx || gy) {
      node.rect = rect;
      place(node, rect, whole);
      readout.textContent = `${node.dataset.box}: ${node.querySelector(".box-size").textContent} (on a guide)`;
    }
    drawGuides(shown, whole);
  });

  function drawGuides(shown, whole) {
    guides.replaceChildren(...shown.map((line) => {
      const mark = el("span", {class: "guide", "data-guide": "x" in line ? "x" : "y"});
      if ("x" in line) mark.style.left = `${(line.x - whole.x) / whole.w * 100}%`;
      else mark.style.top = `${(line.y - whole.y) / whole.h * 100}%`;
      return mark;
    }));
    if (!guides.isConnected) bigFace.querySelector(".boxes")?.append(guides);
  }
  bigFace.addEventListener("pointerup", hideGuides);
  bigFace.addEventListener("lostpointercapture", hideGuides);

  // An arrow key's nudge (studio.js has moved the box a step) stops on the first guide it would pass or
  // reach, so a keyboard lines a box up as exactly as a drag does; the next press goes on past it.
  let guideShown = null, beforeNudge = null;
  bigFace.addEventListener("keydown", (event) => {  // capture: before studio.js takes the step
    const node = event.target.closest(".box");
    beforeNudge = node?.rect ? {...node.rect} : null;
  }, true);
  bigFace.addEventListener("keydown", (event) => {
    const node = event.target.closest(".box");
    const arrow = ARROWS[event.key];
    if (!node || !arrow || !beforeNudge || !event.defaultPrevented || node.classList.contains("fixed")) return;
    clearTimeout(guideShown);
    hideGuides();
    if (event.ctrlKey || event.metaKey) return;  // held: the step alone, as a drag's Ctrl gives the grid alone
    const rect = node.rect, whole = JSON.parse(node.parentElement.dataset.whole);
    const [axis, size] = arrow[0] ? ["x", "w"] : ["y", "h"];
    const step = arrow[0] || arrow[1];
    const now = event.altKey ? [rect[axis] + rect[size]]  // Alt resizes: only the far edge moved
      : [rect[axis], rect[axis] + rect[size] / 2, rect[axis] + rect[size]];
    const by = Math.abs(event.altKey ? rect[size] - beforeNudge[size] : rect[axis] - beforeNudge[axis]);  // the step taken
    const {across, down} = lines(node);
    let stop = null;  // the guide met first going from where the box was: the most way back from where it landed
    for (const edge of now) for (const line of (axis === "x" ? across : down)) {
      const back = (edge - line) * step;  // ≥ 0 and < the step: the step passed or reached this line
      if (back >= -1e-6 && back < by - 1e-6 && (!stop || back > stop.back)) stop = {back, line};
    }
    if (stop) {
      const shift = Math.round(stop.back * step * 100) / 100;
      if (event.altKey) rect[size] -= shift; else rect[axis] -= shift;
      rect[axis] = Math.round(rect[axis] * 100) / 100;
      rect[size] = Math.round(rect[size] * 100) / 100;
      place(node, rect, whole);
      readout.textContent = `${node.dataset.box}: ${node.querySelector(".box-size").textContent} (on a guide)`;
      drawGuides([{[axis]: stop.line}], whole);
      guideShown = setTimeout(hideGuides, 1200);
    }
  });

  // -- a picture's focus: Alt + drag the picture inside its box --------------------------------------------

  function pictureIn(rect) {
    // the <image> the face draws in this box: it covers the box (cover) or lies inside it (contain)
    for (const image of bigFace.querySelectorAll("svg image")) {
      const [x, y, w, h] = ["x", "y", "width", "height"].map((name) => Number(image.getAttribute(name)));
      const covers = x <= rect.x + 0.01 && y <= rect.y + 0.01 && x + w >= rect.x + rect.w - 0.01 && y + h >= rect.y + rect.h - 0.01;
      const inside = x >= rect.x - 0.01 && y >= rect.y - 0.01 && x + w <= rect.x + rect.w + 0.01 && y + h <= rect.y + rect.h + 0.01;
      if (covers || inside) return {image, x, y, w, h};
    }
    return null;
  }

  bigFace.addEventListener("pointerdown", (event) => {
    const node = event.target.closest(".box");
    if (!node || !event.altKey || info?.boxes?.[node.dataset.box]?.kind !== "image") return;
    const picture = pictureIn(node.rect);
    if (!picture) return;
    event.preventDefault();
    event.stopImmediatePropagation();  // not a move of the box: its picture moves inside it
    node.focus();
    node.setPointerCapture(event.pointerId);
    const whole = JSON.parse(node.parentElement.dataset.whole);
    dragging = {node, whole, focus: picture, from: [event.clientX, event.clientY],
                perPixel: whole.w / bigFace.getBoundingClientRect().width, at: focusOf(node.dataset.box)};
  }, true);

  bigFace.addEventListener("pointermove", (event) => {
    if (!dragging?.focus) return;
    event.stopImmediatePropagation();
    const {node, focus: p, from, perPixel} = dragging;
    const r = node.rect;
    const x = p.x + (event.clientX - from[0]) * perPixel, y = p.y + (event.clientY - from[1]) * perPixel;
    const across = p.w - r.w, down = p.h - r.h;  // what the box crops (cover) or leaves empty (contain)
    const at = [Math.abs(across) > 0.01 ? (r.x - x) / across : dragging.at[0], Math.abs(down) > 0.01 ? (r.y - y) / down : dragging.at[1]]
      .map((n) => Math.round(Math.min(1, Math.max(0, n)) * 100) / 100);
    dragging.at = at;
    p.image.setAttribute("x", String(r.x - at[0] * across));
    p.image.setAttribute("y", String(r.y - at[1] * down));
    readout.textContent = `${node.dataset.box}: focus ${at[0]}, ${at[1]}`;
  }, true);

  function endFocus(event) {
    if (!dragging?.focus) return;
    event.stopImmediatePropagation();
    const {node, at} = dragging;
    dragging = null;
    style(node.dataset.box, {focus: at});
  }
  bigFace.addEventListener("pointerup", endFocus, true);
  bigFace.addEventListener("lostpointercapture", endFocus, true);

  function focusOf(box) {
    const own = cardOnly && info?.boxes?.[box]?.card_focus;
    const focus = own || info?.boxes?.[box]?.focus;
    return Array.isArray(focus) && focus.length === 2 ? focus.map(Number) : [0.5, 0.5];
  }

  // -- the panel: add a box; the box in focus: its font, fit and focus, delete --------------------------

  let info = null;       // /boxes for the face open large
  let chosen = null;     // the box last in focus
  let focusNext = null;  // a box just added: focused once the face shows it
  const panel = el("div", {class: "layout-tools", "data-layout-tools": "", hidden: ""});
  readout.after(panel);

  const adding = el("form", {class: "add-box", "data-add-box": "", "aria-label": "Add a box", onsubmit: "return false"});
  const kind = el("select", {id: "add-box-kind", name: "kind"}, ...["text", "image", "icon"].map((k) => el("option", {value: k, text: k})));
  const name = el("input", {id: "add-box-name", name: "name", type: "text", spellcheck: "false", placeholder: "motto"});
  const reads = el("select", {id: "add-box-reads", name: "reads"}, el("option", {value: "field", text: "a field"}),
                   el("option", {value: "value", text: "a fixed value"}));
  const field = el("input", {id: "add-box-field", name: "field", type: "text", spellcheck: "false", list: "add-box-fields",
                             placeholder: "a field, or a new one"});
  const fieldList = el("datalist", {id: "add-box-fields"});
  const value = el("input", {id: "add-box-value", name: "value", type: "text"});
  const valueLabel = el("label", {for: "add-box-value", text: "On this card"});
  const add = el("button", {type: "submit", class: "btn", "data-add": "", text: "Add the box"});
  const addError = el("span", {class: "error", "data-error": "add-box"});
  adding.append(el("h3", {text: "Add a box"}),
                el("label", {for: "add-box-kind", text: "Kind"}), kind,
                el("label", {for: "add-box-name", text: "Name"}), name,
                el("label", {for: "add-box-reads", text: "Shows"}), reads,
                el("label", {for: "add-box-field", text: "Field"}), field, fieldList,
                valueLabel, value, add, addError);
  const showReads = () => {
    const fixed = reads.value === "value";
    field.disabled = fixed;
    valueLabel.textContent = fixed ? "Value" : "On this card";
  };
  reads.addEventListener("change", showReads);
  showReads();

  const chosenBox = el("div", {class: "chosen-box", "data-chosen-box": ""});
  panel.append(adding, chosenBox);

  adding.addEventListener("submit", async () => {
    addError.textContent = "";
    const size = faceSize();
    const wide = kind.value === "text" ? Math.round(size.w * 0.8) : Math.round(Math.min(size.w, size.h) * 0.3);
    const tall = kind.value === "text" ? 8 : wide;
    const box = {kind: kind.value, name: name.value.trim(), x: Math.round((size.w - wide) / 2), y: Math.round((size.h - tall) / 2),
                 w: wide, h: tall};
    if (reads.value === "field") box.field = field.value.trim();
    if (value.value !== "") box.value = value.value;
    const id = large.id;
    const answer = await send("boxes/add", () => ({id, ...box, version: base()}),
                              {what: `a new ${box.kind} box ${box.name}`, errorAt: addError});
    if (answer) {
      focusNext = box.name;
      readout.textContent = `Added the ${box.kind} box ${box.name}: drag it into place.`;
      name.value = field.value = value.value = "";
    }
  });

  // "This card only": a picture's focus goes on the card's item (BOX_focus), over the box's focus for all
  let cardOnly = false;
  function style(box, set) {
    const id = large.id, card = cardOnly && "focus" in set;
    return send("boxes/style", () => ({id, box, set, version: base(), ...(card ? {card: true} : {})}),
                {what: `${box}: ${Object.keys(set).join(", ")}`, errorAt: chosenBox.querySelector(".error")});
  }

  function showChosen() {
    const box = chosen && info?.boxes?.[chosen];
    if (!box) { chosenBox.replaceChildren(); return; }
    const parts = [el("h3", {text: `Box ${chosen}`})];
    // where its place came from (the builtin layout `card` via extends): a move writes over it in the face's own file
    if (box.from) parts.push(el("small", {class: "from", "data-box-from": "", text: `Place: ${box.from}.`}));
    if (box.kind === "text" || box.kind === "badge") {
      const font = el("select", {id: "box-font", name: "font"},
                      ...info.fonts.map((f) => el("option", {value: f, text: f})));
      font.value = typeof box.font === "string" && info.fonts.includes(box.font) ? box.font : "Lato-Regular";
      font.addEventListener("change", () => style(chosen, {font: font.value}));
      parts.push(el("label", {for: "box-font", text: "Font"}), font);
    }
    if (box.kind === "image") {
      const fit = el("select", {id: "box-fit", name: "fit"}, ...["cover", "contain"].map((f) => el("option", {value: f, text: f})));
      const follows = typeof box.fit === "string" && !["cover", "contain"].includes(box.fit);
      fit.value = follows || !box.fit ? "cover" : box.fit;
      fit.disabled = follows;
      fit.addEventListener("change", () => style(chosen, {fit: fit.value}));
      const [fx, fy] = focusOf(chosen);
      const across = el("input", {id: "box-focus-x", type: "number", min: "0", max: "100", step: "5", value: String(Math.round(fx * 100))});
      const down = el("input", {id: "box-focus-y", type: "number", min: "0", max: "100", step: "5", value: String(Math.round(fy * 100))});
      const sendFocus = () => style(chosen, {focus: [Number(across.value) / 100, Number(down.value) / 100]});
      across.addEventListener("change", sendFocus);
      down.addEventListener("change", sendFocus);
      const only = el("input", {id: "box-focus-card", type: "checkbox", "data-focus-card": ""});
      only.checked = cardOnly;
      only.addEventListener("change", () => { cardOnly = only.checked; showChosen(); });
      parts.push(el("label", {for: "box-fit", text: "Fit"}), fit,
                 ...(follows ? [el("small", {class: "from", text: `follows ${box.fit}: change it in the fields`})] : []),
                 el("label", {for: "box-focus-x", text: "Focus across %"}), across,
                 el("label", {for: "box-focus-y", text: "Focus down %"}), down,
                 el("label", {for: "box-focus-card", text: "This card only"}), only,
                 el("small", {class: "from", text: "or hold Alt and drag the picture inside its box"}));
    }
    if (box.own) {
      const remove = el("button", {type: "button", class: "btn secondary", "data-delete-box": "", text: `Delete box ${chosen}`});
      remove.addEventListener("click", () => {
        const id = large.id, which = chosen;
        send("boxes/delete", () => ({id, box: which, version: base()}), {what: `delete box ${which}`,
                                                                          errorAt: chosenBox.querySelector(".error")});
      });
      parts.push(remove);
    } else {
      parts.push(el("small", {class: "from", text: `${chosen} belongs to the layout ${info.layout} as it was given: it can be moved, not deleted here`}));
    }
    parts.push(el("span", {class: "error", "data-error": "box"}));
    chosenBox.replaceChildren(...parts);
  }

  bigFace.addEventListener("focusin", (event) => {
    const node = event.target.closest(".box");
    if (node && node.dataset.box !== chosen) { chosen = node.dataset.box; showChosen(); }
  });

  // Each time the face open large is shown again (a new version, another face), the panel follows it.
  let asked = null;
  async function follow() {
    if (!large) return;
    const id = large.id, version = bigFace.dataset.version;
    png.href = "face.png?id=" + encodeURIComponent(id);
    view.style.setProperty("--w", bigFace.style.getPropertyValue("--w"));
    view.style.setProperty("--h", bigFace.style.getPropertyValue("--h"));
    if (asked === `${id}@${version}`) return;
    asked = `${id}@${version}`;
    try {
      const response = await fetch("boxes?id=" + encodeURIComponent(id));
      info = response.ok ? await response.json() : null;
    } catch (error) {
      info = null;
    }
    fieldList.replaceChildren(...(info?.fields || []).map((f) => el("option", {value: f})));
    panel.hidden = !layoutSwitch.checked || !info;
    if (focusNext) {
      const node = bigFace.querySelector(`.box[data-box="${CSS.escape(focusNext)}"]`);
      if (node) { focusNext = null; node.focus(); }
    }
    if (chosen && !info?.boxes?.[chosen]) chosen = null;
    showChosen();
  }
  new MutationObserver(() => follow()).observe(bigFace, {childList: true});
  layoutSwitch.addEventListener("change", () => { panel.hidden = !layoutSwitch.checked || !info; });
  dialog.addEventListener("close", () => { panel.hidden = true; asked = null; chosen = null; });
})();
