/* Public pages: the wall screen's paging and the "find a player" filter of a round's tables.
   Plain JavaScript with no dependencies; the pages work without it (the wall then scrolls and
   the filter stays hidden). Live updates are htmx's job (hx-get polling in the templates). */
(function () {
  "use strict";

  // ------------------------------------------------------------------ wall screen
  // Each [data-wall-panel] (standings, the round's tables) is cut into screenfuls of its
  // [data-wall-item]s; the screenfuls of all panels are shown in turn. When htmx swaps in new
  // data the cutting is done again and the wall stays on the same screenful.

  const wall = {
    slides: [],
    current: 0,
    timer: null,
    paused: false,
  };

  function wallRoot() {
    return document.querySelector(".wall");
  }

  function wallSeconds(root) {
    const seconds = parseInt(root.dataset.wallSeconds, 10);
    return Number.isFinite(seconds) && seconds > 0 ? seconds : 12;
  }

  function footerHeight(root) {
    const footer = root.querySelector(".wall-footer");
    return footer ? footer.getBoundingClientRect().height : 0;
  }

  // Screenfuls of one panel, measured with every item shown.
  function pagesOf(panel, room) {
    const items = Array.from(panel.querySelectorAll("[data-wall-item]"));
    if (items.length === 0) {
      return [[]];
    }
    const pages = [];
    let page = [];
    let pageTop = items[0].getBoundingClientRect().top;
    const limit = room - pageTop;
    for (const item of items) {
      const box = item.getBoundingClientRect();
      if (page.length > 0 && box.bottom - pageTop > limit) {
        pages.push(page);
        page = [];
        pageTop = box.top;
      }
      page.push(item);
    }
    pages.push(page);
    return pages;
  }

  function buildWall(keepPlace) {
    const root = wallRoot();
    if (!root) {
      return;
    }
    const panels = Array.from(root.querySelectorAll("[data-wall-panel]"));
    if (panels.length === 0) {
      return;
    }
    document.documentElement.classList.add("wall-paged");
    window.scrollTo(0, 0);
    const room = window.innerHeight - footerHeight(root);
    const slides = [];
    for (const panel of panels) {
      for (const other of panels) {
        other.hidden = other !== panel;
      }
      for (const item of panel.querySelectorAll("[data-wall-item]")) {
        item.hidden = false;
      }
      for (const page of pagesOf(panel, room)) {
        slides.push({ panel: panel, items: new Set(page) });
      }
    }
    wall.slides = slides;
    wall.current = keepPlace ? Math.min(wall.current, slides.length - 1) : 0;
    showSlide(wall.current);
  }

  function showSlide(index) {
    const slide = wall.slides[index];
    if (!slide) {
      return;
    }
    for (const { panel } of wall.slides) {
      panel.hidden = panel !== slide.panel;
    }
    for (const item of slide.panel.querySelectorAll("[data-wall-item]")) {
      item.hidden = !slide.items.has(item);
    }
    const dots = document.querySelector("[data-wall-dots]");
    if (dots) {
      if (dots.children.length !== wall.slides.length) {
        dots.replaceChildren(...wall.slides.map(() => document.createElement("span")));
      }
      Array.from(dots.children).forEach(function (dot, number) {
        dot.classList.toggle("current", number === index);
      });
    }
  }

  function step(by) {
    if (wall.slides.length === 0) {
      return;
    }
    wall.current = (wall.current + by + wall.slides.length) % wall.slides.length;
    showSlide(wall.current);
  }

  function startWall() {
    const root = wallRoot();
    if (!root) {
      return;
    }
    buildWall(false);
    wall.timer = window.setInterval(function () {
      if (!wall.paused) {
        step(1);
      }
    }, wallSeconds(root) * 1000);

    // New standings or a new round: cut again, staying on the same screenful if it still exists.
    document.body.addEventListener("htmx:afterSwap", function (event) {
      if (event.target && event.target.matches && event.target.matches("[data-wall]")) {
        buildWall(true);
      }
    });

    let resizing = null;
    window.addEventListener("resize", function () {
      window.clearTimeout(resizing);
      resizing = window.setTimeout(function () {
        buildWall(true);
      }, 200);
    });

    // Arrow keys move between screenfuls; the space bar pauses and resumes the cycle.
    document.addEventListener("keydown", function (event) {
      if (event.target.closest && event.target.closest("a, button, input, select, textarea")) {
        return;
      }
      if (event.key === "ArrowRight" || event.key === "PageDown") {
        step(1);
      } else if (event.key === "ArrowLeft" || event.key === "PageUp") {
        step(-1);
      } else if (event.key === " ") {
        wall.paused = !wall.paused;
      } else {
        return;
      }
      event.preventDefault();
    });
  }

  // ------------------------------------------------------------------ live standings
  // A block marked data-poll-while-visible asks for news only while its tab is shown: hidden
  // phones and background tabs cost the server nothing. (htmx's "[...]" trigger filter would
  // do this with eval, which the Content-Security-Policy forbids.)
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

  // ------------------------------------------------------------------ find a player
  function startFindPlayer() {
    const box = document.querySelector("[data-find-player]");
    if (!box) {
      return;
    }
    const input = box.querySelector("input");
    const none = box.querySelector("[data-find-none]");
    const cards = Array.from(document.querySelectorAll("[data-table-card]"));
    const names = cards.map(function (card) {
      return Array.from(card.querySelectorAll("[data-player-name]"))
        .map(function (cell) {
          return cell.textContent.trim().toLocaleLowerCase();
        })
        .join("\n");
    });
    box.hidden = false;
    input.addEventListener("input", function () {
      const wanted = input.value.trim().toLocaleLowerCase();
      let shown = 0;
      cards.forEach(function (card, index) {
        const match = wanted === "" || names[index].includes(wanted);
        card.hidden = !match;
        shown += match ? 1 : 0;
      });
      none.hidden = shown > 0;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    startWall();
    startFindPlayer();
  });
})();
