/* Small behaviours of every page, without inline script (the site's CSP forbids it):
   - <select data-autosubmit> submits its form when changed (the language switcher);
   - <button data-print> prints the page;
   - <form data-confirm="question"> asks before it is submitted. */
(function () {
  "use strict";
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.addEventListener("click", function () { window.print(); });
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.dataset.confirm)) { event.preventDefault(); }
    });
  });
})();
