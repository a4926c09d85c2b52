// starpnp companion: keep polls and queued taps from stepping on each other.
// - htmx drops a queued tap whose form was swapped away, so #live is only swapped by the answer to the
//   last tap in flight, and poll answers wait while taps are pending.
// - an answer older than what the page shows (X-Table-Version) is never swapped in.
// - a poll does not wipe a number someone is typing.
// - nothing is swapped while a finger (or mouse button) is down: a button replaced between press and
//   release never gets its click, and that tap would be lost. The newest answer waits for the release.
// - polls pause while the page is hidden (htmx's [filter] syntax needs eval, which our CSP forbids).
// - a section someone opened (<details>) stays open when #live is swapped: closing it would shorten the
//   page and move every button under the finger.
(function () {
  "use strict";
  var counted = new WeakSet();
  var pending = 0;
  var lastTap = 0;
  var pressed = false;
  var held = null;  // {html, version} of an answer that arrived while pressed

  function isTap(elt) { return !!(elt && elt.closest && elt.closest("[data-tap]")); }
  function isPoll(elt) { return !!(elt && elt.hasAttribute && elt.hasAttribute("data-poll")); }
  // htmx fires htmx:beforeSwap on the target (#live); the element that asked is in requestConfig.
  function requester(evt) { return (evt.detail.requestConfig && evt.detail.requestConfig.elt) || evt.detail.elt; }
  function settle() { pending = Math.max(0, pending - 1); }
  function shownVersion() {
    var input = document.getElementById("version");
    return input ? parseInt(input.value, 10) : -1;
  }
  function typing() {
    var active = document.activeElement;
    return !!(active && active.closest && active.closest("#live") && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName));
  }

  document.addEventListener("htmx:confirm", function (evt) {
    var elt = evt.detail.elt;
    if (isPoll(elt)) {
      if (pending > 0 && Date.now() - lastTap > 15000) { pending = 0; }  // never stall polling for good
      if (document.visibilityState !== "visible" || pending > 0) { evt.preventDefault(); }
      return;
    }
    if (!isTap(elt)) { return; }
    var trigger = evt.detail.triggeringEvent;
    if (trigger && counted.has(trigger)) { return; }  // a queued request being re-issued
    if (trigger) { counted.add(trigger); }
    pending += 1;
    lastTap = Date.now();
  });
  // A tap settles when its XHR ends: htmx's own after-request events fire on the form, which the swap
  // may already have removed from the page, so they would never reach this document.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (isTap(evt.detail.elt)) { evt.detail.xhr.addEventListener("loadend", settle); }
  });
  document.addEventListener("htmx:validation:halted", function (evt) { if (isTap(evt.detail.elt)) { settle(); } });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = requester(evt);
    var incoming = parseInt(evt.detail.xhr.getResponseHeader("X-Table-Version"), 10);
    if ((isTap(elt) && pending > 1) || (isPoll(elt) && (pending > 0 || typing())) ||
        (!isNaN(incoming) && incoming < shownVersion())) {
      evt.detail.shouldSwap = false;
    } else if (pressed && evt.detail.shouldSwap && (isTap(elt) || isPoll(elt))) {
      held = {html: evt.detail.serverResponse, version: isNaN(incoming) ? -1 : incoming};
      evt.detail.shouldSwap = false;
    }
  });
  var opened = [];  // summaries of the <details> open in #live before a swap
  function summaries(selector) {
    return Array.prototype.map.call(document.querySelectorAll(selector), function (d) {
      var summary = d.querySelector("summary");
      return summary ? summary.textContent.trim() : "";
    });
  }
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (evt.detail.shouldSwap) { opened = summaries("#live details[open]"); }
  });
  document.addEventListener("htmx:afterSwap", function () {
    Array.prototype.forEach.call(document.querySelectorAll("#live details"), function (d) {
      var summary = d.querySelector("summary");
      if (summary && opened.indexOf(summary.textContent.trim()) >= 0) { d.open = true; }
    });
  });
  document.addEventListener("pointerdown", function () { pressed = true; }, true);
  function release() {
    pressed = false;
    setTimeout(function () {  // after the click this release belongs to
      var answer = held;
      held = null;
      if (answer && pending === 0 && answer.version >= shownVersion() && window.htmx) {
        window.htmx.swap("#live", answer.html, {swapStyle: "innerHTML"});
      }
    }, 0);
  }
  // htmx (loaded before this file) processes the page on DOMContentLoaded; after that, taps are live.
  document.addEventListener("DOMContentLoaded", function () { document.documentElement.dataset.live = "ready"; });
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
})();
