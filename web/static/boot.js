/* Starts the page once the DOM is ready (no inline script: the pages run under a strict
 * Content-Security-Policy). The calibration page also starts its wizard. */
"use strict";
(() => {
  const go = () => {
    window.Companion.start();
    if (window.Calibrate && document.body.dataset.page === "calibrate") window.Calibrate.start();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go);
  else go();
})();
