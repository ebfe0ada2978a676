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
      return;
    }
    // A form with data-busy takes a while (the seat draw of a large field searches for a few
    // seconds): its button waits, and its status line counts the seconds until the page comes.
    var busy = form.getAttribute && form.getAttribute("data-busy");
    var status = busy && form.querySelector("[data-busy-status]");
    if (status) {
      var started = Date.now();
      Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (b) {
        b.setAttribute("aria-disabled", "true");
        b.addEventListener("click", function (again) { again.preventDefault(); });
      });
      var show = function () {
        status.textContent = busy + " " + Math.floor((Date.now() - started) / 1000) + " s";
      };
      show();
      status.hidden = false;
      window.setInterval(show, 1000);
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
