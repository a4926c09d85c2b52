// starpnp companion: keep polls and queued taps from stepping on each other.
// htmx would drop a queued tap whose form was swapped away, so #live is only swapped by the last tap
// in flight, and polls wait while taps are pending. Polls also pause while the page is hidden
// (htmx's [filter] syntax needs eval, which our CSP forbids).
(function () {
  "use strict";
  var counted = new WeakSet();
  var pending = 0;
  var lastTap = 0;

  function isTap(elt) { return !!(elt && elt.closest && elt.closest("[data-tap]")); }
  function isPoll(elt) { return !!(elt && elt.hasAttribute && elt.hasAttribute("data-poll")); }
  function settle() { pending = Math.max(0, pending - 1); }

  document.addEventListener("htmx:confirm", function (evt) {
    var elt = evt.detail.elt;
    if (isPoll(elt)) {
      if (pending > 0 && Date.now() - lastTap > 15000) { pending = 0; }  // never stall polling
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
  document.addEventListener("htmx:afterRequest", function (evt) { if (isTap(evt.detail.elt)) { settle(); } });
  document.addEventListener("htmx:validation:halted", function (evt) { if (isTap(evt.detail.elt)) { settle(); } });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = evt.detail.elt;
    if ((isTap(elt) && pending > 1) || (isPoll(elt) && pending > 0)) { evt.detail.shouldSwap = false; }
  });
})();
