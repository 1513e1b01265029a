/* Shared by the dealer and spectator pages: cards, messages, the live connection. */
(function (global) {
  'use strict';
  var SUIT = { c: '♣', d: '♦', h: '♥', s: '♠' };
  var RANKS = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];
  var SUITS = ['s', 'h', 'd', 'c'];

  function esc(text) {
    return String(text == null ? '' : text).replace(/[&<>"']/g, function (ch) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[ch];
    });
  }
  function cardLabel(code) {
    var rank = code.charAt(0) === 'T' ? '10' : code.charAt(0);
    return rank + SUIT[code.charAt(1)];
  }
  /* slot: {card: "Ah" | null, up: bool, public: bool}; back: draw hidden cards as a card back */
  function cardHTML(slot, opts) {
    opts = opts || {};
    if (!slot || !slot.card) {
      return '<span class="card ' + (opts.unknown ? 'unknown' : 'back') + '" data-card="">' +
        (opts.unknown ? '?' : '') + '</span>';
    }
    var cls = 'card s-' + slot.card.charAt(1) + (slot.public === false ? ' down-known' : '');
    /* a down card entered with its value: the dealer screen may draw it as a back with a mark
       (kiosk.css, body.hide-down) until the dealer holds a finger on it */
    return '<span class="' + cls + '" data-card="' + esc(slot.card) + '">' + cardLabel(slot.card) + '</span>';
  }
  function messages() {
    var node = document.getElementById('messages');
    return node ? JSON.parse(node.textContent) : {};
  }
  var M = null;
  function t(key, params) {
    M = M || messages();
    var text = M[key] || key;
    params = params || {};
    return text.replace(/\{(\w+)\}/g, function (all, name) {
      return params[name] !== undefined ? params[name] : all;
    });
  }
  /* A Socket.IO connection that reconnects by itself; onState gets every state. */
  function live(role, lang, onState, onStatus) {
    var socket = io({ auth: { role: role, lang: lang }, transports: ['websocket', 'polling'],
      reconnectionDelay: 500, reconnectionDelayMax: 3000 });
    socket.on('connect', function () { onStatus(true); });
    socket.on('disconnect', function () { onStatus(false); });
    socket.on('connect_error', function () { onStatus(false); });
    socket.on('state', onState);
    /* other parts of the page (a tournament's clock) draw the same state */
    socket.on('state', function (st) { document.dispatchEvent(new CustomEvent('stud:state', { detail: st })); });
    global.Stud.socket = socket;
    /* after the page was asleep or the network dropped, ask again */
    document.addEventListener('visibilitychange', function () {
      if (!document.hidden && socket.connected) socket.emit('sync', null, onState);
    });
    return socket;
  }
  global.Stud = { esc: esc, cardHTML: cardHTML, cardLabel: cardLabel, t: t, live: live,
    RANKS: RANKS, SUITS: SUITS, SUIT: SUIT };
})(window);
