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
