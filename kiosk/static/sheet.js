/* The sheet of the night's and the tournament's pages: opened with its content, closed by any
   [data-close] button in it, and the on-screen keys (keys.js) closed with it. Not modal: the
   keys must be able to open above it. */
(function () {
  'use strict';
  window.StudSheet = function (sheet, body) {
    function close() {
      if (sheet.open) sheet.close();
      document.body.classList.remove('sheet-open');
      if (window.StudKeys) window.StudKeys.close();
    }
    function open(html) {
      body.innerHTML = html;
      if (!sheet.open) { sheet.show(); document.body.classList.add('sheet-open'); }
      body.querySelectorAll('[data-close]').forEach(function (b) { b.addEventListener('click', close); });
    }
    return { open: open, close: close };
  };
})();
