// starpnp companion: − and + buttons beside every number field, so no keypad is needed and a signed number
// never needs a minus key (the iPhone's numeric keypad has none). A tap steps by 1; holding a button for
// half a second steps by 5 once. The value stays within the field's min and max. Fields that arrive with an
// htmx swap, or show when a folded section opens, get their buttons too. A field with less room than the
// buttons need (a narrow grid cell) keeps its keypad. Without JavaScript the plain number fields still work.
(function () {
  "use strict";
  var HOLD_MS = 500;
  var LONG_STEP = 5;
  var ROOM_PX = 150;  // two 44 px buttons and a field that still shows three digits

  function bound(input, name) {
    var text = input.getAttribute(name);
    return text === null || text === "" ? null : Number(text);
  }
  function change(input, delta) {
    var now = input.value === "" ? 0 : Number(input.value);
    if (isNaN(now)) { now = 0; }
    var next = now + delta;
    var low = bound(input, "min");
    var high = bound(input, "max");
    if (low !== null && next < low) { next = low; }
    if (high !== null && next > high) { next = high; }
    input.value = String(next);
    input.dispatchEvent(new Event("input", {bubbles: true}));
    input.dispatchEvent(new Event("change", {bubbles: true}));
  }
  function stepButton(input, sign) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "step " + (sign < 0 ? "step-down" : "step-up");
    button.textContent = sign < 0 ? "−" : "+";
    button.setAttribute("aria-label", (sign < 0 ? "One less" : "One more") + " (hold: " + LONG_STEP + ")");
    var timer = null;
    var held = false;
    button.addEventListener("pointerdown", function () {
      held = false;
      timer = setTimeout(function () { held = true; change(input, sign * LONG_STEP); }, HOLD_MS);
    });
    ["pointerup", "pointerleave", "pointercancel"].forEach(function (kind) {
      button.addEventListener(kind, function () { clearTimeout(timer); });
    });
    button.addEventListener("click", function () {
      if (held) { held = false; return; }  // the hold already stepped
      change(input, sign);
    });
    button.addEventListener("contextmenu", function (evt) { evt.preventDefault(); });
    return button;
  }
  function enhance(root) {
    var inputs = root.querySelectorAll ? root.querySelectorAll("input[type=number]") : [];
    Array.prototype.forEach.call(inputs, function (input) {
      if (input.closest(".stepper") || input.disabled || input.readOnly ||
          input.getBoundingClientRect().width < ROOM_PX) { return; }
      var wrap = document.createElement("span");
      wrap.className = "stepper";
      input.parentNode.insertBefore(wrap, input);
      wrap.appendChild(stepButton(input, -1));
      wrap.appendChild(input);
      wrap.appendChild(stepButton(input, 1));
    });
  }
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (evt) { enhance(evt.detail.elt); });
  document.addEventListener("toggle", function (evt) { if (evt.target.open) { enhance(evt.target); } }, true);
})();
