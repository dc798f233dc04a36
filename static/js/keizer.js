/* Keizer pages: small helpers, loaded from {% block scripts %} (no inline script, strict CSP).
   - [data-print] buttons print the page;
   - forms with data-confirm ask first;
   - the attendance page counts the players marked present;
   - quick result entry: Enter in the board field moves to the result field. */
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
    });
  });

  // A ranking's breakdown panels: one open at a time; a click outside or Escape closes it.
  var panels = document.querySelectorAll(".keizer-ranking details.explain");
  var closeAll = function (except) {
    panels.forEach(function (panel) { if (panel !== except) { panel.open = false; } });
  };
  panels.forEach(function (panel) {
    panel.addEventListener("toggle", function () { if (panel.open) { closeAll(panel); } });
  });
  if (panels.length) {
    document.addEventListener("click", function (event) {
      if (!event.target.closest(".keizer-ranking details.explain")) { closeAll(null); }
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { closeAll(null); }
    });
  }

  var attendance = document.getElementById("attendance-form");
  var counter = document.querySelector("[data-present-count]");
  if (attendance && counter) {
    var count = function () {
      var present = attendance.querySelectorAll(
        "input[type=radio][value=present]:checked, input[type=hidden][value=present]"
      ).length;
      counter.textContent = String(present);
    };
    attendance.addEventListener("change", count);
    count();
  }

  var quick = document.getElementById("quick-result");
  if (quick) {
    var board = quick.querySelector("input[name=board]");
    var result = quick.querySelector("input[name=result]");
    board.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        result.focus();
        result.select();
      }
    });
    var invalid = quick.querySelector(".is-invalid");
    (invalid || board).focus();
    if (!invalid) { board.select(); }
  }
})();
