/* Bridge ladder manager pages (no inline script, so a strict CSP holds).
   - The IMP grid: Enter (or arrow down) goes to the next player of the same challenge, and from
     the last player to the first player of the next challenge; arrow up goes back. The first
     empty cell (or the first cell with an error) gets the focus.
   Buttons with data-confirm ask before they submit through site.js. */
(function () {
  "use strict";
  var cells = Array.prototype.slice.call(document.querySelectorAll("input.imps"));
  function cell(row, col) {
    return document.querySelector('input.imps[data-row="' + row + '"][data-col="' + col + '"]');
  }
  var rows = 0;
  cells.forEach(function (input) { rows = Math.max(rows, Number(input.dataset.row) + 1); });
  function move(input, step) {
    var row = Number(input.dataset.row) + step;
    var col = Number(input.dataset.col);
    if (row >= rows) { row = 0; col += 1; }
    if (row < 0) { row = rows - 1; col -= 1; }
    var target = cell(row, col);
    if (target) { target.focus(); target.select(); return true; }
    return false;
  }
  cells.forEach(function (input) {
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === "ArrowDown") {
        if (move(input, 1) || event.key === "ArrowDown") { event.preventDefault(); }
      } else if (event.key === "ArrowUp") {
        move(input, -1);
        event.preventDefault();
      }
    });
  });
  if (cells.length) {
    var first = document.querySelector("input.imps.is-invalid");
    if (!first) {
      var byColumn = cells.slice().sort(function (a, b) {
        return (a.dataset.col - b.dataset.col) || (a.dataset.row - b.dataset.row);
      });
      first = byColumn.filter(function (input) { return !input.value; })[0] || byColumn[0];
    }
    first.focus();
  }
})();
