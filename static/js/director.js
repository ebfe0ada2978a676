// The director's pages: confirmations, printing and focus on errors (the score sheet's own
// script is sheet.js, shared with the player's page).
// Everything works without this file; it only saves clicks and mistakes.
(function () {
  "use strict";

  // A form with data-confirm asks before it is sent (finishing, withdrawing, deleting).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) {
      window.print();
    }
  });

  // After a failed submit, the error summary takes the focus so a keyboard or screen reader
  // user hears what went wrong.
  function focusErrors() {
    var summary = document.querySelector("[data-focus]");
    if (summary) {
      summary.focus();
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", focusErrors);
  } else {
    focusErrors();
  }
})();
