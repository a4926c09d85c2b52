// starpnp companion: no tap lost or doubled, and no page moving under the finger.
// - Every tap (a form marked data-tap) goes into a queue kept in localStorage, so a reload or a locked
//   phone keeps it. Taps are sent one at a time, in order, each with its own client_id, and retried with
//   back-off until the server answers: a retry of a tap the server already stored is answered with the
//   original (the server keeps client_ids), so nothing counts twice. A refusal (4xx) takes the tap out of
//   the queue and shows the message.
// - The tapped control changes at once: its button shows it is pending, and a ±n button's number moves by
//   n before the server answers; the server's answer replaces both (a refusal puts the number back).
// - #tap-status says "sending…", "offline — 3 taps waiting" or "all saved".
// - Other phones' changes arrive by push: an EventSource on the table's stream (companion/push.py) says the
//   table's new version and the page fetches its #live at once. While there is no stream (it failed, the
//   server has no room for another, or the browser has none) the page polls every 2 s instead, and while
//   there is one it still polls every 20 s in case a note was lost.
// - Once a plain form (not a tap) is submitted the page is being left: no poll goes out and no answer of one
//   is used, so a seat's "Let go" ends on the one lobby page that says the seat was given away.
// - Fetches wait while taps are queued; an answer older than what the page shows (X-Table-Version) is never
//   swapped in; a fetch does not wipe a number someone is typing; polls pause while the page is hidden
//   (htmx's [filter] syntax needs eval, which our CSP forbids).
// - Nothing is swapped while a finger (or mouse button) is down: a button replaced between press and
//   release never gets its click. The newest answer waits for the release.
// - A section someone opened (<details>) stays open when #live is swapped: closing it would shorten the
//   page and move every button under the finger.
// - A swap never scrolls the page: htmx puts the new #live above the old one before removing it, and the
//   browser's scroll anchoring followed the old one down. The scroll position is put back.
// - A second tap at the same spot within DOUBLE_TAP_MS is one tap unless it lands on the same repeatable
//   button (a +1): a "once" action (a form naming the turn, phase step, round or die it was made for: the
//   server refuses a repeat) is not sent again, and a button that arrived under the finger is not pressed
//   until DOUBLE_TAP_MS after it arrived (measured from the swap, not from the first tap: an answer that
//   came 0.5 s after the first tap put "End Ben's turn" under a finger still tapping "End Ann's turn").
// Without JavaScript every form is a plain POST answered by a redirect.
(function () {
  "use strict";
  var KEY = "starpnp-taps:" + location.pathname;  // one queue per table page (a phone's seat)
  var FIRST_RETRY_MS = 1000, LAST_RETRY_MS = 8000, NOTICE_MS = 8000;
  var DOUBLE_TAP_MS = 400, SAME_SPOT_PX = 24;
  var ONCE_FIELDS = ["turn", "step", "round", "die"];  // stamps of the state a button was made for
  var queue = load();
  var sending = false, offline = false, retryMs = 0, retryTimer = null;
  var pressed = false, held = null, noticeTimer = null;
  var finger = {x: -1, y: -1};  // where the last press went down
  var lastTap = null;  // {key, once, x, y, at}: the last tap sent, to tell a double tap from a new one
  var swappedAt = 0;  // when #live last changed: the moment a new button may have arrived under the finger
  var sentOnce = null;  // the whole form of the last once-action sent, until the server's next page arrives
  var guessed = [];  // [element, text before] of numbers changed before the server answered

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save() {
    try { localStorage.setItem(KEY, JSON.stringify(queue)); } catch (e) { /* private mode: memory only */ }
  }
  function tapId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function shownVersion() {
    var input = document.getElementById("version");
    return input ? parseInt(input.value, 10) : -1;
  }
  function typing() {  // a field, or a stepper's − / + beside one, has the focus: a poll would wipe the number
    var active = document.activeElement;
    return !!(active && active.closest && active.closest("#live") &&
              (/^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName) || active.closest(".stepper")));
  }

  // -- what the phone shows ------------------------------------------------------------------------
  function showStatus() {
    var status = document.getElementById("tap-status");
    if (!status) { return; }
    var waiting = queue.length;
    var state = !waiting ? "saved" : offline ? "offline" : "sending";
    status.dataset.state = state;
    status.textContent = state === "saved" ? "all saved" : state === "sending" ? "sending…" :
      "offline — " + waiting + (waiting === 1 ? " tap" : " taps") + " waiting";
  }
  function notify(message) {  // a refusal, in the bar at the bottom of the screen (it moves nothing)
    var notice = document.getElementById("notice");
    if (!notice || !message) { return; }
    notice.textContent = message;
    notice.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { notice.hidden = true; }, NOTICE_MS);
  }
  function clearNotice() {  // a tap the server took: the refusal still shown is about an earlier one
    var notice = document.getElementById("notice");
    if (notice) { notice.hidden = true; }
    clearTimeout(noticeTimer);
  }
  function sectionKey(details) {  // its data-* name (a summary may show numbers that change), else its summary
    var named = Array.prototype.find.call(details.attributes, function (a) { return a.name.indexOf("data-") === 0; });
    var summary = details.querySelector("summary");
    return named ? named.name + "=" + named.value : summary ? summary.textContent.trim() : "";
  }
  function openSummaries() {
    return Array.prototype.map.call(document.querySelectorAll("#live details[open]"), sectionKey);
  }
  function reopen(opened) {
    Array.prototype.forEach.call(document.querySelectorAll("#live details"), function (d) {
      if (opened.indexOf(sectionKey(d)) >= 0) { d.open = true; }
    });
  }
  // -- what a tap was: the same key is the same button, whatever the state it was made for --------------
  function tapKey(form, submitter) {
    var parts = [form.getAttribute("action"), submitter ? submitter.textContent.trim() : ""];
    Array.prototype.forEach.call(form.querySelectorAll("input[type=hidden]"), function (input) {
      if (input.name !== "csrf_token" && ONCE_FIELDS.indexOf(input.name) < 0) { parts.push(input.name + "=" + input.value); }
    });
    return parts.join("&");
  }
  function isOnce(form) {
    return ONCE_FIELDS.some(function (name) { return !!form.querySelector("input[type=hidden][name=" + name + "]"); });
  }
  function wholeForm(form, submitter) {  // the button with its stamps: the very state it was made for
    return tapKey(form, submitter) + "|" + ONCE_FIELDS.map(function (name) {
      var input = form.querySelector("input[type=hidden][name=" + name + "]");
      return input ? input.value : "";
    }).join("|");
  }
  function repeated(form, submitter) {  // a second tap at the same spot, too soon to be meant
    var key = tapKey(form, submitter);
    // The same once-action, stamped for the same state, before the page has changed: the server would only
    // refuse it, however slowly the second tap came (a busy phone can take longer than DOUBLE_TAP_MS).
    if (sentOnce !== null && wholeForm(form, submitter) === sentOnce) { return true; }
    if (!lastTap || Math.abs(finger.x - lastTap.x) > SAME_SPOT_PX || Math.abs(finger.y - lastTap.y) > SAME_SPOT_PX) {
      return false;
    }
    var now = Date.now();
    // the page changed under the finger: a tap too soon after the change was aimed at what was there before
    if (key !== lastTap.key) { return now - Math.max(lastTap.at, swappedAt) <= DOUBLE_TAP_MS; }
    return now - lastTap.at <= DOUBLE_TAP_MS && lastTap.once;  // the same once-action again; a +1 twice is two
  }

  function swapLive(html) {
    var opened = openSummaries();
    var scrolled = window.scrollY;
    window.htmx.swap("#live", html, {swapStyle: "innerHTML"});
    guessed = [];  // the server's numbers replaced the guesses
    swappedAt = Date.now();
    document.documentElement.dataset.swapped = String(swappedAt);  // for tests: when a new button may have come
    sentOnce = null;  // the page now shows the state after it: a button tapped from here on is meant
    reopen(opened);
    window.scrollTo(window.scrollX, scrolled);
    var refusal = document.querySelector("#live [data-refusal]");
    if (refusal) { notify(refusal.textContent.trim()); refusal.remove(); }
  }
  function offer(html, version) {  // a fresh #live from the server: shown unless older or under a finger
    if (version < shownVersion()) { return; }
    if (pressed) {  // the newest answer waits: one that arrives late with an older state is dropped
      if (!held || version >= held.version) { held = {html: html, version: version}; }
      return;
    }
    swapLive(html);
  }

  // -- the queue -------------------------------------------------------------------------------------
  function refusalText(html, status) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var alert = page.querySelector("[role=alert], [data-refusal]");
    return alert ? alert.textContent.trim() : "The server refused this tap (" + status + ").";
  }
  function answered(response, html) {
    queue.shift();
    save();
    var version = parseInt(response.headers.get("X-Table-Version"), 10);
    if (isNaN(version)) {
      unguess();
      sentOnce = null;  // refused without a new page: tapping it again is a retry, not a double tap
      notify(refusalText(html, response.status));  // an error page (expired form, no seat...)
    } else {
      if (response.ok) { clearNotice(); }
      offer(html, version);  // the fragment, with the refusal on it when there is one
    }
    if (!queue.length && pushedVersion > shownVersion()) { fetchLive(); }  // held back while taps were queued
  }
  function retryLater() {
    offline = true;
    retryMs = Math.min(retryMs ? retryMs * 2 : FIRST_RETRY_MS, LAST_RETRY_MS);
    retryTimer = setTimeout(function () { retryTimer = null; pump(); }, retryMs);
  }
  function pump() {
    showStatus();
    if (sending || retryTimer || !queue.length) { return; }
    sending = true;
    var tap = queue[0];
    fetch(tap.url, {method: "POST", body: tap.body, credentials: "same-origin",
                    headers: {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}})
      .then(function (response) {
        // no answer from the app itself (a proxy's 502, a restart, a throttle): the tap stays queued
        if (response.status >= 500 || response.status === 429 || response.status === 408) { throw response; }
        return response.text().then(function (html) {
          offline = false;
          retryMs = 0;
          answered(response, html);
        });
      })
      .catch(retryLater)
      .then(function () { sending = false; pump(); });
  }
  function kick() {  // the network is back, or the phone woke up: try now rather than after the back-off
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    pump();
  }

  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!form.matches || !form.matches("form[data-tap]") || !window.fetch || !window.htmx) { return; }
    evt.preventDefault();
    var submitter = evt.submitter;
    // the click a hold ends with: its steps were sent. Known by what the button is, not by the element: a
    // finger's click comes after the release, when the newest answer may already have replaced the button
    // (a mouse's comes before), and the new button's click once added one more (+11 for a 1.3 s hold).
    if (longPress.fired && submitter && tapKey(form, submitter) === longPress.key) { longPress.fired = false; return; }
    if (repeated(form, submitter)) { return; }
    if (finger.x < 0 && submitter) {  // no press seen (a keyboard, a script): the button's own middle
      var box = submitter.getBoundingClientRect();
      finger = {x: box.left + box.width / 2, y: box.top + box.height / 2};
    }
    lastTap = {key: tapKey(form, submitter), once: isOnce(form), x: finger.x, y: finger.y, at: Date.now()};
    sentOnce = lastTap.once ? wholeForm(form, submitter) : null;
    finger = {x: -1, y: -1};
    if (document.activeElement && document.activeElement.blur) { document.activeElement.blur(); }  // no focus to scroll to
    enqueue(form, submitter, null);
  });
  function enqueue(form, submitter, delta) {  // delta: a long press's step instead of the form's own
    var data = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) { data.set(submitter.name, submitter.value); }
    if (delta !== null) { data.set("delta", String(delta)); }
    data.set("client_id", tapId());
    queue.push({url: form.action, body: data.toString()});
    save();
    guess(form, submitter, delta);
    pump();
  }

  // -- a long press on a ± button (data-long="5") adds its bigger step at once, then again while held ----
  var HOLD_MS = 500, REPEAT_MS = 600;
  var longPress = {key: null, timer: null, fired: false};
  function endPress() {
    clearTimeout(longPress.timer);
    longPress.timer = null;
  }
  document.addEventListener("pointerdown", function (evt) {
    var button = evt.target.closest && evt.target.closest("form[data-tap] button[data-long]");
    endPress();
    longPress = {key: button ? tapKey(button.form, button) : null, timer: null, fired: false};
    if (!button || !window.fetch) { return; }
    var step = parseInt(button.dataset.long, 10);
    function send() {
      longPress.fired = true;
      enqueue(button.form, button, step);
      longPress.timer = setTimeout(send, REPEAT_MS);
    }
    longPress.timer = setTimeout(send, HOLD_MS);
  }, true);
  ["pointerup", "pointercancel", "pointerleave"].forEach(function (kind) { document.addEventListener(kind, endPress, true); });
  document.addEventListener("contextmenu", function (evt) {  // a phone's long press would open a menu
    if (evt.target.closest && evt.target.closest("button[data-long]")) { evt.preventDefault(); }
  }, true);

  // -- a typed amount the form cannot send (text, an emoji, nothing, out of range) ---------------------------
  // The browser's own bubble came and went while an old refusal stayed in the notice bar: the notice says
  // what to type instead, in one line, replacing whatever it said before (a typed 0 is the server's to refuse).
  function invalidText(input) {
    var low = input.getAttribute("min"), high = input.getAttribute("max");
    var range = low !== null && high !== null ? " from " + low + " to " + high : low !== null ? " of at least " + low :
      high !== null ? " of at most " + high : "";
    if (input.type !== "number") { return "Fill this in first."; }
    return (input.validity.valueMissing && !input.validity.badInput ? "Type an amount first: " : "Not a number: type ") +
      "a whole number" + range + (low === null || Number(low) < 0 ? " (a minus sign takes away)." : ".");
  }
  document.addEventListener("invalid", function (evt) {
    var input = evt.target;
    if (!input.closest || !input.closest("form[data-tap]")) { return; }
    evt.preventDefault();  // no bubble: the notice says it, where refusals are said
    notify(invalidText(input));
  }, true);

  // -- the tapped control changes at once ------------------------------------------------------------------
  function guess(form, submitter, step) {
    if (submitter) { submitter.classList.add("pending"); submitter.setAttribute("aria-busy", "true"); }
    var field = form.querySelector("input[name=delta]");
    var delta = step !== null ? step : field ? parseInt(field.value, 10) : NaN;
    var row = form.closest(".counter, [data-row]");
    var shown = row && row.querySelector(".big-number, [data-value]");
    if (isNaN(delta) || !shown || !/^-?\d+$/.test(shown.textContent.trim())) { return; }
    guessed.push([shown, shown.textContent]);
    shown.textContent = String(parseInt(shown.textContent, 10) + delta);
    shown.classList.add("pending");
  }
  function unguess() {  // refused without a new page: put back what the tap changed
    guessed.forEach(function (pair) { pair[0].textContent = pair[1]; pair[0].classList.remove("pending"); });
    guessed = [];
    Array.prototype.forEach.call(document.querySelectorAll("#live .pending"), function (el) {
      el.classList.remove("pending");
      el.removeAttribute("aria-busy");
    });
  }

  // -- push, and polls while there is none --------------------------------------------------------------
  var POLL_MS = 2000, SAFETY_POLL_MS = 20000, PUSH_RETRY_MS = 30000, TICK_MS = 250;
  var pushOpen = false, pushedVersion = -1, lastFetch = Date.now();
  function fetchLive() {
    var poller = document.getElementById("poller");
    if (!poller || !window.htmx) { return; }
    lastFetch = Date.now();
    window.htmx.trigger(poller, "fetch-live");
  }
  function pushState(state) { pushOpen = state === "open"; document.documentElement.dataset.push = state; }
  function connectPush() {
    var poller = document.getElementById("poller");
    var url = poller && poller.dataset.push;
    if (!url || !window.EventSource) { pushState("none"); return; }
    var source = new EventSource(url);
    source.addEventListener("open", function () { pushState("open"); });
    source.addEventListener("changed", function (evt) {
      pushedVersion = Math.max(pushedVersion, parseInt(evt.data, 10));
      if (pushedVersion !== shownVersion()) { fetchLive(); }
    });
    source.addEventListener("seats", fetchLive);  // a seat taken elsewhere: the fetch says so
    source.addEventListener("error", function () {
      pushState("polling");  // EventSource reconnects by itself; polls meanwhile
      if (source.readyState === EventSource.CLOSED) { setTimeout(connectPush, PUSH_RETRY_MS); }  // refused
    });
  }
  function tick() {
    var due = pushOpen ? SAFETY_POLL_MS : POLL_MS;
    if (pushedVersion > shownVersion()) { due = Math.min(due, POLL_MS / 4); }  // a fetch was held back
    if (Date.now() - lastFetch >= due) { fetchLive(); }
  }
  function isPoll(elt) { return !!(elt && elt.hasAttribute && elt.hasAttribute("data-poll")); }
  function requester(evt) { return (evt.detail.requestConfig && evt.detail.requestConfig.elt) || evt.detail.elt; }
  // A plain form (a seat's "Let go") is taking the page elsewhere: no fetch may follow it there. Its answer
  // would be a second navigation (a lost seat's HX-Redirect to the lobby), and the lobby says a lost seat
  // only once: the second load came without the message.
  var leaving = false;
  document.addEventListener("submit", function (evt) {
    if (!evt.defaultPrevented && !(evt.target.matches && evt.target.matches("form[data-tap]"))) { leaving = true; }
  });
  window.addEventListener("pageshow", function () { leaving = false; });  // back again (the page was kept)
  document.addEventListener("htmx:confirm", function (evt) {
    if (isPoll(evt.detail.elt) && (leaving || document.visibilityState !== "visible" || queue.length > 0)) {
      evt.preventDefault();
    }
  });
  document.addEventListener("htmx:beforeOnLoad", function (evt) {  // a fetch sent before the form left
    if (leaving && isPoll(requester(evt))) { evt.preventDefault(); }
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    if (!isPoll(requester(evt)) || !evt.detail.shouldSwap) { return; }
    var incoming = parseInt(evt.detail.xhr.getResponseHeader("X-Table-Version"), 10);
    evt.detail.shouldSwap = false;  // swapped here, by the same rules as a tap's answer
    if (queue.length === 0 && !typing()) { offer(evt.detail.serverResponse, isNaN(incoming) ? -1 : incoming); }
  });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { fetchLive(); } });

  // A question that arrived under the finger (a <details>, such as "End Ben's turn…") is not opened by a
  // tap too soon after it arrived: the same guard as a button's, for what is not a form.
  document.addEventListener("click", function (evt) {
    var summary = evt.target.closest && evt.target.closest("#live summary");
    if (!summary || !lastTap || swappedAt < lastTap.at || Date.now() - swappedAt > DOUBLE_TAP_MS) { return; }
    if (Math.abs(evt.clientX - lastTap.x) <= SAME_SPOT_PX && Math.abs(evt.clientY - lastTap.y) <= SAME_SPOT_PX) {
      evt.preventDefault();
    }
  }, true);

  document.addEventListener("pointerdown", function (evt) {
    pressed = true;
    finger = {x: evt.clientX, y: evt.clientY};
  }, true);
  function release() {
    pressed = false;
    setTimeout(function () {  // after the click this release belongs to
      var answer = held;
      held = null;
      if (answer) { offer(answer.html, answer.version); }  // held again if the next press came first
    }, 0);
  }
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
  window.addEventListener("online", kick);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { kick(); } });
  // htmx (loaded before this file) processes the page on DOMContentLoaded; after that, taps are live, and
  // taps still queued from before a reload go out.
  // -- pages about seats (no #live to fetch) follow the table's stream: `check(source)` runs on each change of
  // seats, and when the stream opens (a change made while the page was loading is not missed).
  function followSeats(url, check) {
    if (!window.EventSource || !window.fetch) { return; }
    var source = new EventSource(url);
    function look() { check(source); }
    source.addEventListener("open", look);
    source.addEventListener("seats", look);
  }
  // The host's lobby: a new seat request or hand-over reloads it, so it shows at once.
  function watchLobby() {
    var marker = document.querySelector("[data-lobby-push]");
    if (!marker) { return; }
    followSeats(marker.dataset.lobbyPush, function (source) {
      fetch(location.href, {credentials: "same-origin"}).then(function (response) { return response.text(); })
        .then(function (html) {
          var now = new DOMParser().parseFromString(html, "text/html").querySelector("[data-lobby-push]");
          if (now && now.dataset.news !== marker.dataset.news) { source.close(); location.reload(); }
        }).catch(function () { /* offline: the next event checks again */ });
    });
  }
  // A phone waiting for a held seat: once its request is answered the page redirects (to the game, or to the
  // lobby saying no), and the phone reloads at once rather than at the page's next 2 s refresh. The redirect
  // is not followed by the check itself: the lobby says a turned-down request once, to the page that loads it.
  function watchSeatWait() {
    var marker = document.querySelector("[data-seat-wait]");
    if (!marker) { return; }
    followSeats(marker.dataset.seatWait, function (source) {
      fetch(location.href, {credentials: "same-origin", redirect: "manual"}).then(function (response) {
        if (response.type === "opaqueredirect") { source.close(); location.reload(); }
      }).catch(function () { /* offline: the next event, or the refresh, checks again */ });
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.dataset.live = "ready";
    connectPush();
    watchLobby();
    watchSeatWait();
    setInterval(tick, TICK_MS);
    pump();
  });
})();
