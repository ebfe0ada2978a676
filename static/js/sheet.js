// The score-sheet form of the director's result page and the player's sheet page: add and remove
// deals, keep the dealer rotation and the field names in order, and move on with Enter instead of
// submitting a half-typed sheet. The server checks the sheet (htmx posts it on every change and
// swaps in the running totals and what to fix); nothing here judges the rules or adds up scores.
(function () {
  "use strict";

  var form = document.getElementById("sheet-form");
  if (!form) {
    return;
  }
  // A field the server refused loses its mark once it is changed; the check says the rest.
  form.addEventListener("input", function (event) {
    event.target.removeAttribute("aria-invalid");
  });
  // With this script the sheet is checked as it is typed and deals are added one by one; the
  // buttons that do it by reloading the page are for browsers without it.
  form.querySelectorAll("[data-nojs]").forEach(function (button) {
    button.hidden = true;
  });

  var template = document.getElementById("deal-template");
  var deals = form.querySelector("[data-deals]");
  if (!template || !deals) {
    return; // final totals only: no deals to add or number
  }
  var prefix = form.dataset.prefix || "rows";
  var players = parseInt(form.dataset.players, 10) || 4;
  var total = form.querySelector('input[name="' + prefix + '-TOTAL_FORMS"]');
  var addButton = form.querySelector("[data-add-deal]");
  var fieldPattern = new RegExp("(" + prefix + "-)(\\d+|__prefix__)(-)");
  var checkPattern = /^deal-check-(\d+|__prefix__)$/;
  // The translated labels, taken from the template with its placeholder number.
  var titleTemplate = template.content.querySelector("[data-deal-title]").textContent;
  var removeTemplate = template.content.querySelector("[data-deal-remove-label]").textContent;

  function rows() {
    return Array.prototype.slice.call(deals.querySelectorAll("[data-deal]"));
  }

  function changed() {
    // Tells htmx (hx-trigger="sheet:changed") to check the sheet again.
    form.dispatchEvent(new CustomEvent("sheet:changed", { bubbles: true }));
  }

  // Gives every row the names, ids and labels of its position, and the dealer of that deal.
  function renumber() {
    rows().forEach(function (row, index) {
      var number = String(index + 1);
      var named = row.querySelectorAll("[name], [id], label[for], [aria-describedby]");
      named.forEach(function (element) {
        ["name", "id", "for"].forEach(function (attribute) {
          var value = element.getAttribute(attribute);
          if (value && fieldPattern.test(value)) {
            element.setAttribute(attribute, value.replace(fieldPattern, "$1" + index + "$3"));
          } else if (value && checkPattern.test(value)) {
            element.setAttribute(attribute, "deal-check-" + index);
          }
        });
        // A field with errors is described by its deal's check line, which moves with it.
        var described = element.getAttribute("aria-describedby");
        if (described) {
          element.setAttribute(
            "aria-describedby",
            described
              .split(" ")
              .map(function (token) {
                return checkPattern.test(token) ? "deal-check-" + index : token;
              })
              .join(" ")
          );
        }
      });
      row.querySelector("[data-deal-title]").textContent = titleTemplate
        .trim()
        .replace("__number__", number);
      var remove = row.querySelector("[data-deal-remove-label]");
      remove.textContent = removeTemplate.trim().replace("__number__", number);
      remove.hidden = false;
      // Seat 0 deals first and the deal passes to the left, so a deal's dealer follows from
      // its position; the server still checks it.
      var dealer = row.querySelector("[data-dealer]");
      if (dealer) {
        dealer.value = String(index % players);
      }
    });
    total.value = String(rows().length);
  }

  function addDeal() {
    var fragment = template.content.cloneNode(true);
    var row = fragment.querySelector("[data-deal]");
    deals.appendChild(fragment);
    renumber();
    var first = row.querySelector("select:not([data-dealer]), input");
    if (first) {
      first.focus();
    }
    changed();
    return row;
  }

  function removeDeal(row) {
    var all = rows();
    var index = all.indexOf(row);
    row.remove();
    renumber();
    var left = rows();
    var next = left[Math.min(index, left.length - 1)];
    var target = next ? next.querySelector("[data-remove-deal]") : addButton;
    if (target) {
      target.focus();
    }
    changed();
  }

  // Enter moves to the next field (and from the last field to a new deal) instead of
  // submitting the form; the submit button is the only way to send the sheet.
  function fieldsOf(row) {
    return Array.prototype.slice.call(
      row.querySelectorAll("input:not([type=hidden]):not([type=checkbox]), select")
    );
  }

  form.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.key !== "Enter" || target.tagName !== "INPUT" || target.type === "checkbox") {
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
    var all = rows();
    var next = all[all.indexOf(row) + 1];
    if (next) {
      fieldsOf(next)[1].focus();
    } else {
      addDeal();
    }
  });

  form.addEventListener("click", function (event) {
    var remove = event.target.closest("[data-remove-deal]");
    if (remove) {
      removeDeal(remove.closest("[data-deal]"));
    }
  });

  // A deal whose check names something to fix gets the error mark (htmx swaps in only the lines).
  form.addEventListener("htmx:afterSettle", function () {
    rows().forEach(function (row) {
      row.classList.toggle("has-error", row.querySelector(".deal-check .error-text") !== null);
    });
  });

  if (addButton) {
    addButton.hidden = false;
    addButton.addEventListener("click", addDeal);
  }
  renumber();
})();
