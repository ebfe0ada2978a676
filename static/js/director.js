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
    // A form with a data-busy-status line takes a while (the seat draw of a large field
    // searches for a few seconds): its button waits, and the line counts the seconds until the
    // page comes (templates/director/_busy.html). With data-busy-progress it also asks that
    // address, once a second, how far the search has come, and shows the share done and what
    // it has found so far.
    var status = form.querySelector && form.querySelector("[data-busy-status]");
    var busy = status && status.getAttribute("data-busy-text");
    if (busy) {
      var started = Date.now();
      Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (b) {
        b.setAttribute("aria-disabled", "true");
        b.addEventListener("click", function (again) { again.preventDefault(); });
      });
      var show = function () {
        var seconds = Math.floor((Date.now() - started) / 1000);
        status.textContent = busy + " " + seconds + " " + status.getAttribute("data-busy-unit");
      };
      show();
      status.hidden = false;
      window.setInterval(show, 1000);
      var progressUrl = status.getAttribute("data-busy-progress");
      if (progressUrl && window.fetch) {
        window.setInterval(function () { askProgress(form, progressUrl); }, 1000);
      }
    }
  });

  function askProgress(form, url) {
    window.fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (found) {
        if (!found || found.percent === null) {
          return;
        }
        var bar = form.querySelector("[data-busy-bar]");
        var detail = form.querySelector("[data-busy-detail]");
        if (bar) {
          bar.value = found.percent;
          bar.textContent = found.percent + "%";
          bar.hidden = false;
        }
        if (detail) {
          detail.textContent = found.text;
          detail.hidden = false;
        }
      })
      .catch(function () { /* the draw's own answer is what counts */ });
  }

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
