/* The player's pages (/me/ and the sheet page): their live part polls with htmx (hx-get in the
   templates); this file only says when not to. Plain JavaScript with no dependencies; without
   it the pages still poll, and without htmx they are as fresh as their last reload. */
(function () {
  "use strict";

  // A block marked data-poll-while-visible asks for news only while its tab is shown: a phone in
  // a pocket costs the server nothing. (htmx's "[...]" trigger filter would do this with eval,
  // which the Content-Security-Policy forbids.)
  document.addEventListener("htmx:beforeRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (
      element &&
      element.hasAttribute("data-poll-while-visible") &&
      document.visibilityState !== "visible"
    ) {
      event.preventDefault();
    }
  });

  // The sheet page's live part says which draft of the table's sheet the page's form holds, so
  // that the server can tell about deals a table-mate saved since (on another phone).
  document.addEventListener("htmx:configRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (!element || element.id !== "sheet-live") {
      return;
    }
    var held = document.querySelector('#sheet-form input[name$="draft_version"]');
    if (held && held.value !== "") {
      event.detail.parameters.draft = held.value;
    }
  });

  // Shown again: ask at once (the blocks listen for "player:visible" on the body).
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && document.body) {
      document.body.dispatchEvent(new CustomEvent("player:visible"));
    }
  });

  // A block marked data-live-guard is not redrawn under the player's fingers: while he types a
  // dispute note in it (or has typed one), the news waits and a notice offers a reload.
  function busy(block) {
    var active = document.activeElement;
    if (active && block.contains(active) && active.matches("input, textarea, select")) {
      return true;
    }
    return Array.prototype.some.call(block.querySelectorAll("textarea"), function (area) {
      return area.value.trim() !== "";
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-live-guard")) {
      return;
    }
    if (event.detail.xhr && event.detail.xhr.status === 200 && busy(target)) {
      event.detail.shouldSwap = false;
      var stale = document.querySelector("[data-live-stale]");
      if (stale) {
        stale.hidden = false;
      }
    }
  });
})();
