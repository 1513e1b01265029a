/* The room page: every table of the room, live, from whichever kiosk serves the page. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var root = document.getElementById('room');
  var lang = root.dataset.lang;
  var tables = {};
  JSON.parse(document.getElementById('room-tables').textContent).forEach(function (tb) {
    tables[tb.table] = tb;
  });

  function stakes(st) {
    return t('room.stakes_text', { ante: st.ante, bring_in: st.bring_in, small_bet: st.small_bet,
      big_bet: st.big_bet });
  }

  function tableHTML(tb) {
    var players = tb.players.map(function (p) {
      return '<li' + (p.folded ? ' class="folded"' : '') + '><span>' + esc(p.name) + '</span><span>' +
        p.stack + '</span></li>';
    }).join('');
    var state = tb.hand === null ? t('room.no_hand') :
      t('room.hand', { number: tb.hand }) + ' · ' + (tb.finished ? t('room.between_hands') : tb.street);
    return '<a class="room-table" data-testid="room-table" data-table="' + tb.table + '" href="' +
      esc(tb.url) + '?lang=' + esc(lang) + '">' +
      '<h2>' + esc(tb.name) + '</h2>' +
      '<div class="game">' + esc(tb.game_name) + '</div>' +
      '<div class="muted" data-testid="room-stakes">' + esc(stakes(tb.stakes)) + '</div>' +
      '<div data-testid="room-street">' + esc(state) + '</div>' +
      '<div>' + esc(t('room.pot')) + ': <span class="pot" data-testid="room-pot">' + tb.pot + '</span></div>' +
      (tb.to_act ? '<div>' + esc(t('room.to_act', { name: tb.to_act })) + '</div>' : '') +
      '<ul class="players">' + players + '</ul>' + nightHTML(tb.night) +
      '<span class="btn">' + esc(t('room.watch')) + '</span></a>';
  }

  /* the table's night: its money in and each player's result */
  function nightHTML(n) {
    if (!n) return '';
    return '<div class="room-night" data-testid="room-night"><strong>' + esc(t(n.closed ? 'night.closed' : 'night.title')) +
      '</strong> · ' + esc(n.rate_text) + ' · ' + esc(t('night.money_in')) + ' ' + esc(n.money_in) +
      '<ul class="players">' + n.players.map(function (p) {
        return '<li><span>' + esc(p.name) + '</span><span class="' + (p.result_cents > 0 ? 'gain' : p.result_cents < 0 ? 'loss' : '') +
          '">' + esc(p.result) + '</span></li>';
      }).join('') + '</ul></div>';
  }

  function render() {
    var ids = Object.keys(tables).map(Number).sort(function (a, b) { return a - b; });
    root.innerHTML = ids.length ? ids.map(function (id) { return tableHTML(tables[id]); }).join('') :
      '<p class="muted">' + esc(t('room.none')) + '</p>';
  }

  function status(on) {
    var c = document.getElementById('room-conn');
    c.className = 'room-conn muted' + (on ? '' : ' off');
    c.textContent = on ? '● ' + t('live.online') : '○ ' + t('live.offline');
  }

  var socket = io('/room', { auth: { lang: lang }, transports: ['websocket', 'polling'],
    reconnectionDelay: 500, reconnectionDelayMax: 3000 });
  socket.on('connect', function () { status(true); });
  socket.on('disconnect', function () { status(false); });
  socket.on('connect_error', function () { status(false); });
  socket.on('tables', function (list) {
    tables = {};
    list.forEach(function (tb) { tables[tb.table] = tb; });
    render();
  });
  socket.on('table', function (tb) { tables[tb.table] = tb; render(); });
  render();
  status(false);
})();
