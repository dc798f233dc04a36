/* Othello GP manager page: keyboard-fast entry of a tournament's final standings.
   - the player finder (a datalist) inserts "Name (id)" at the caret of the standings text;
   - Ctrl+Enter (Cmd+Enter) in the text saves;
   - a live count of the participants typed.
   No inline script, so a strict CSP holds. */
(function () {
  "use strict";
  var text = document.querySelector("textarea.standings-text");
  if (!text) { return; }
  var form = text.form;
  var finder = document.getElementById("player-finder");
  var count = document.getElementById("standings-count");

  function lines() {
    return text.value.split("\n").filter(function (line) { return line.trim() !== ""; }).length;
  }
  function showCount() {
    if (count) { count.textContent = count.dataset.label ? count.dataset.label.replace("%s", lines()) : lines(); }
  }

  text.addEventListener("input", showCount);
  text.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  if (finder) {
    finder.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") { return; }
      event.preventDefault();
      var value = finder.value.trim();
      if (!value) { text.focus(); return; }
      var start = text.selectionStart, end = text.selectionEnd;
      text.value = text.value.slice(0, start) + value + text.value.slice(end);
      var caret = start + value.length;
      finder.value = "";
      text.focus();
      text.setSelectionRange(caret, caret);
      showCount();
    });
  }
  showCount();
  var invalid = document.querySelector(".alert-danger");
  if (!invalid && !text.value) { text.focus(); }
})();

/* "Every number explains itself" inside a scrolling table (.table-responsive clips what sticks
   out of it): an opened explanation is placed over the page instead, below its number and
   inside the window, and follows it when the page scrolls. */
(function () {
  "use strict";
  var MARGIN = 8;

  function place(details) {
    var body = details.querySelector(".explain-body");
    var summary = details.querySelector("summary");
    if (!body || !summary) { return; }
    var anchor = summary.getBoundingClientRect();
    var width = Math.min(body.scrollWidth || 0, window.innerWidth - 2 * MARGIN);
    body.style.position = "fixed";
    body.style.right = "auto";
    body.style.maxWidth = (window.innerWidth - 2 * MARGIN) + "px";
    var left = Math.min(anchor.right - width, window.innerWidth - width - MARGIN);
    body.style.left = Math.max(MARGIN, left) + "px";
    var top = anchor.bottom + 4;
    var room = window.innerHeight - top - MARGIN;
    if (room < 160 && anchor.top > window.innerHeight / 2) {
      room = anchor.top - 4 - MARGIN;
      body.style.maxHeight = room + "px";
      body.style.overflowY = "auto";
      top = Math.max(MARGIN, anchor.top - 4 - Math.min(body.scrollHeight, room));
    } else {
      body.style.maxHeight = Math.max(room, 120) + "px";
      body.style.overflowY = "auto";
    }
    body.style.top = top + "px";
  }

  function clipped(details) {
    return details.matches("details.explain") && details.closest(".table-responsive");
  }

  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.open && clipped(details)) {
      document.querySelectorAll("details.explain[open]").forEach(function (other) {
        if (other !== details) { other.open = false; }
      });
      place(details);
    }
  }, true);

  function follow() {
    document.querySelectorAll("details.explain[open]").forEach(function (details) {
      if (clipped(details)) { place(details); }
    });
  }
  window.addEventListener("scroll", follow, true);
  window.addEventListener("resize", follow);
})();
