/* Board-game result entry: the cursor starts in the first field with an error, else in the
   game field, so a table is typed without touching the mouse. */
(function () {
  "use strict";
  var form = document.getElementById("table-form");
  if (!form) { return; }
  var invalid = form.querySelector(".is-invalid");
  (invalid || form.querySelector("input[name=game]")).focus();
})();
