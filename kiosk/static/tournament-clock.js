/* A tournament's clock on the TV (#tv-clock: large figures across the room, and an announcement
   with an optional tone when the level changes) and on the dealer screen (#dealer-clock: the
   level, the minute's warning before the next, the level waiting for the next hand, the choice
   after an outage). The clock runs in the kiosk: each state says the seconds left when it was
   sent, and this page only counts them down until the next state. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var tv = document.getElementById('tv-clock'), dealer = document.getElementById('dealer-clock');
  var box = tv || dealer;
  if (!box) return;
  var last = null, received = 0, lastIndex = null, announceUntil = 0, timer = null;

  function mmss(seconds) {
    seconds = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ':' + (s < 10 ? '0' : '') + s;
  }
  function left(c) { return c.running ? c.left - (Date.now() - received) / 1000 : c.left; }
  function tone() {
    try {
      var ctx = new (window.AudioContext || window.webkitAudioContext)(), o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = 880; g.gain.value = 0.2; o.connect(g); g.connect(ctx.destination);
      o.start(); o.stop(ctx.currentTime + 0.6);
    } catch (e) { /* no sound on this screen */ }
  }
  function tvHTML(tm, c) {
    var html = '<div class="clock-level" data-testid="clock-level">' + esc(c.started ? c.level_text : t('tournament.level_n', { n: 1 })) +
      ' <span class="clock-stakes">' + esc(c.stakes_text) + '</span></div>' +
      '<div class="clock-time' + (c.running ? '' : ' stopped') + '" data-testid="clock-time">' + mmss(left(c)) + '</div>' +
      '<div class="clock-facts">';
    if (c.next_text) html += '<span data-testid="clock-next">' + esc(t('tournament.next')) + ': ' + esc(c.next_text) + '</span>';
    html += '<span data-testid="clock-players">' + esc(t('tournament.players_left', { n: tm.players_left, of: tm.entries })) + '</span>' +
      '<span data-testid="clock-average">' + esc(t('tournament.average', { chips: tm.average })) + '</span>' +
      '<span data-testid="clock-pool">' + esc(t('tournament.pool', { pool: tm.pool_text })) + '</span>' +
      '<span data-testid="clock-paid">' + esc(t('tournament.paid', { n: tm.places_paid })) + '</span></div>';
    if (!c.running) html += '<div class="clock-paused" data-testid="clock-paused">' + esc(c.outage ? c.outage.text : t(c.started ? 'tournament.paused' : 'tournament.not_started')) + '</div>';
    if (tm.closed) html += '<div class="clock-places" data-testid="clock-places">' + tm.places.map(function (p) {
      return '<span>' + p.place + '. ' + esc(p.name) + (p.prize ? ' · ' + esc(p.prize) : '') + '</span>';
    }).join('') + (tm.deal || []).map(function (d) { return '<span>' + esc(d.name) + ' · ' + esc(d.amount) + '</span>'; }).join('') + '</div>';
    if (Date.now() < announceUntil) {
      html += '<div class="clock-announce" role="alert" data-testid="clock-announce">' + esc(c.level_text) + ': ' + esc(c.stakes_text) +
        (c.is_break ? '' : ' · ' + esc(t('tournament.next_hand'))) + '</div>';
    }
    return html;
  }
  function dealerHTML(tm, c) {
    var html = '<a class="btn btn-ghost" href="/tournament" data-testid="to-tournament">' + esc(t('tournament.nav')) + '</a>' +
      '<span class="clock-small" data-testid="dealer-clock-time">' + esc(c.started ? c.level_text : t('tournament.level_n', { n: 1 })) + ' · ' + mmss(left(c)) +
      (c.running ? '' : ' · ' + esc(t('tournament.paused'))) + '</span> <span class="muted">' + esc(tm.playing_text || c.stakes_text) + '</span>';
    if (c.warning) {
      html += '<div class="clock-warning" role="alert" data-testid="clock-warning">' +
        esc(t('tournament.warning', { time: mmss(left(c)), next: c.next_text })) + '</div>';
    }
    if (c.pending_text) html += '<div class="clock-warning" data-testid="clock-pending">' + esc(c.pending_text) + ': ' + esc(c.stakes_text) + '</div>';
    if (c.outage) {
      html += '<div class="clock-warning" role="alert" data-testid="clock-outage">' + esc(c.outage.text) +
        ' <button type="button" class="btn" data-outage="1" data-testid="outage-count">' + esc(t('tournament.count_outage')) + '</button>' +
        ' <button type="button" class="btn" data-outage="0" data-testid="outage-skip">' + esc(t('tournament.skip_outage')) + '</button></div>';
    }
    return html;
  }
  function draw() {
    var tm = last && last.tournament;
    box.hidden = !tm;
    document.body.classList.toggle('has-clock', !!tm);
    if (!tm) { box.innerHTML = ''; return; }
    box.innerHTML = tv ? tvHTML(tm, tm.clock) : dealerHTML(tm, tm.clock);
    box.querySelectorAll('[data-outage]').forEach(function (b) {
      b.addEventListener('click', function () {
        S.socket.emit('act', { type: 'clock', action: 'resume', count_outage: b.dataset.outage === '1' }, function () {});
      });
    });
  }
  document.addEventListener('stud:state', function (ev) {
    var st = ev.detail, tm = st.tournament;
    last = st; received = Date.now();
    if (tm && tm.clock.started && lastIndex !== null && tm.clock.index !== lastIndex && !tm.closed) {
      announceUntil = Date.now() + 20000;
      if (tv && tm.sound) tone();
    }
    lastIndex = tm ? tm.clock.index : null;
    draw();
    if (!timer) timer = setInterval(function () { if (last && last.tournament && !box.querySelector(':focus')) draw(); }, 1000);
  });
})();
