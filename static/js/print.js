/* A [data-print] button prints the page (the find-your-seat list); the page shows the button
   hidden until this runs, so without JavaScript there is no button that does nothing. */
(function () {
  "use strict";

  function begin() {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        window.print();
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", begin);
  } else {
    begin();
  }
})();
