/* Every page: the few behaviours of the frame that base.html draws. They live here, not in
   inline handlers, because the Content-Security-Policy runs no inline script; every page works
   without this file (the language form then has its own button). */
(function () {
  "use strict";

  // A <select data-submit-on-change> (the language switch) sends its form as soon as it changes.
  document.addEventListener("change", function (event) {
    var control = event.target;
    if (control.matches && control.matches("select[data-submit-on-change]") && control.form) {
      control.form.submit();
    }
  });

  // A wide table scrolls sideways in its .table-wrap on a phone (and a printed sheet seen on a
  // phone in its .print-sheet): the box then takes the keyboard's focus, so that the arrow keys
  // scroll it too (one that fits stays out of the tab order). Checked again when the window
  // changes and when htmx swaps in new rows.
  function markScrollableTables() {
    document.querySelectorAll(".table-wrap, .print-sheet").forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        wrap.setAttribute("tabindex", "0");
      } else {
        wrap.removeAttribute("tabindex");
      }
    });
  }

  var waiting = null;
  function markSoon() {
    window.clearTimeout(waiting);
    waiting = window.setTimeout(markScrollableTables, 100);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markScrollableTables);
  } else {
    markScrollableTables();
  }
  window.addEventListener("resize", markSoon);
  document.addEventListener("htmx:afterSwap", markSoon);
})();
