/* The night on the dealer's touchscreen: seats as tiles, each with its player's chips and result;
   a tap on a seat opens its entries (buy-in, rebuy, sit out, change seat, cash out). Every entry
   is sent as the hands' entries are ("act" on the dealer's Socket.IO connection, through
   TableService.submit) and the screen draws the state the server pushes back. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc, F = window.StudFeedback;
  var root = document.getElementById('night');
  var lang = root.dataset.lang, SEATS = +root.dataset.seats, HOUSE = root.dataset.house;
  var CURRENCIES = root.dataset.currencies.split(',');
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var sheet = document.getElementById('sheet'), body = document.getElementById('sheet-body');
  var sheetOf = window.StudSheet(sheet, body);
  var state = null, players = [], moving = null;
  var form = { currency: 'EUR', bank: 'none' };

  var socket = S.live('dealer', lang, function (st) {
    state = st; render();
    root.dataset.version = st.version;  /* the state drawn (a test waits for the next one) */
  }, function () {});

  /* An entry carries an id of its own: sent again while unanswered (the link dropped), the kiosk
     answers with the entry it made and never makes it twice. */
  function entryId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function send(name, payload, done) {
    var sent = payload || null, tries = 0, entry = name === 'act';
    if (entry) { sent = Object.assign({}, payload); sent.id = entryId(); }
    function attempt() {
      tries += 1;
      socket.timeout(8000).emit(name, sent, function (err, ack) {
        if (err) {
          F.say(t('live.offline'), 'error');
          if (entry && tries < 5) {
            if (socket.connected) setTimeout(attempt, 1000); else socket.once('connect', attempt);
          }
        } else if (!ack || !ack.ok) F.say((ack && ack.error) || '?', 'error');
        else if (done) done(ack);
      });
    }
    attempt();
  }
  function enter(entry, words) {
    send('act', entry, function () { closeSheet(); if (words) F.say(t('night.done', { what: words }), 'ok'); });
  }
  function api(method, url, data) {
    return fetch(url, { method: method, credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf },
      body: data ? JSON.stringify(data) : undefined }).then(function (r) { return r.json(); });
  }
  function loadPlayers() {
    return api('GET', '/api/players').then(function (a) { if (a.ok) players = a.players; });
  }

  /* ---- what the night says of a seat ---- */
  function night() { return state && state.night && !state.night.closed ? state.night : null; }
  function rowOf(player) {
    var n = state.night;
    for (var i = 0; n && i < n.rows.length; i++) if (n.rows[i].player === player) return n.rows[i];
    return null;
  }
  function seatAt(number) {
    var seats = state.table.seats;
    for (var i = 0; i < seats.length; i++) if (seats[i].seat === number) return seats[i];
    return null;
  }
  function rowAtSeat(number) {
    var n = state.night;
    for (var i = 0; n && i < n.rows.length; i++) if (n.rows[i].seat === number) return n.rows[i];
    return null;
  }
  function resultClass(cents) { return cents > 0 ? 'gain' : cents < 0 ? 'loss' : ''; }
  function cents(text) {  /* "2,50" or "2.50" -> 250; null when not an amount */
    var m = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text || '');
    if (!m) return null;
    return +m[1] * 100 + (m[2] ? +(m[2] + '0').slice(0, 2) : 0);
  }
  function whole(text) { return /^\s*\d{1,9}\s*$/.test(text || '') ? +text : null; }

  /* ---- drawing ---- */
  function render() {
    if (!state) return;
    var n = night();
    root.innerHTML = n ? openHTML(n) : closedHTML();
    bind();
  }
  function standingsHTML(n) {
    return '<table class="standings" data-testid="standings"><thead><tr><th>' + esc(t('night.player')) + '</th><th>' +
      esc(t('night.money_in')) + '</th><th>' + esc(t('night.chips_now')) + '</th><th>' + esc(t('night.result')) +
      '</th></tr></thead><tbody>' + n.rows.map(function (r) {
        return '<tr class="' + (r.left ? 'left' : '') + '" data-player="' + r.player + '"><td>' + esc(r.name) +
          (r.left && !n.closed ? ' <span class="muted">(' + esc(t('night.left')) + ')</span>' : '') + '</td><td>' + esc(r.money_in) +
          (r.rebuys ? ' <span class="muted">+' + r.rebuys + '</span>' : '') + '</td><td>' + r.chips_now +
          '</td><td class="' + resultClass(r.result_cents) + '" data-testid="result">' + esc(r.result) + '</td></tr>';
      }).join('') + '</tbody></table>';
  }
  function settlementHTML(n) {
    if (!n.settlement) return '';
    var list = n.settlement.transfers;
    return '<section class="panel" data-testid="settlement"><h2>' + esc(t('night.settlement')) + '</h2>' +
      (list.length ? '<ul class="settlement">' + list.map(function (x) {
        return '<li data-testid="transfer"><span>' + esc(t('night.pays', { payer: x.from, payee: x.to })) +
          '</span><span class="amount">' + esc(x.amount) + '</span></li>';
      }).join('') + '</ul>' : '<p>' + esc(t('night.settled')) + '</p>') +
      (n.settlement.exact ? '' : '<p class="muted">' + esc(t('night.not_exact')) + '</p>') + '</section>';
  }
  function openHTML(n) {
    var html = '<div class="night-head"><span class="rate" data-testid="rate">' + esc(n.rate_text) + ' · ' +
      esc(t('night.buy_in')) + ' ' + n.buy_in + (n.bank ? ' · ' + esc(n.bank) : '') + '</span>' +
      '<button type="button" class="btn" id="tv" aria-pressed="' + !!state.table.show_night + '" data-testid="night-tv">' +
      esc(t('night.on_tv')) + '</button>' +
      '<button type="button" class="btn" id="undo" data-testid="night-undo"' + (state.can_undo ? '' : ' disabled') + '>↶ ' +
      esc(t('night.undo')) + '</button>' +
      '<button type="button" class="btn btn-danger" id="close" data-testid="night-close">' + esc(t('night.close')) + '</button></div>';
    if (state.hand && !state.hand.finished) {
      html += '<p class="notice" data-testid="hand-running">' + esc(t('book.err.hand_running')) + '</p>';
    }
    if (n.difference) {
      html += '<div class="night-diff" role="alert" data-testid="difference"><strong>' +
        esc(t('night.difference', { text: n.difference_text })) + '</strong>' +
        '<button type="button" class="btn" id="assign" data-testid="assign">' + esc(t('night.assign')) + '</button>' +
        '<button type="button" class="btn" id="accept" data-testid="accept">' + esc(t('night.accept')) + '</button></div>';
    }
    if (moving) html += '<p class="notice" data-testid="move-hint">' + esc(t('night.move_to', { name: moving.name })) + '</p>';
    html += '<div class="night-seats" data-testid="night-seats">';
    for (var s = 1; s <= SEATS; s++) {
      var seat = seatAt(s), row = rowAtSeat(s);
      if (!seat) {
        html += '<button type="button" class="night-seat free' + (moving ? ' target' : '') + '" data-seat="' + s +
          '" data-testid="seat-' + s + '"><span class="no">' + esc(t('night.seat', { seat: s })) + '</span>+</button>';
        continue;
      }
      html += '<button type="button" class="night-seat' + (seat.out ? ' out' : '') + '" data-seat="' + s + '" data-testid="seat-' + s + '">' +
        '<span class="no">' + s + (seat.out ? ' · ' + esc(t('night.sitting_out')) : '') + '</span>' +
        '<span class="who">' + esc(seat.name) + '</span><span class="nums"><span>' + seat.stack + '</span>' +
        (row ? '<span class="' + resultClass(row.result_cents) + '">' + esc(row.result) + '</span>' : '') + '</span></button>';
    }
    html += '</div>';
    html += '<p class="muted" data-testid="totals">' + esc(t('night.totals', n)) + '</p>';
    return html + settlementHTML(n) + standingsHTML(n);
  }
  function closedHTML() {
    var n = state.night, html = '';
    if (n && n.closed) {
      html += '<section class="panel" data-testid="night-closed"><h2>' + esc(t('night.closed')) + '</h2>' +
        '<button type="button" class="btn" id="undo" data-testid="night-undo"' + (state.can_undo ? '' : ' disabled') + '>↶ ' +
        esc(t('night.undo')) + '</button> <a class="btn" href="/nights/' + n.id + '" data-testid="summary-link">' +
        esc(t('night.summary')) + '</a>' + standingsHTML(n) + '</section>' + settlementHTML(n);
    } else {
      html += '<p class="muted">' + esc(t('night.none')) + '</p>';
      if (state.can_undo) html += '<button type="button" class="btn" id="undo" data-testid="night-undo">↶ ' + esc(t('night.undo')) + '</button>';
    }
    return html + openFormHTML();
  }
  function choice(name, value, label, on) {
    return '<button type="button" class="btn" data-' + name + '="' + esc(value) + '" aria-pressed="' + on + '">' + esc(label) + '</button>';
  }
  function field(id, label, value, keys) {
    return '<label>' + esc(label) + '<input type="text" inputmode="none" autocomplete="off" data-keys="' + (keys || 'number') +
      '" id="' + id + '" data-testid="' + id + '" value="' + esc(value) + '"></label>';
  }
  function openFormHTML() {
    var html = '<section class="panel night-form" data-testid="open-form"><h2>' + esc(t('night.open')) + '</h2>' +
      '<div class="choice-row">' + esc(t('night.currency')) + ' ' + CURRENCIES.map(function (c) {
        return choice('currency', c, c, form.currency === c);
      }).join('') + '</div><div class="field-grid">' +
      field('f-chips', t('night.chips'), form.chips || '100') +
      field('f-money', t('night.worth') + ' (' + form.currency + ')', form.money || '10', 'money') +
      field('f-buy-in', t('night.usual'), form.buy_in || '1000') +
      field('f-rebuys', t('night.rebuys_most'), form.rebuys || '') +
      field('f-rebuy', t('night.rebuy_most'), form.rebuy || '') + '</div>' +
      '<div class="choice-row">' + esc(t('night.bank_mode')) + ' ' +
      choice('bank', 'none', t('night.bank.none'), form.bank === 'none') +
      choice('bank', HOUSE, t('night.bank.house'), form.bank === HOUSE) +
      choice('bank', 'player', t('night.bank.player'), form.bank === 'player' || typeof form.bank === 'number') + '</div>';
    if (form.bank === 'player' || typeof form.bank === 'number') {
      html += '<div class="pick-grid">' + players.filter(function (p) { return !p.merged_into; }).map(function (p) {
        return choice('host', p.id, p.name, form.bank === p.id);
      }).join('') + '</div>';
    }
    return html + '<div class="sheet-actions"><button type="button" class="btn btn-primary btn-big" id="open" data-testid="night-open">' +
      esc(t('night.open')) + '</button></div></section>';
  }

  /* ---- taps ---- */
  function on(id, handler) { var el = document.getElementById(id); if (el) el.addEventListener('click', handler); }
  function keepForm() {
    ['chips', 'money', 'buy-in', 'rebuys', 'rebuy'].forEach(function (k) {
      var el = document.getElementById('f-' + k);
      if (el) form[k === 'buy-in' ? 'buy_in' : k] = el.value;
    });
  }
  function bind() {
    on('undo', function () {
      send('undo', null, function (ack) { F.say(t('night.undone', { what: ack.undone_text || '' }), 'ok'); });
    });
    on('tv', function () { send('night_on_tv', { show: !state.table.show_night }); });
    on('close', closing);
    on('assign', assigning);
    on('accept', function () {
      var d = state.night.difference;
      enter({ type: 'accept', chips: d }, t('night.entry.accept', { chips: d }));
    });
    on('open', openNight);
    root.querySelectorAll('[data-currency]').forEach(function (b) {
      b.addEventListener('click', function () { keepForm(); form.currency = b.dataset.currency; render(); });
    });
    root.querySelectorAll('[data-bank]').forEach(function (b) {
      b.addEventListener('click', function () { keepForm(); form.bank = b.dataset.bank; render(); });
    });
    root.querySelectorAll('[data-host]').forEach(function (b) {
      b.addEventListener('click', function () { keepForm(); form.bank = +b.dataset.host; render(); });
    });
    root.querySelectorAll('.night-seat').forEach(function (b) {
      b.addEventListener('click', function () { tapSeat(+b.dataset.seat); });
    });
  }
  function openNight() {
    keepForm();
    var money = cents(form.money), chips = whole(form.chips), buyIn = whole(form.buy_in);
    if (money === null) { F.say(t('night.err.money', { field: t('night.worth') }), 'error'); return; }
    var entry = { type: 'night_open', currency: form.currency, chips: chips, money: money, buy_in: buyIn,
      rebuys_most: form.rebuys ? whole(form.rebuys) : null, rebuy_most: form.rebuy ? whole(form.rebuy) : null,
      bank: form.bank === 'none' || form.bank === 'player' ? null : form.bank };
    enter(entry, t('night.entry.night_open'));
  }

  /* ---- the sheet ---- */
  function openSheet(html) { sheetOf.open(html); }
  function closeSheet() { sheetOf.close(); }
  var cancel = '<button type="button" class="btn btn-ghost" data-close data-testid="sheet-cancel">' + esc(t('night.cancel')) + '</button>';
  function paidBox(label) {
    if (!state.night.bank_mode) return '';
    return '<label class="choice"><input type="checkbox" id="paid" checked><span>' + esc(label) + '</span></label>';
  }
  function paid() { var b = document.getElementById('paid'); return !!(b && b.checked); }

  function tapSeat(number) {
    if (!night()) return;
    var seat = seatAt(number);
    if (moving) {
      if (seat) { F.say(t('night.err.taken', { seat: number, name: seat.name }), 'error'); return; }
      var from = moving; moving = null;
      enter({ type: 'move', seat: from.seat, to: number }, t('night.entry.move', { name: from.name, to: number }));
      render();
      return;
    }
    if (!seat) { pickPlayer(number); return; }
    var row = rowAtSeat(number);
    openSheet('<h2>' + esc(seat.seat + ' · ' + seat.name) + '</h2><div class="sheet-row">' +
      '<button type="button" class="btn btn-primary btn-big" data-do="rebuy" data-testid="do-rebuy">' + esc(t('night.rebuy')) + '</button>' +
      '<button type="button" class="btn btn-big" data-do="sit" data-testid="do-sit">' + esc(t(seat.out ? 'night.sit_in' : 'night.sit_out')) + '</button>' +
      '<button type="button" class="btn btn-big" data-do="move" data-testid="do-move">' + esc(t('night.move')) + '</button>' +
      '<button type="button" class="btn btn-danger btn-big" data-do="cash" data-testid="do-cash-out">' + esc(t('night.cash_out')) + '</button>' +
      '</div><div class="sheet-actions">' + cancel + '</div>');
    var player = row ? row.player : null;
    body.querySelector('[data-do="rebuy"]').addEventListener('click', function () { rebuy(seat, player); });
    body.querySelector('[data-do="sit"]').addEventListener('click', function () {
      var kind = seat.out ? 'sit_in' : 'sit_out';
      enter({ type: kind, seat: seat.seat }, t('night.entry.' + kind, { name: seat.name }));
    });
    body.querySelector('[data-do="move"]').addEventListener('click', function () {
      moving = { seat: seat.seat, name: seat.name }; closeSheet(); render();
    });
    body.querySelector('[data-do="cash"]').addEventListener('click', function () { cashOut(seat, player); });
  }
  function amountSheet(title, label, value, paidLabel, action, testid, submit) {
    openSheet('<h2>' + esc(title) + '</h2><div class="sheet-row">' + field('amount', label, value) +
      paidBox(paidLabel) + '</div><div class="sheet-actions">' + cancel +
      '<button type="button" class="btn btn-primary btn-big" id="amount-ok" data-testid="' + testid + '">' + esc(action) + '</button></div>');
    document.getElementById('amount-ok').addEventListener('click', function () {
      var chips = whole(document.getElementById('amount').value);
      if (chips === null) { F.say(t('night.err.whole', { field: label, least: 0, most: 1000000000 }), 'error'); return; }
      submit(chips);
    });
  }
  function rebuy(seat, player) {
    amountSheet(seat.name + ' · ' + t(seat.stack ? 'night.add_on' : 'night.rebuy'), t('night.rebuy_chips'),
      String(state.night.buy_in), t('night.paid'), t('night.rebuy'), 'rebuy-ok', function (chips) {
        enter({ type: 'rebuy', player: player, chips: chips, paid: paid() },
          t(seat.stack ? 'night.entry.add_on' : 'night.entry.rebuy', { name: seat.name, chips: chips }));
      });
  }
  function cashOut(seat, player) {
    amountSheet(seat.name + ' · ' + t('night.cash_out'), t('night.counted'), String(seat.stack),
      t('night.paid_out'), t('night.cash_out'), 'cash-out-ok', function (chips) {
        var counts = {}; counts[player] = chips;
        enter({ type: 'cash_out', counts: counts, paid: paid() }, t('night.entry.cash_out', { name: seat.name, chips: chips }));
      });
  }
  function pickPlayer(number) {
    var seated = {};
    state.night.rows.forEach(function (r) { if (!r.left) seated[r.player] = true; });
    var free = players.filter(function (p) { return !p.merged_into && !seated[p.id]; });
    openSheet('<h2>' + esc(t('night.pick_player', { seat: number })) + '</h2><div class="pick-grid" data-testid="pick-players">' +
      free.map(function (p) {
        return '<button type="button" class="btn" data-player="' + p.id + '" data-testid="pick-player">' + esc(p.name) +
          (p.nickname ? ' <span class="muted">' + esc(p.nickname) + '</span>' : '') + '</button>';
      }).join('') + '</div><div class="sheet-row">' + field('new-name', t('night.new_player'), '', 'text') +
      '<button type="button" class="btn" id="add-player" data-testid="add-player">' + esc(t('night.add')) + '</button></div>' +
      '<div class="sheet-actions">' + cancel + '</div>');
    body.querySelectorAll('[data-player]').forEach(function (b) {
      b.addEventListener('click', function () { buyIn(number, +b.dataset.player, b.firstChild.textContent); });
    });
    document.getElementById('add-player').addEventListener('click', function () {
      var name = document.getElementById('new-name').value;
      api('POST', '/api/players', { name: name }).then(function (a) {
        if (!a.ok) { F.say(a.error, 'error'); return; }
        players.push(a.player);
        buyIn(number, a.player.id, a.player.name);
      });
    });
  }
  function buyIn(number, player, name) {
    amountSheet(t('night.seat', { seat: number }) + ' · ' + name, t('night.buy_in_chips'), String(state.night.buy_in),
      t('night.paid'), t('night.buy_in'), 'buy-in-ok', function (chips) {
        enter({ type: 'buy_in', player: player, seat: number, chips: chips, paid: paid() },
          t('night.entry.buy_in', { name: name, chips: chips }));
      });
  }
  function closing() {
    var seated = state.table.seats;
    if (!seated.length) { enter({ type: 'night_close' }, t('night.entry.night_close')); return; }
    openSheet('<h2>' + esc(t('night.closing')) + '</h2><div class="count-grid">' + seated.map(function (s) {
      return field('count-' + s.seat, s.seat + ' · ' + s.name, String(s.stack));
    }).join('') + '</div><div class="sheet-actions">' + cancel + '<button type="button" class="btn btn-primary btn-big" id="all-out" data-testid="cash-out-all">' +
      esc(t('night.cash_out_all')) + '</button></div>');
    document.getElementById('all-out').addEventListener('click', function () {
      var counts = {}, bad = null;
      seated.forEach(function (s) {
        var chips = whole(document.getElementById('count-' + s.seat).value), row = rowAtSeat(s.seat);
        if (chips === null) bad = s.name;
        if (row) counts[row.player] = chips;
      });
      if (bad) { F.say(t('night.err.counts'), 'error'); return; }
      enter({ type: 'cash_out', counts: counts, paid: false }, t('night.cash_out_all'));
    });
  }
  function assigning() {
    var n = state.night;
    openSheet('<h2>' + esc(t('night.assign_to')) + '</h2><p>' + esc(n.difference_text) + '</p><div class="pick-grid">' +
      n.rows.map(function (r) {
        return '<button type="button" class="btn" data-player="' + r.player + '" data-testid="assign-player">' + esc(r.name) + '</button>';
      }).join('') + '</div><div class="sheet-actions">' + cancel + '</div>');
    body.querySelectorAll('[data-player]').forEach(function (b) {
      b.addEventListener('click', function () {
        enter({ type: 'assign', player: +b.dataset.player, chips: n.difference },
          t('night.entry.assign', { chips: n.difference, name: b.textContent }));
      });
    });
  }

  loadPlayers().then(render);
})();
