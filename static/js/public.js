/* Public pages: the wall screen's paging and the "find a player" filter of a round's tables.
   Plain JavaScript with no dependencies; the pages work without it (the wall then scrolls and
   the filter stays hidden). Live updates are htmx's job (hx-get polling in the templates), and the
   standings socket's where it opens (a public tournament's standings page and wall screen). */
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

  // Screenfuls of a list that runs down columns ([data-wall-columns]): given the screen's
  // height, its columns flow on past the screen's right edge, and every screen's width of them is
  // one screenful. Shown alone, a screenful's items fill the same columns from the first one.
  function columnPagesOf(list, room) {
    const items = Array.from(list.querySelectorAll("[data-wall-item]"));
    list.style.height = Math.max(room - list.getBoundingClientRect().top, 0) + "px";
    const box = list.getBoundingClientRect();
    const pitch = box.width + (parseFloat(window.getComputedStyle(list).columnGap) || 0);
    const pages = [];
    for (const item of items) {
      const left = item.getBoundingClientRect().left - box.left;
      const number = Math.max(0, Math.floor((left + 1) / pitch));
      (pages[number] = pages[number] || []).push(item);
    }
    const filled = pages.filter(Boolean);
    return filled.length > 0 ? filled : [[]];
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
      const columns = panel.querySelector("[data-wall-columns]");
      for (const page of columns ? columnPagesOf(columns, room) : pagesOf(panel, room)) {
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
  //
  // While the standings socket is open the polls are not needed: the standings block's are
  // skipped, the wall's (data-poll-slow-while-live: it also shows the tables and the clock,
  // which the socket does not push) run every WALL_SLOW_POLL_MS only.
  const WALL_SLOW_POLL_MS = 10000;
  let lastSlowPoll = 0;

  const standings = {
    live: false,
    // The wall's next request is the one a pushed notice asked for: never skipped.
    forced: false,
    retry: 1000,
    queue: Promise.resolve(),
  };

  document.addEventListener("htmx:beforeRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (!element) {
      return;
    }
    if (element.hasAttribute("data-poll-while-visible")) {
      if (document.visibilityState !== "visible" || standings.live) {
        event.preventDefault();
      }
    } else if (element.hasAttribute("data-poll-slow-while-live") && standings.live) {
      if (standings.forced) {
        standings.forced = false;
      } else if (Date.now() - lastSlowPoll < WALL_SLOW_POLL_MS) {
        event.preventDefault();
        return;
      }
      lastSlowPoll = Date.now();
    }
  });

  // ------------------------------------------------------------------ standings socket
  // [data-standings-socket] names the socket (web/consumers.py). It sends the gzip of the new
  // standings block once per snapshot (binary frames), or with data-standings-notice a small
  // JSON notice after which the wall fetches its own screen. If the socket cannot open or
  // drops, the polls above run again as before; it is opened again after a pause that grows
  // (1 s to 30 s, with some randomness so that a restarted server is not asked by every phone
  // at once), telling the version shown so that it sends what was missed. Browsers without
  // DecompressionStream only poll.

  function versionNumber(text) {
    const number = parseInt(text, 10);
    return Number.isFinite(number) ? number : -1;
  }

  function standingsBlock(holder) {
    return holder.querySelector("#standings-live");
  }

  function shownVersion(holder) {
    const block = standingsBlock(holder);
    return block ? block.getAttribute("data-standings-version") || "" : "";
  }

  function showPushedBlock(holder, html) {
    const block = standingsBlock(holder);
    const template = document.createElement("template");
    template.innerHTML = html;
    const pushed = template.content.querySelector("#standings-live");
    if (!block || !pushed) {
      return;
    }
    // A poll may have brought a newer table while this one was on its way.
    if (
      versionNumber(pushed.getAttribute("data-standings-version")) <=
      versionNumber(block.getAttribute("data-standings-version"))
    ) {
      return;
    }
    window.htmx.swap(block, html, { swapStyle: "outerHTML" });
  }

  function gunzip(blob) {
    const stream = blob.stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }

  function openStandingsSocket(holder) {
    const notice = holder.hasAttribute("data-standings-notice");
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    let url = scheme + window.location.host + holder.getAttribute("data-standings-socket");
    url += "?version=" + encodeURIComponent(notice ? "" : shownVersion(holder));
    if (notice) {
      url += "&notice=1";
    }
    let socket;
    try {
      socket = new WebSocket(url);
    } catch (error) {
      return;
    }
    socket.binaryType = "blob";
    socket.addEventListener("open", function () {
      standings.live = true;
      standings.retry = 1000;
      holder.setAttribute("data-standings-live", "open");
    });
    socket.addEventListener("message", function (event) {
      if (typeof event.data === "string") {
        let message = null;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        const wallLive = document.querySelector("[data-poll-slow-while-live]");
        if (message && message.type === "standings" && wallLive) {
          standings.forced = true;
          window.htmx.trigger(wallLive, "standings-pushed");
        }
        return;
      }
      // In order: a table decompressed late must not replace a newer one.
      standings.queue = standings.queue
        .then(function () {
          return gunzip(event.data);
        })
        .then(function (html) {
          showPushedBlock(holder, html);
        })
        .catch(function () {});
    });
    socket.addEventListener("close", function () {
      standings.live = false;
      holder.setAttribute("data-standings-live", "closed");
      const pause = standings.retry * (0.5 + Math.random());
      standings.retry = Math.min(standings.retry * 2, 30000);
      window.setTimeout(function () {
        openStandingsSocket(holder);
      }, pause);
    });
  }

  function startStandingsSocket() {
    const holder = document.querySelector("[data-standings-socket]");
    if (
      !holder ||
      !window.htmx ||
      typeof window.WebSocket !== "function" ||
      typeof window.DecompressionStream !== "function"
    ) {
      return;
    }
    openStandingsSocket(holder);
  }

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
    startStandingsSocket();
  });
})();
