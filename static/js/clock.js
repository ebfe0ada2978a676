/* The round clock ([data-round-clock], templates/public/_round_clock.html): the server writes
   the seconds left when it drew the block; this ticks them on in the browser while the clock
   runs, into overtime below zero. A paused clock stands. When htmx swaps in a new block (the
   director paused, resumed or extended it), the new one counts from its own seconds. Plain
   JavaScript with no dependencies; without it the clock shows the time of the last refresh. */
(function () {
  "use strict";

  var seen = new WeakMap();

  // The same text as tournaments.clock.clock_text: 45:00, 1:05:00, 0:09, overtime +2:30.
  function clockText(seconds) {
    var sign = seconds < 0 ? "+" : "";
    var left = Math.abs(seconds);
    var hours = Math.floor(left / 3600);
    var minutes = Math.floor((left % 3600) / 60);
    var secs = left % 60;
    var two = function (n) {
      return (n < 10 ? "0" : "") + n;
    };
    if (hours) {
      return sign + hours + ":" + two(minutes) + ":" + two(secs);
    }
    return sign + minutes + ":" + two(secs);
  }

  function show(block, selector, shown) {
    var element = block.querySelector(selector);
    if (element) {
      element.hidden = !shown;
    }
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-round-clock]").forEach(function (block) {
      if (block.getAttribute("data-ticking") !== "1") {
        return;
      }
      var start = seen.get(block);
      if (!start) {
        var remaining = parseInt(block.getAttribute("data-remaining"), 10);
        if (!Number.isFinite(remaining)) {
          return;
        }
        start = { remaining: remaining, at: now };
        seen.set(block, start);
      }
      var left = start.remaining - Math.floor((now - start.at) / 1000);
      var time = block.querySelector("[data-clock-time]");
      var text = clockText(left);
      if (time && time.textContent !== text) {
        time.textContent = text;
      }
      block.classList.toggle("is-overtime", left < 0);
      show(block, "[data-clock-left]", left >= 0);
      show(block, "[data-clock-overtime]", left < 0);
    });
  }

  function begin() {
    tick();
    window.setInterval(tick, 250);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", begin);
  } else {
    begin();
  }
})();
