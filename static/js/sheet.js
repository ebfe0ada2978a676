// The score-sheet form of the director's result page and the player's sheet page, entered one
// deal at a time as the table plays. The server does the work: htmx posts the sheet on every
// change and swaps in the running totals, what to fix and the scores each deal gives (the
// declarer's, the defenders' of a conceded deal); "Save the deal and go on", "Remove deal N" and
// "Undo" save the table's draft and swap in the form the server sends back. This script shows
// the given scores in their fields (not typed, not sent: the server fills them in again), moves
// on with Enter, warns before leaving a deal that is not saved, and keeps going when the server
// cannot be reached. Nothing here judges the rules or adds up scores.
(function () {
  "use strict";

  var SAVES = "[data-add-deal], [data-remove-deal], [data-restore-deal]";
  // The fields of a deal whose change makes its given scores stale (its scores do not).
  var DEAL_FIELD = /-(dealer|declarer|bid|contract|outcome|forced)$/;
  var dirty = false;
  var saving = false;
  var lastSave = null;

  function sheetForm() {
    return document.getElementById("sheet-form");
  }

  function rowsOf(form) {
    var deals = form.querySelector("[data-deals]");
    return deals ? Array.prototype.slice.call(deals.querySelectorAll("[data-deal]")) : [];
  }

  function scoreInputs(row) {
    return Array.prototype.slice.call(row.querySelectorAll("[data-seat] input"));
  }

  function seatOf(input) {
    return input.closest("[data-seat]").getAttribute("data-seat");
  }

  // The scores the server says the deal gives: {seat: score}.
  function fillsOf(row) {
    var fills = {};
    row.querySelectorAll(".deal-check [data-fill]").forEach(function (element) {
      fills[element.getAttribute("data-fill")] = element.getAttribute("value");
    });
    return fills;
  }

  function declarerOf(row) {
    var select = row.querySelector('select[name$="-declarer"]');
    return select ? select.value : "";
  }

  // The declarer's score and the scores the server gave are shown filled in and not sent (a
  // disabled field is not posted, so the server always fills them in from the deal as it is);
  // a field given before but not any more is the person's to type again.
  function showGiven(row) {
    var fills = fillsOf(row);
    var declarer = declarerOf(row);
    scoreInputs(row).forEach(function (input) {
      var seat = seatOf(input);
      var given = Object.prototype.hasOwnProperty.call(fills, seat);
      if (given || (declarer !== "" && seat === declarer)) {
        if (given) {
          input.value = fills[seat];
        } else if (!input.hasAttribute("data-auto")) {
          input.value = "";
        }
        input.disabled = true;
        input.setAttribute("data-auto", "");
        input.removeAttribute("aria-invalid");
      } else if (input.hasAttribute("data-auto")) {
        input.disabled = false;
        input.removeAttribute("data-auto");
        input.value = "";
      }
    });
  }

  // A deal changed: its given scores are stale until the server's check gives them again.
  function dealChanged(row) {
    row.querySelectorAll(".deal-check [data-fill]").forEach(function (element) {
      element.remove();
    });
    scoreInputs(row).forEach(function (input) {
      if (input.hasAttribute("data-auto")) {
        input.value = "";
      }
    });
    showGiven(row);
  }

  // Enter moves to the next field (and from a deal's last field saves it and goes on) instead
  // of submitting a half-typed sheet; the submit button is the only way to send the sheet.
  function fieldsOf(row) {
    return Array.prototype.slice
      .call(row.querySelectorAll("input:not([type=hidden]):not([type=checkbox]), select"))
      .filter(function (field) {
        return !field.disabled && !field.hasAttribute("data-dealer");
      });
  }

  function focusDeal(row) {
    var first = fieldsOf(row)[0];
    row.open = true;
    row.scrollIntoView({ block: "nearest" });
    if (first) {
      first.focus({ preventScroll: true });
    }
  }

  // Without the server (no connection), a new deal from the template, so that the table can
  // go on; everything typed is saved with the next deal that reaches the server.
  function addDealHere(form) {
    var template = document.getElementById("deal-template");
    var deals = form.querySelector("[data-deals]");
    if (!template || !deals) {
      return;
    }
    var players = parseInt(form.dataset.players, 10) || 4;
    var prefix = form.dataset.prefix || "rows";
    var fieldPattern = new RegExp("(" + prefix + "-)(\\d+|__prefix__)(-)");
    var checkPattern = /^deal-(check|line)-(\d+|__prefix__)$/;
    var fragment = template.content.cloneNode(true);
    var row = fragment.querySelector("[data-deal]");
    var index = rowsOf(form).length;
    var number = String(index + 1);
    row.querySelectorAll("[name], [id], label[for], [aria-describedby]").forEach(function (el) {
      ["name", "id", "for"].forEach(function (attribute) {
        var value = el.getAttribute(attribute);
        if (value && fieldPattern.test(value)) {
          el.setAttribute(attribute, value.replace(fieldPattern, "$1" + index + "$3"));
        } else if (value && checkPattern.test(value)) {
          el.setAttribute(attribute, value.replace(checkPattern, "deal-$1-" + index));
        }
      });
      var described = el.getAttribute("aria-describedby");
      if (described) {
        el.setAttribute("aria-describedby", described.replace(/__prefix__/g, String(index)));
      }
    });
    row.querySelectorAll("[data-deal-title], [data-deal-remove-label]").forEach(function (el) {
      el.textContent = el.textContent.trim().replace("__number__", number);
    });
    row.querySelector("[data-remove-deal]").value = number;
    var dealer = row.querySelector("[data-dealer]");
    if (dealer) {
      dealer.value = String(index % players);
    }
    rowsOf(form).forEach(function (other) {
      other.removeAttribute("data-current");
      if (other.querySelector(".deal-check[data-done]")) {
        other.open = false;
      }
    });
    row.setAttribute("data-current", "");
    deals.appendChild(fragment);
    form.querySelector('input[name="' + prefix + '-TOTAL_FORMS"]').value = String(index + 1);
    if (window.htmx) {
      window.htmx.process(row);
    }
    focusDeal(row);
  }

  function init(form, swapped) {
    if (form.dataset.ready) {
      return;
    }
    form.dataset.ready = "1";
    dirty = false;
    saving = false;
    // With this script the sheet is checked as it is typed; the buttons that do it by reloading
    // the page are for browsers without it.
    form.querySelectorAll("[data-nojs]").forEach(function (button) {
      button.hidden = true;
    });
    rowsOf(form).forEach(showGiven);
    if (!swapped) {
      return;
    }
    var restore = form.querySelector("[data-restore-deal]");
    var current = form.querySelector("[data-deal][data-current]");
    if (lastSave === "remove" && restore) {
      restore.focus();
    } else if (form.querySelector("[data-draft-notice]")) {
      form.querySelector("[data-draft-notice]").scrollIntoView({ block: "center" });
    } else if (current) {
      focusDeal(current);
    } else {
      form.querySelector("#sheet-check").scrollIntoView({ block: "nearest" });
    }
  }

  document.addEventListener("input", function (event) {
    var form = sheetForm();
    if (!form || !form.contains(event.target)) {
      return;
    }
    // A field the server refused loses its mark once it is changed; the check says the rest.
    event.target.removeAttribute("aria-invalid");
    dirty = true;
    var row = event.target.closest("[data-deal]");
    if (row && DEAL_FIELD.test(event.target.name || "")) {
      dealChanged(row);
    }
  });

  document.addEventListener("keydown", function (event) {
    var form = sheetForm();
    var target = event.target;
    if (!form || !form.contains(target) || event.key !== "Enter") {
      return;
    }
    if (target.tagName !== "INPUT" || target.type === "checkbox") {
      return;
    }
    var row = target.closest("[data-deal]");
    if (!row) {
      return;
    }
    event.preventDefault();
    var fields = fieldsOf(row);
    var position = fields.indexOf(target);
    if (position >= 0 && position < fields.length - 1) {
      fields[position + 1].focus();
      return;
    }
    var all = rowsOf(form);
    var next = all[all.indexOf(row) + 1];
    if (next && next.open) {
      focusDeal(next);
    } else {
      form.querySelector("[data-add-deal]").click();
    }
  });

  document.addEventListener("submit", function (event) {
    if (event.target === sheetForm()) {
      dirty = false; // the sheet is sent: leaving the page is what the person asked for
    }
  });

  window.addEventListener("beforeunload", function (event) {
    if (dirty && sheetForm()) {
      event.preventDefault();
      event.returnValue = "";
    }
  });

  // htmx: no check while a deal is being saved (the saved form replaces this one). It is held
  // back at htmx:confirm, which comes before hx-sync: a check that got as far as the form's sync
  // ("replace") would cancel the save in flight, as a check typed half a second before a save
  // answered later did.
  document.addEventListener("htmx:confirm", function (event) {
    if (saving && event.detail.elt === sheetForm()) {
      event.preventDefault();
    }
  });

  // A save's answer is swapped in even when it is a refusal (400) or a newer draft (409).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var form = sheetForm();
    if (!form) {
      return;
    }
    if (elt.matches && elt.matches(SAVES)) {
      saving = true;
      lastSave = elt.matches("[data-remove-deal]")
        ? "remove"
        : elt.matches("[data-add-deal]")
          ? "next"
          : "restore";
      form.querySelectorAll("[data-save-failed]").forEach(function (note) {
        note.hidden = true;
      });
    }
  });

  // A save's answer replaces the whole form (its target); a check's only the summary.
  function isSave(event) {
    var target = event.detail.target;
    return saving && target && target.id === "sheet-form";
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (isSave(event) && (status === 400 || status === 409)) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  function saveFailed(event) {
    var form = sheetForm();
    if (!form || !isSave(event)) {
      return;
    }
    saving = false;
    form.querySelectorAll("[data-save-failed]").forEach(function (note) {
      note.hidden = false;
    });
    if (event.type === "htmx:sendError" && lastSave === "next") {
      addDealHere(form);
    }
  }
  document.addEventListener("htmx:sendError", saveFailed);
  document.addEventListener("htmx:responseError", saveFailed);

  // A deal whose check names something to fix gets the error mark (htmx swaps in only the
  // lines), and the given scores are shown in their fields.
  document.addEventListener("htmx:afterSettle", function () {
    var form = sheetForm();
    if (!form) {
      return;
    }
    rowsOf(form).forEach(function (row) {
      row.classList.toggle("has-error", row.querySelector(".deal-check .error-text") !== null);
      showGiven(row);
    });
  });

  // The form as the page opens, and each form a save swaps in.
  document.addEventListener("htmx:load", function (event) {
    var root = event.target;
    if (root.id === "sheet-form") {
      init(root, true);
    }
  });
  var form = sheetForm();
  if (form) {
    init(form, false);
  }
})();
