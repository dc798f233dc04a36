/* Othello GP manager page: keyboard-fast entry of a tournament's final standings.
   - the player finder (a datalist) inserts a whole line "place; Name (id); country; rating"
     (the player's latest country and rating entry, the next place prefilled) at a line
     boundary of the standings text, in the text's own separator and columns;
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
  // The columns of a line without a header (competitions/systems/othello/entry.py, SHAPES[4]).
  var COLUMNS = ["place", "player", "country", "rating"];

  function lines() {
    return text.value.split("\n").filter(function (line) { return line.trim() !== ""; }).length;
  }
  function showCount() {
    if (count) { count.textContent = count.dataset.label ? count.dataset.label.replace("%s", lines()) : lines(); }
  }

  // The separator the reader will use for the whole text: a tab, else a semicolon, else a
  // comma (entry.py, _delimiter); a text with none of them yet gets semicolons.
  function separator(value) {
    if (value.indexOf("\t") >= 0) { return "\t"; }
    if (value.indexOf(";") >= 0) { return ";"; }
    if (value.indexOf(",") >= 0) { return ","; }
    return ";";
  }
  function cell(value, sep) {
    if (value.indexOf(sep) >= 0 || value.indexOf('"') >= 0) {
      return '"' + value.replace(/"/g, '""') + '"';
    }
    return value;
  }
  function cells(line, sep) {
    return line.split(sep).map(function (c) { return c.trim().replace(/^"|"$/g, ""); });
  }
  // The header's columns when the text starts with one (entry.py, HEADER_NAMES), else null.
  function header(value, sep, names) {
    var first = value.split("\n").filter(function (l) { return l.trim() !== ""; })[0];
    if (!first) { return null; }
    var columns = cells(first, sep).map(function (c) { return names[c.toLowerCase()]; });
    return columns.every(Boolean) ? columns : null;
  }

  function insertLine(option, typedName) {
    var value = text.value;
    var sep = separator(value);
    var names = JSON.parse(finder.dataset.headers || "{}");
    var columns = header(value, sep, names) || COLUMNS;
    var start = text.selectionStart;
    var lineStart = value.lastIndexOf("\n", start - 1) + 1;
    var lineEnd = value.indexOf("\n", start);
    if (lineEnd < 0) { lineEnd = value.length; }
    var current = value.slice(lineStart, lineEnd);
    var from, to, prefix = "";
    var typedPlace = null;
    // A line holding no more than a place ("3; ") is the one to fill; any other line stays,
    // and the new one goes after it.
    var bare = /^\s*(\d*)\s*[;,\t]?\s*$/.exec(current);
    if (bare) {
      from = lineStart; to = lineEnd;
      if (bare[1]) { typedPlace = bare[1]; }
    } else if (start === lineStart) {
      from = to = lineStart;
    } else {
      from = to = lineEnd; prefix = "\n";
    }
    // The place: the typed one, else one after the place of the last line above, else the
    // number of lines above plus one (the header not counted).
    var above = value.slice(0, from).split("\n").filter(function (l) { return l.trim() !== ""; });
    var hasHeader = columns !== COLUMNS;
    if (hasHeader) { above = above.slice(1); }
    var place = typedPlace;
    if (!place) {
      var last = above.length ? cells(above[above.length - 1], sep)[columns.indexOf("place")] : "";
      place = /^\d+$/.test(last || "") ? String(Number(last) + 1) : String(above.length + 1);
    }
    var values = {
      place: place,
      player: option ? option.value : typedName,
      country: option ? option.dataset.country : finder.dataset.country,
      rating: option ? option.dataset.rating : "debutant"
    };
    var glue = sep === "\t" ? "\t" : sep + " ";
    var line = columns.map(function (c) { return cell(values[c] || "", sep); }).join(glue);
    var rest = value.slice(to);
    var inserted = prefix + line + (rest.charAt(0) === "\n" ? "" : "\n");
    text.value = value.slice(0, from) + inserted + rest;
    var caret = from + inserted.length + (rest.charAt(0) === "\n" ? 1 : 0);
    text.setSelectionRange(caret, caret);
    showCount();
  }

  text.addEventListener("input", showCount);
  text.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  if (finder) {
    var list = finder.list;
    finder.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") { return; }
      event.preventDefault();
      var value = finder.value.trim();
      if (!value) { text.focus(); return; }
      var option = null;
      if (list) {
        for (var i = 0; i < list.options.length; i++) {
          if (list.options[i].value === value) { option = list.options[i]; break; }
        }
      }
      insertLine(option, value);
      finder.value = "";
      // The next player is found from here again; the line is in the text, its caret after it.
      finder.focus();
    });
  }
  showCount();
  var invalid = document.querySelector(".alert-danger");
  if (!invalid && !text.value) { text.focus(); }
})();
