/* Tournament-day screen: fetch the page's content again every N seconds and swap it in place,
   without reloading the page (no flicker on a projector). The clock beside the round is set
   here, at each refresh: the content may come from the page cache, rendered earlier. */
(function () {
  "use strict";
  var screen = document.querySelector("[data-live-refresh]");
  if (!screen) { return; }
  var seconds = parseInt(screen.dataset.liveRefresh, 10) || 15;
  var url = new URL(window.location.href);
  url.searchParams.set("fragment", "1");
  function clock() {
    var shown = screen.querySelector("[data-live-clock]");
    if (!shown) { return; }
    var now = new Date();
    shown.textContent = String(now.getHours()).padStart(2, "0") + ":" +
      String(now.getMinutes()).padStart(2, "0");
  }
  clock();
  function refresh() {
    fetch(url.toString(), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html) { screen.innerHTML = html; clock(); } })
      .catch(function () { /* offline for a moment: try again next time */ })
      .then(function () { window.setTimeout(refresh, seconds * 1000); });
  }
  window.setTimeout(refresh, seconds * 1000);
})();
