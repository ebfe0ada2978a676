// The director's pages: confirmations, printing, focus on errors and the sheet's live totals.
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

  // The score sheet's totals row adds up each seat's column as the scores are typed.
  function sheetTotals(sheet) {
    var seats = parseInt(sheet.getAttribute("data-seats"), 10) || 0;
    var update = function () {
      for (var seat = 0; seat < seats; seat += 1) {
        var sum = 0;
        var inputs = sheet.querySelectorAll('input[name$="-score_' + seat + '"]');
        for (var i = 0; i < inputs.length; i += 1) {
          var value = parseInt(inputs[i].value, 10);
          if (!isNaN(value)) {
            sum += value;
          }
        }
        var cell = sheet.querySelector('[data-total="' + seat + '"]');
        if (cell) {
          // In the page's language, without grouping, as the server writes the other numbers.
          cell.textContent = sum.toLocaleString(document.documentElement.lang || undefined, {
            useGrouping: false,
          });
        }
      }
    };
    sheet.addEventListener("input", update);
    update();
  }

  function start() {
    focusErrors();
    var sheets = document.querySelectorAll("[data-sheet]");
    for (var i = 0; i < sheets.length; i += 1) {
      sheetTotals(sheets[i]);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
