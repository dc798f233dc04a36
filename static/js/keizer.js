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
