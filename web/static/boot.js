/* Starts the page once it is parsed. A file of its own: the Content-Security-Policy
 * allows no inline script. */
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  Companion.start();
  if (window.Calibrate && document.body.dataset.page === "calibrate") window.Calibrate.start();
});
