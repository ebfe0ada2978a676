/* Every page: the few behaviours of the frame that base.html draws. They live here, not in
   inline handlers, because the Content-Security-Policy runs no inline script; every page works
   without this file (the language form then has its own button). */
(function () {
  "use strict";

  // A <select data-submit-on-change> (the language switch) sends its form as soon as it changes.
  document.addEventListener("change", function (event) {
    var control = event.target;
    if (control.matches && control.matches("select[data-submit-on-change]") && control.form) {
      control.form.submit();
    }
  });
})();
