/* Keizer pages: small helpers, loaded from {% block scripts %} (no inline script, strict CSP).
   Print buttons, confirmations and the explanations' panels (one open at a time, closed by a
   click outside or Escape) are site.js's.
   - the attendance page counts the players marked present;
   - quick result entry: Enter in the board field moves to the result field. */
(function () {
  "use strict";
  var attendance = document.getElementById("attendance-form");
  var counter = document.querySelector("[data-present-count]");
  if (attendance && counter) {
    var count = function () {
      var present = attendance.querySelectorAll(
        "input[type=radio][value=present]:checked, input[type=hidden][value=present]:not([name^=initial-])"
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
