/* Small behaviours of every page, without inline script (the site's CSP forbids it):
   - <select data-autosubmit> submits its form when changed (the language switcher);
   - <button data-print> prints the page;
   - <form data-confirm="question"> asks before it is submitted, and a button (or link) with
     data-confirm outside such a form asks before it acts. The systems' own scripts leave these
     to this one: two listeners asked the question twice. */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("[data-confirm]").forEach(function (element) {
    var isForm = element.tagName === "FORM";
    element.addEventListener(isForm ? "submit" : "click", function (event) {
      if (!window.confirm(element.dataset.confirm)) { event.preventDefault(); }
    });
  });
})();

/* "Every number explains itself": <details class="explain"><summary>number</summary>
   <div class="explain-body">...</div></details>. One explanation is open at a time; a click
   elsewhere or Escape closes it. An explanation that would stick out of the window (a number
   near a phone's right edge), that a scrolling table would cut off (.table-responsive) or that
   would make its table wider than the card it sits in is placed over the page instead, below
   its number and inside the window, and follows it when the page scrolls. Pages that place
   their explanations themselves (CSS position fixed or absolute) keep their own placement. */
(function () {
  "use strict";
  var MARGIN = 8;
  var PLACED = ["position", "left", "right", "top", "maxWidth", "maxHeight", "overflowY", "zIndex"];

  function bodyOf(details) {
    for (var i = 0; i < details.children.length; i++) {
      if (details.children[i].classList.contains("explain-body")) { return details.children[i]; }
    }
    return null;
  }

  function release(body) {
    PLACED.forEach(function (property) { body.style[property] = ""; });
    delete body.dataset.placed;
  }

  function place(details, body) {
    var summary = details.querySelector("summary");
    if (!summary) { return; }
    var room = document.documentElement.clientWidth - 2 * MARGIN;
    body.dataset.placed = "1";
    body.style.position = "fixed";
    body.style.zIndex = "1040";
    body.style.right = "auto";
    body.style.maxWidth = room + "px";
    body.style.left = MARGIN + "px";
    body.style.top = "0px";
    var anchor = summary.getBoundingClientRect();
    var width = Math.min(body.getBoundingClientRect().width, room);
    var left = Math.min(anchor.right - width, room + MARGIN - width);
    body.style.left = Math.max(MARGIN, left) + "px";
    var top = anchor.bottom + 4;
    var below = window.innerHeight - top - MARGIN;
    body.style.overflowY = "auto";
    if (below < 160 && anchor.top > window.innerHeight / 2) {
      var above = anchor.top - 4 - MARGIN;
      body.style.maxHeight = above + "px";
      top = Math.max(MARGIN, anchor.top - 4 - Math.min(body.scrollHeight, above));
    } else {
      body.style.maxHeight = Math.max(below, 120) + "px";
    }
    body.style.top = top + "px";
  }

  function widensItsTable(details) {
    // Opened in its cell, it made its table wider than the box the table sits in (a card
    // beside another): the table's last columns would stick out of the card.
    var table = details.closest("table");
    var box = table && table.parentElement;
    return !!box && table.getBoundingClientRect().width > box.clientWidth + 1;
  }

  function needsPlacing(details, body) {
    var position = window.getComputedStyle(body).position;
    if (position === "fixed" || position === "absolute") { return false; }
    if (details.closest(".table-responsive")) { return true; }
    if (widensItsTable(details)) { return true; }
    var box = body.getBoundingClientRect();
    return box.left < 0 || box.right > document.documentElement.clientWidth;
  }

  function isExplain(element) {
    return element && element.matches && element.matches("details.explain");
  }

  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!isExplain(details)) { return; }
    var body = bodyOf(details);
    if (!body) { return; }
    if (!details.open) { release(body); return; }
    document.querySelectorAll("details.explain[open]").forEach(function (other) {
      if (other !== details && !other.contains(details)) { other.open = false; }
    });
    if (needsPlacing(details, body)) { place(details, body); }
  }, true);

  function follow() {
    document.querySelectorAll("details.explain[open]").forEach(function (details) {
      var body = bodyOf(details);
      if (body && body.dataset.placed) { place(details, body); }
    });
  }
  window.addEventListener("scroll", follow, true);
  window.addEventListener("resize", follow);

  function closeAll() {
    document.querySelectorAll("details.explain[open]").forEach(function (details) {
      details.open = false;
    });
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("details.explain")) { closeAll(); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { closeAll(); }
  });
})();

/* Tables on a phone (clubsite.css): the rank (.col-rank) and the name (.col-name) stay at the
   left edge when a table scrolls sideways; the name sits right beside the rank, whose width
   each table measures here (--rank-width; without this script 2.5rem). */
(function () {
  "use strict";
  function measure() {
    document.querySelectorAll(".table-responsive > .table").forEach(function (table) {
      var rank = table.querySelector("th.col-rank, td.col-rank");
      if (rank) { table.style.setProperty("--rank-width", rank.getBoundingClientRect().width + "px"); }
    });
  }
  measure();
  window.addEventListener("resize", measure);
  window.addEventListener("load", measure);
})();
