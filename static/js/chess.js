/* Chess pages: fast result entry (a key per result, focus moves on). Print buttons and
   confirmations are site.js's. */
(function () {
  "use strict";
  // Result entry: "1" white wins, "0" black wins, "=" or "r" or "5" a draw, "+" and "-" forfeits.
  var KEYS = { "1": "1-0", "0": "0-1", "=": "1/2-1/2", "r": "1/2-1/2", "5": "1/2-1/2", "½": "1/2-1/2", "+": "+-", "-": "-+" };
  var inputs = Array.prototype.slice.call(document.querySelectorAll("input.result-input"));
  inputs.forEach(function (input, index) {
    input.addEventListener("keydown", function (event) {
      var value = KEYS[event.key];
      if (!value || event.ctrlKey || event.metaKey || event.altKey) { return; }
      event.preventDefault();
      input.value = value;
      var next = inputs[index + 1];
      if (next) { next.focus(); next.select(); } else {
        var submit = input.form && input.form.querySelector("[data-submit]");
        if (submit) { submit.focus(); }
      }
    });
  });
  var first = document.querySelector("[data-autofocus]");
  if (first) { first.focus(); }
})();
