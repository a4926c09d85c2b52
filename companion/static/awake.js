// starpnp companion: keep the screen on while a table page is open — a phone lying on the table must not go
// dark between turns. Pages ask for it with <body data-keep-awake>.
// - Where the browser offers the Screen Wake Lock API (a secure context: https, or localhost), hold a screen
//   lock, and take it again whenever the page comes back into view (the browser drops it when hidden).
// - Elsewhere — plain http on a home network, where browsers withhold the API — play a tiny muted, looping,
//   invisible video (2 s of black, ~2 KB): phones keep the screen on while a video plays. Browsers start it
//   only after a tap, so the first tap on the page starts it.
// <html data-awake> says which is in use: "lock", "video" or "off" (until it has started).
(function () {
  "use strict";
  var body = document.body;
  if (!body || !body.hasAttribute("data-keep-awake")) { return; }
  var root = document.documentElement;
  root.dataset.awake = "off";

  if ("wakeLock" in navigator && window.isSecureContext) {
    var lock = null;
    var asking = false;
    var request = function () {
      if (lock || asking || document.visibilityState !== "visible") { return; }
      asking = true;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        root.dataset.awake = "lock";
        sentinel.addEventListener("release", function () { lock = null; root.dataset.awake = "off"; });
      }).catch(function () { /* refused (e.g. battery saver): try again on the next tap */ })
        .then(function () { asking = false; });
    };
    request();
    document.addEventListener("visibilitychange", request);
    document.addEventListener("pointerdown", request, true);
    return;
  }

  var video = document.createElement("video");
  video.muted = true;
  video.loop = true;
  video.setAttribute("muted", "");
  video.setAttribute("playsinline", "");
  video.setAttribute("aria-hidden", "true");
  video.setAttribute("tabindex", "-1");
  video.className = "keep-awake";
  [["webm", "video/webm"], ["mp4", "video/mp4"]].forEach(function (kind) {
    var source = document.createElement("source");
    source.src = body.dataset.keepAwake + "." + kind[0];
    source.type = kind[1];
    video.appendChild(source);
  });
  body.appendChild(video);
  var play = function () {
    if (document.visibilityState !== "visible" || !video.paused) { return; }
    var started = video.play();
    if (started && started.then) {
      started.then(function () { root.dataset.awake = "video"; }, function () { root.dataset.awake = "off"; });
    }
  };
  video.addEventListener("pause", function () { root.dataset.awake = "off"; });
  document.addEventListener("pointerdown", play, true);
  document.addEventListener("visibilitychange", play);
  play();  // allowed without a tap where the browser lets muted video start by itself
})();
