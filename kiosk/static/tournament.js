/* The tournament on the dealer's touchscreen: the opening form with a ready structure and its
   editor, then the seats (a tap: enter, rebuy, add-on, change seat), the clock's controls, the
   colour-up with its race-off, the payouts, the chip-chop calculator and the close. Every entry
   goes as the hands' do ("act" on the dealer's Socket.IO connection, TableService.submit). */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc, F = window.StudFeedback;
  var root = document.getElementById('tournament');
  var lang = root.dataset.lang, SEATS = +root.dataset.seats, CURRENCIES = root.dataset.currencies.split(',');
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var sheet = document.getElementById('sheet'), body = document.getElementById('sheet-body');
  var sheetOf = window.StudSheet(sheet, body);
  var state = null, players = [], ready = {}, received = 0, moving = null;
  var form = { structure: 'stud-fast', currency: 'EUR', buy_in: '20', chips: '', rebuy_until: '4', rebuys_most: '',
    add_on_chips: '', late_until: '4', sound: false, levels: null };

  var socket = S.live('dealer', lang, function (st) {
    state = st; received = Date.now(); render();
    root.dataset.version = st.version;
  }, function () {});

  function entryId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function send(name, payload, done) {
    var sent = payload ? Object.assign({}, payload) : null;
    if (name === 'act') sent.id = entryId();
    socket.timeout(8000).emit(name, sent, function (err, ack) {
      if (err) F.say(t('live.offline'), 'error');
      else if (!ack || !ack.ok) F.say((ack && ack.error) || '?', 'error');
      else if (done) done(ack);
    });
  }
  function enter(entry) { send('act', entry, function () { closeSheet(); F.say(t('tournament.done'), 'ok'); }); }
  function api(method, url, data) {
    return fetch(url, { method: method, credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-CSRFToken': csrf },
      body: data ? JSON.stringify(data) : undefined }).then(function (r) { return r.json(); });
  }
  function whole(text) { return /^\s*\d{1,9}\s*$/.test(text || '') ? +text : null; }
  function cents(text) {
    var m = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text || '');
    return m ? +m[1] * 100 + (m[2] ? +(m[2] + '0').slice(0, 2) : 0) : null;
  }
  function mmss(s) { s = Math.max(0, Math.ceil(s)); return Math.floor(s / 60) + ':' + ('0' + s % 60).slice(-2); }
  function field(id, label, value, keys) {
    return '<label>' + esc(label) + '<input type="text" inputmode="none" autocomplete="off" data-keys="' + (keys || 'number') +
      '" id="' + id + '" data-testid="' + id + '" value="' + esc(value == null ? '' : value) + '"></label>';
  }
  function button(id, label, cls, extra) {
    return '<button type="button" class="btn ' + (cls || '') + '" id="' + id + '" data-testid="' + id + '"' + (extra || '') + '>' + esc(label) + '</button>';
  }
  function tm() { return state && state.tournament && !state.tournament.closed ? state.tournament : null; }
  function seatAt(n) { return (state.table.seats || []).filter(function (s) { return s.seat === n; })[0] || null; }

  /* ---- drawing ---- */
  function render() {
    if (!state || document.querySelector('.keys-sheet:not([hidden])')) return;
    var open = tm();
    root.innerHTML = open ? openHTML(open) : closedHTML();
    bind();
  }
  function clockHTML(x) {
    var c = x.clock, left = c.running ? c.left - (Date.now() - received) / 1000 : c.left;
    var html = '<section class="panel" data-testid="clock-panel"><div class="clock-row"><span class="big-time" data-testid="t-time">' + mmss(left) + '</span>' +
      '<span><strong>' + esc(c.started ? c.level_text : t('tournament.level_n', { n: 1 })) + '</strong> · ' + esc(c.stakes_text) +
      (c.next_text ? '<br><span class="muted">' + esc(t('tournament.next')) + ': ' + esc(c.next_text) + '</span>' : '') + '</span></div><div class="clock-row">';
    if (!c.started) html += button('c-start', t('tournament.start'), 'btn-primary btn-big');
    else if (c.outage) html += '<span>' + esc(c.outage.text) + '</span>' + button('c-count', t('tournament.count_outage'), 'btn-big') + button('c-skip', t('tournament.skip_outage'), 'btn-big');
    else if (c.running) html += button('c-pause', t('tournament.pause'), 'btn-big');
    else html += button('c-resume', t('tournament.resume'), 'btn-primary btn-big');
    if (c.started) html += button('c-more', t('tournament.lengthen'), 'btn-big') + button('c-end', t('tournament.end_level'), 'btn-big');
    html += '</div>';
    if (c.pending_text) html += '<p class="notice" data-testid="t-pending">' + esc(c.pending_text) + '</p>';
    return html + '</section>';
  }
  function openHTML(x) {
    var d = x.dealer, html = '<div class="night-head"><span data-testid="t-summary">' +
      esc(t('tournament.summary_line', { entries: x.entries, rebuys: x.rebuys, add_ons: x.add_ons, pool: x.pool_text })) + ' · ' +
      esc(t('tournament.players_left', { n: x.players_left, of: x.entries })) + '</span>' +
      button('t-undo', '↶ ' + t('night.undo'), '', state.can_undo ? '' : ' disabled') + '</div>';
    if (state.hand && !state.hand.finished) html += '<p class="notice">' + esc(t('tournament.hand_running')) + '</p>';
    html += clockHTML(x);
    if (d.colour_up) {
      html += '<section class="panel" data-testid="colour-up"><p><strong>' + esc(d.colour_up.text) + '</strong></p>' +
        button('t-colour', t('tournament.colour_up'), 'btn-big') + '</section>';
    }
    if (moving) html += '<p class="notice">' + esc(t('night.move_to', { name: moving.name })) + '</p>';
    html += '<div class="night-seats" data-testid="t-seats">';
    for (var s = 1; s <= SEATS; s++) {
      var seat = seatAt(s);
      html += seat ? '<button type="button" class="night-seat" data-seat="' + s + '" data-testid="seat-' + s + '"><span class="no">' + s + '</span>' +
        '<span class="who">' + esc(seat.name) + '</span><span class="nums"><span>' + seat.stack + '</span></span></button>'
        : '<button type="button" class="night-seat free' + (moving ? ' target' : '') + '" data-seat="' + s + '" data-testid="seat-' + s + '"><span class="no">' +
          esc(t('night.seat', { seat: s })) + '</span>' + (d.late_open ? '+' : '') + '</button>';
    }
    html += '</div>' + payoutsHTML(x) + placesHTML(x);
    html += '<section class="panel"><div class="clock-row">';
    if (x.players_left === 1) html += button('t-close', t('tournament.close'), 'btn-primary btn-big');
    if (x.players_left >= 2) html += button('t-deal', t('tournament.deal_calc'), 'btn-big');
    html += button('t-payouts', t('tournament.payouts_by_hand'), 'btn-big') + '</div></section>';
    return html;
  }
  function payoutsHTML(x) {
    return '<section class="panel" data-testid="t-payouts-list"><h2>' + esc(t('tournament.pool', { pool: x.pool_text })) + ' · ' +
      esc(t('tournament.paid', { n: x.places_paid })) + '</h2><ol>' + x.payouts.map(function (p) {
        return '<li>' + p.share + ' % · ' + esc(p.amount) + '</li>';
      }).join('') + '</ol></section>';
  }
  function placesHTML(x) {
    if (!x.places.length && !x.deal) return '';
    return '<section class="panel" data-testid="t-places"><h2>' + esc(t('tournament.places')) + '</h2><table class="standings"><tbody>' +
      x.places.map(function (p) {
        return '<tr data-testid="t-place"><td>' + p.place + '</td><td>' + esc(p.name) + '</td><td>' + esc(p.prize) + '</td></tr>';
      }).join('') + (x.deal || []).map(function (d) {
        return '<tr data-testid="t-deal-row"><td>' + esc(t('tournament.deal')) + '</td><td>' + esc(d.name) + '</td><td>' + esc(d.amount) + '</td></tr>';
      }).join('') + '</tbody></table></section>';
  }
  function closedHTML() {
    var x = state.tournament, html = '';
    if (x && x.closed) {
      html += '<section class="panel" data-testid="t-closed"><h2>' + esc(t('tournament.over')) + '</h2>' +
        button('t-undo', '↶ ' + t('night.undo'), '', state.can_undo ? '' : ' disabled') +
        ' <a class="btn" href="/tournaments/' + x.id + '">' + esc(t('tournament.record')) + '</a></section>' + placesHTML(x);
    } else if (state.night && !state.night.closed) {
      return '<p class="notice">' + esc(t('night.err.open_tournament')) + '</p>';
    }
    return html + openFormHTML();
  }
  function levelsHTML() {
    var n = 0;
    return '<table class="levels" data-testid="levels"><thead><tr><th></th><th>' + esc(t('tournament.minutes')) + '</th><th>' + esc(t('stakes.ante')) +
      '</th><th>' + esc(t('stakes.bring_in')) + '</th><th>' + esc(t('stakes.small_bet')) + '</th><th>' + esc(t('stakes.big_bet')) + '</th><th></th></tr></thead><tbody>' +
      form.levels.map(function (lv, i) {
        var cells = '<td>' + (lv['break'] ? esc(t('tournament.break')) : ++n) + '</td><td><input data-keys="number" inputmode="none" data-lv="' + i + '" data-k="minutes" value="' + (lv.seconds / 60) + '"></td>';
        cells += lv['break'] ? '<td colspan="4"></td>' : ['ante', 'bring_in', 'small_bet', 'big_bet'].map(function (k) {
          return '<td><input data-keys="number" inputmode="none" data-lv="' + i + '" data-k="' + k + '" value="' + lv[k] + '"></td>';
        }).join('');
        return '<tr class="' + (lv['break'] ? 'is-break' : '') + '">' + cells + '<td><button type="button" class="btn btn-ghost" data-drop="' + i + '">✕</button></td></tr>';
      }).join('') + '</tbody></table><div class="clock-row">' + button('add-level', t('tournament.add_level')) + button('add-break', t('tournament.add_break')) + '</div>';
  }
  function openFormHTML() {
    if (!form.levels && ready[form.structure]) {
      form.levels = JSON.parse(JSON.stringify(ready[form.structure].levels));
      form.chips = form.chips || String(ready[form.structure].chips);
    }
    var html = '<section class="panel night-form" data-testid="t-open-form"><h2>' + esc(t('tournament.open')) + '</h2><div class="choice-row">' +
      Object.keys(ready).map(function (k) {
        return '<button type="button" class="btn" data-structure="' + k + '" aria-pressed="' + (form.structure === k) + '">' + esc(t('tournament.structure.' + k)) + '</button>';
      }).join('') + '</div><div class="choice-row">' + CURRENCIES.map(function (c) {
        return '<button type="button" class="btn" data-currency="' + c + '" aria-pressed="' + (form.currency === c) + '">' + c + '</button>';
      }).join('') + '</div><div class="field-grid">' +
      field('f-buy-in', t('tournament.buy_in') + ' (' + form.currency + ')', form.buy_in, 'money') + field('f-chips', t('tournament.chips'), form.chips) +
      field('f-rebuy-until', t('tournament.rebuy_until'), form.rebuy_until) + field('f-rebuys-most', t('night.rebuys_most'), form.rebuys_most) +
      field('f-add-on', t('tournament.add_on_chips'), form.add_on_chips) + field('f-late', t('tournament.late_until'), form.late_until) + '</div>' +
      '<label class="choice"><input type="checkbox" id="f-sound"' + (form.sound ? ' checked' : '') + '><span>' + esc(t('tournament.sound')) + '</span></label>';
    if (form.levels) html += levelsHTML();
    return html + '<div class="sheet-actions">' + button('t-open', t('tournament.open'), 'btn-primary btn-big') + '</div></section>';
  }

  /* ---- taps ---- */
  function on(id, f) { var el = document.getElementById(id); if (el) el.addEventListener('click', f); }
  function keep() {
    [['f-buy-in', 'buy_in'], ['f-chips', 'chips'], ['f-rebuy-until', 'rebuy_until'], ['f-rebuys-most', 'rebuys_most'],
      ['f-add-on', 'add_on_chips'], ['f-late', 'late_until']].forEach(function (p) {
      var el = document.getElementById(p[0]); if (el) form[p[1]] = el.value;
    });
    var sound = document.getElementById('f-sound'); if (sound) form.sound = sound.checked;
    root.querySelectorAll('[data-lv]').forEach(function (el) {
      var lv = form.levels[+el.dataset.lv], k = el.dataset.k, v = +String(el.value).replace(',', '.');
      if (k === 'minutes') lv.seconds = Math.round(v * 60); else lv[k] = v;
    });
  }
  function clock(action, more) { send('act', Object.assign({ type: 'clock', action: action }, more || {})); }
  function bind() {
    on('t-undo', function () { send('undo', null, function (a) { F.say(t('night.undone', { what: a.undone_text || '' }), 'ok'); }); });
    on('c-start', function () { clock('start'); });
    on('c-pause', function () { clock('pause'); });
    on('c-resume', function () { clock('resume'); });
    on('c-count', function () { clock('resume', { count_outage: true }); });
    on('c-skip', function () { clock('resume', { count_outage: false }); });
    on('c-more', function () { clock('lengthen', { seconds: 60 }); });
    on('c-end', function () { clock('end_level'); });
    on('t-close', function () { enter({ type: 'tournament_close' }); });
    on('t-colour', colourUp);
    on('t-deal', dealSheet);
    on('t-payouts', payoutsSheet);
    on('t-open', openTournament);
    on('add-level', function () {
      keep(); var played = form.levels.filter(function (l) { return !l['break']; }), lv = played[played.length - 1];
      form.levels.push({ seconds: lv.seconds, ante: lv.ante * 2, bring_in: lv.bring_in * 2, small_bet: lv.small_bet * 2, big_bet: lv.big_bet * 2 }); render();
    });
    on('add-break', function () { keep(); form.levels.push({ 'break': true, seconds: 600 }); render(); });
    root.querySelectorAll('[data-drop]').forEach(function (b) { b.addEventListener('click', function () { keep(); form.levels.splice(+b.dataset.drop, 1); render(); }); });
    root.querySelectorAll('[data-structure]').forEach(function (b) {
      b.addEventListener('click', function () { keep(); form.structure = b.dataset.structure; form.levels = null; form.chips = ''; render(); });
    });
    root.querySelectorAll('[data-currency]').forEach(function (b) { b.addEventListener('click', function () { keep(); form.currency = b.dataset.currency; render(); }); });
    root.querySelectorAll('.night-seat').forEach(function (b) { b.addEventListener('click', function () { tapSeat(+b.dataset.seat); }); });
  }
  function openTournament() {
    keep();
    var entry = { type: 'tournament_open', currency: form.currency, buy_in: cents(form.buy_in), chips: whole(form.chips),
      levels: form.levels, rebuy_until: form.rebuy_until ? whole(form.rebuy_until) : null,
      rebuys_most: form.rebuys_most ? whole(form.rebuys_most) : null,
      add_on_chips: form.add_on_chips ? whole(form.add_on_chips) : null,
      late_until: form.late_until ? whole(form.late_until) : null, sound: form.sound };
    enter(entry);
  }

  /* ---- the sheet ---- */
  function openSheet(html) { sheetOf.open(html); }
  function closeSheet() { sheetOf.close(); }
  var cancel = '<button type="button" class="btn btn-ghost" data-close data-testid="sheet-cancel">' + esc(t('night.cancel')) + '</button>';
  function tapSeat(n) {
    var x = tm(); if (!x) return;
    var seat = seatAt(n);
    if (moving) {
      var from = moving; moving = null;
      if (!seat) enter({ type: 'move', seat: from.seat, to: n }); else render();
      return;
    }
    if (!seat) { pick(n); return; }
    var one = x.left.filter(function (e) { return e.seat === n; })[0], d = x.dealer;
    openSheet('<h2>' + esc(n + ' · ' + seat.name) + '</h2><div class="sheet-row">' +
      (d.rebuy_open ? '<button type="button" class="btn btn-primary btn-big" data-do="rebuy" data-testid="do-rebuy">' + esc(t('tournament.rebuy', { chips: d.rebuy_chips })) + '</button>' : '') +
      (d.add_on_open ? '<button type="button" class="btn btn-big" data-do="add_on" data-testid="do-add-on">' + esc(t('tournament.add_on', { chips: d.add_on_chips })) + '</button>' : '') +
      '<button type="button" class="btn btn-big" data-do="move" data-testid="do-move">' + esc(t('night.move')) + '</button>' +
      '</div><div class="sheet-actions">' + cancel + '</div>');
    body.querySelectorAll('[data-do]').forEach(function (b) {
      b.addEventListener('click', function () {
        if (b.dataset.do === 'move') { moving = { seat: n, name: seat.name }; closeSheet(); render(); return; }
        enter({ type: b.dataset.do === 'rebuy' ? 'tournament_rebuy' : 'add_on', player: one.player });
      });
    });
  }
  function pick(n) {
    var x = tm(), seated = {}, out = {};
    x.left.forEach(function (e) { seated[e.player] = true; });
    x.places.forEach(function (p) { out[p.player] = true; });
    var free = players.filter(function (p) { return !p.merged_into && !seated[p.id]; });
    openSheet('<h2>' + esc(t('night.pick_player', { seat: n })) + '</h2><div class="pick-grid" data-testid="pick-players">' +
      free.map(function (p) {
        return '<button type="button" class="btn" data-player="' + p.id + '" data-out="' + (out[p.id] ? 1 : 0) + '" data-testid="pick-player">' + esc(p.name) + '</button>';
      }).join('') + '</div><div class="sheet-actions">' + cancel + '</div>');
    body.querySelectorAll('[data-player]').forEach(function (b) {
      b.addEventListener('click', function () {
        /* a player out of the tournament comes back by a rebuy, anyone else enters */
        enter(b.dataset.out === '1' ? { type: 'tournament_rebuy', player: +b.dataset.player } : { type: 'entrant', player: +b.dataset.player, seat: n });
      });
    });
  }
  function colourUp() {
    var c = tm().dealer.colour_up, winners = {};
    c.keep.forEach(function (s) { winners[s] = true; });
    function draw() {
      openSheet('<h2>' + esc(c.text) + '</h2><p>' + esc(c.race_text) + '</p><div class="pick-grid">' + c.odd.map(function (s) {
        return '<button type="button" class="btn" data-win="' + s + '" aria-pressed="' + !!winners[s] + '" data-testid="race-seat">' + esc(s + ' · ' + seatAt(s).name) + '</button>';
      }).join('') + '</div><div class="sheet-actions">' + cancel + button('race-ok', t('tournament.colour_up'), 'btn-primary btn-big') + '</div>');
      body.querySelectorAll('[data-win]').forEach(function (b) { b.addEventListener('click', function () { winners[b.dataset.win] = !winners[b.dataset.win]; draw(); }); });
      document.getElementById('race-ok').addEventListener('click', function () {
        enter({ type: 'colour_up', chip: c.chip, winners: Object.keys(winners).filter(function (k) { return winners[k]; }).map(Number) });
      });
    }
    draw();
  }
  function dealSheet() {
    api('GET', '/api/tournament/deal?lang=' + lang).then(function (a) {
      if (!a.ok) { F.say(a.error, 'error'); return; }
      openSheet('<h2>' + esc(t('tournament.deal_calc')) + '</h2><p class="muted">' + esc(a.explain) + '</p><ul data-testid="deal-rows">' + a.rows.map(function (r) {
        return '<li data-testid="deal-row">' + esc(r.words) + '</li>';
      }).join('') + '</ul><div class="sheet-actions">' + cancel + button('deal-icm', t('tournament.agree_icm'), 'btn-big') +
        button('deal-chop', t('tournament.agree_chop'), 'btn-big') + '</div>');
      ['icm', 'chop'].forEach(function (how) {
        document.getElementById('deal-' + how).addEventListener('click', function () {
          var amounts = {}; a.rows.forEach(function (r) { amounts[r.player] = r[how]; });
          enter({ type: 'chop', amounts: amounts });
        });
      });
    });
  }
  function payoutsSheet() {
    var x = tm();
    openSheet('<h2>' + esc(t('tournament.payouts_by_hand')) + '</h2><p class="muted">' + esc(t('tournament.payouts_help')) + '</p><div class="field-grid">' +
      field('f-shares', t('tournament.shares'), x.payouts.map(function (p) { return p.share; }).join(' '), 'text') + '</div><div class="sheet-actions">' + cancel +
      button('shares-table', t('tournament.payouts_table'), 'btn-big') + button('shares-ok', t('tournament.payouts_set'), 'btn-primary btn-big') + '</div>');
    document.getElementById('shares-table').addEventListener('click', function () { enter({ type: 'payouts', shares: null }); });
    document.getElementById('shares-ok').addEventListener('click', function () {
      var shares = document.getElementById('f-shares').value.trim().split(/[\s;]+/).map(function (v) { return Math.round(+v.replace(',', '.') * 10); });
      enter({ type: 'payouts', shares: shares });
    });
  }

  setInterval(function () { if (tm() && tm().clock.running && !sheet.open) { var el = document.querySelector('[data-testid="t-time"]'); if (el) el.textContent = mmss(tm().clock.left - (Date.now() - received) / 1000); } }, 1000);
  Promise.all([api('GET', '/api/players').then(function (a) { if (a.ok) players = a.players; }),
    api('GET', '/api/tournament/structures').then(function (a) { ready = a.structures; })]).then(render);
})();
