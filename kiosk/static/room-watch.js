/* The spectator page for any table of the room: the page's own scripts (cards.js, spectator.js)
   connect through the room's Socket.IO namespace to the table named by data-table. */
(function (global) {
  'use strict';
  var table = parseInt(document.currentScript.dataset.table, 10);
  var socketIo = global.io;
  global.io = function (opts) {
    opts = opts || {};
    var auth = {};
    Object.keys(opts.auth || {}).forEach(function (k) { auth[k] = opts.auth[k]; });
    auth.table = table;
    opts.auth = auth;
    return socketIo('/room', opts);
  };
})(window);
