/* The dealer's touchscreen: renders the state the server pushes and sends the dealer's taps. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var app = document.getElementById('app');
  var lang = app.dataset.lang;
  var $ = function (id) { return document.getElementById(id); };
  var state = null, online = false, target = null, targetUp = null, showPick = [], misdealArmed = null;
  var tool = null;  /* {seat, mode: null | 'identify' | 'expose'}: a correction to one seat's cards */

  var socket = S.live('dealer', lang, function (st) { state = st; render(); }, function (on) {
    online = on; renderBar();
  });
  /* a serial card reader or button panel was refused, or a device came or went (kiosk/devices.py) */
  socket.on('device_notice', function (notice) { toast(notice.message); });

  function toast(message) {
    var box = $('toast');
    box.textContent = message;
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () { box.hidden = true; }, 6000);
  }
  /* every screen that was signed in is told when the dealer sessions end (a lock, a new PIN,
     the table idle): back to the PIN page */
  socket.on('locked', function () { window.location.reload(); });

  /* An entry carries an id of its own: sent again after an answer was lost (the link dropped),
     the kiosk gives the first answer and does not enter it twice. */
  var WITH_ID = { act: true, undo: true, misdeal: true };
  function entryId() {
    var bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ('0' + b.toString(16)).slice(-2); }).join('');
  }
  function send(name, payload, done) {
    var sent = payload || null, tries = 0;
    if (WITH_ID[name]) { sent = Object.assign({}, payload || {}); sent.id = entryId(); }
    function attempt() {
      tries += 1;
      socket.timeout(8000).emit(name, sent, function (err, ack) {
        if (err) {
          toast(t('live.offline'));
          /* not answered: the same entry again once the link is back (a few times at most) */
          if (WITH_ID[name] && tries < 5) {
            if (socket.connected) setTimeout(attempt, 1000); else socket.once('connect', attempt);
          }
        } else if (!ack || !ack.ok) toast((ack && ack.error) || '?');
        else { $('toast').hidden = true; if (done) done(); }
      });
    }
    attempt();
  }
  function act(event) { send('act', event); }

  /* four-colour deck, remembered on this screen */
  var four = localStorage.getItem('fourColour') === '1';
  function applyFour() {
    document.body.classList.toggle('four-colour', four);
    $('four-colour').setAttribute('aria-pressed', four ? 'true' : 'false');
  }
  $('four-colour').addEventListener('click', function () {
    four = !four; localStorage.setItem('fourColour', four ? '1' : '0'); applyFour();
  });
  applyFour();

  $('undo').addEventListener('click', function () { showPick = []; send('undo'); });
  $('misdeal').addEventListener('click', function () {
    var b = $('misdeal');
    if (misdealArmed) {
      clearTimeout(misdealArmed); misdealArmed = null;
      b.textContent = t('dealer.misdeal');
      send('misdeal');
      return;
    }
    b.textContent = t('dealer.misdeal.confirm');
    misdealArmed = setTimeout(function () { misdealArmed = null; b.textContent = t('dealer.misdeal'); }, 4000);
  });

  function seatName(hand, number) {
    for (var i = 0; i < hand.seats.length; i++) if (hand.seats[i].seat === number) return hand.seats[i].name;
    return String(number);
  }

  function renderBar() {
    var bar = $('hand-bar');
    if (!state) { bar.innerHTML = ''; return; }
    var hand = state.hand, html = '<strong class="wide-only">' + esc(state.table.game_name) + '</strong>';
    var st = state.table.stakes;
    html += '<span class="muted wide-only">' + esc(st.ante + ' / ' + st.bring_in + ' / ' + st.small_bet + '-' + st.big_bet) + '</span>';
    if (hand) {
      /* on a small screen a running hand's street and pot come before its number */
      html += '<span data-testid="hand-number" class="number' + (hand.finished ? '' : ' wide-only') + '">' +
        esc(t('dealer.hand', { number: hand.number })) + '</span>';
      if (hand.street_text && !hand.finished) html += '<span class="street" data-testid="street">' + esc(hand.street_text) + '</span>';
      if (!hand.finished) html += '<span class="pot" data-testid="pot">' + esc(t('dealer.pot')) + ' ' + hand.total_pot + '</span>';
    }
    /* the link state never scrolls out of the bar: when online on a small screen only its dot shows */
    html += '<span class="conn' + (online ? '' : ' off') + '" data-testid="conn" title="' +
      esc(online ? t('live.online') : t('live.offline')) + '">' + (online ? '●' : '○') +
      ' <span class="conn-text">' + esc(online ? t('live.online') : t('live.offline')) + '</span></span>';
    bar.innerHTML = html;
  }

  function seatsHTML(hand, mark) {
    var html = '<div class="seats" data-testid="seats">';
    hand.seats.forEach(function (s) {
      var cls = 'seat';
      if (hand.to_act === s.seat && !hand.finished) cls += ' turn';
      if (mark && mark === s.seat) cls += ' target';
      if (s.folded) cls += ' folded';
      var tag = s.folded ? t('seat.folded') : s.all_in ? t('seat.all_in') :
        s.mucked ? t('dealer.mucked') : s.shown ? t('dealer.shown') : '';
      html += '<div class="' + cls + '" data-seat="' + s.seat + '">' +
        '<div class="who"><span class="name">' + s.seat + ' · ' + esc(s.name) + '</span>' +
        (state.table.dealer === s.seat ? '<span class="dealer-button">' + esc(t('seat.dealer')) + '</span>' : '') +
        '<span class="stack">' + s.stack + '</span></div>' +
        '<div class="cards">' + s.cards.map(function (c) { return S.cardHTML(c, { unknown: true }); }).join('') + '</div>' +
        '<div class="bet">' + (s.bet ? esc(t('dealer.bet')) + ' ' + s.bet : '') +
        ' <span class="tag">' + esc(tag) + '</span></div></div>';
    });
    return html + '</div>';
  }

  function pickerHTML(disabled) {
    var html = '<div class="picker" data-testid="picker">';
    S.SUITS.forEach(function (suit) {
      S.RANKS.forEach(function (rank) {
        var code = rank + suit, off = disabled.indexOf(code) >= 0;
        html += '<button type="button" class="s-' + suit + '" data-card="' + code + '"' + (off ? ' disabled' : '') +
          ' aria-label="' + code + '">' + S.cardLabel(code) + '</button>';
      });
    });
    return html + '</div>';
  }
  function onPick(handler) {
    $('work').querySelectorAll('.picker button').forEach(function (b) {
      b.addEventListener('click', function () { handler(b.dataset.card); });
    });
  }

  function legalHTML(hand) {
    return (hand.legal || []).map(function (a) {
      var cls = a.action === 'fold' ? 'btn btn-danger btn-big' : a.action === 'check' || a.action === 'call' ? 'btn btn-go btn-big' : 'btn btn-primary btn-big';
      return '<button type="button" class="' + cls + '" data-action="' + a.action + '" data-amount="' + a.amount + '">' +
        esc(t('action.' + a.action, { amount: a.amount, to: a.to })) + '</button>';
    }).join('');
  }

  /* The action buttons are rebuilt only when they change: a state that arrives while the
     dealer's finger is on one (a screen resyncing, another screen's correction) leaves it the
     same button from the press to the release, or the tap would be lost. */
  function showLegal(seat, html) {
    var legal = $('legal'), key = seat + '|' + html;
    if (legal.dataset.key === key) return;
    legal.dataset.key = key;
    legal.dataset.seat = seat === null ? '' : String(seat);
    legal.innerHTML = html;
  }
  $('legal').addEventListener('click', function (ev) {
    var b = ev.target.closest('[data-action]'), seat = $('legal').dataset.seat;
    if (!b || seat === '') return;
    act({ type: 'act', seat: +seat, action: b.dataset.action, amount: +b.dataset.amount });
  });

  function resultHTML(result) {
    if (!result) return '';
    var html = '<div class="result" data-testid="result">';
    result.pots.forEach(function (pot) {
      html += '<div class="pot-result"><h3>' + esc(pot.title) + ' · ' + pot.amount + '</h3>';
      pot.shares.forEach(function (sh) {
        html += '<div class="push"><span>' + esc(t('result.push', { amount: sh.amount, name: sh.name })) +
          (result.pots.length && pot.shares.some(function (x) { return x.half === 'low'; }) ? ' <span class="why">(' + esc(t('result.' + sh.half)) + ')</span>' : '') +
          '</span><span class="why">' + esc(sh.hand || t('result.uncontested')) + '</span>' +
          '<span class="amount">' + sh.amount + '</span></div>';
      });
      if (pot.no_low) html += '<div class="why">' + esc(t('result.no_low')) + '</div>';
      pot.odd_chips.forEach(function (text) { html += '<div class="why">' + esc(text) + '</div>'; });
      html += '</div>';
    });
    result.returned.forEach(function (r) {
      html += '<div class="pot-result"><div class="push"><span>' + esc(t('result.returned', { name: r.name, amount: r.amount })) +
        '</span><span class="amount">' + r.amount + '</span></div></div>';
    });
    return html + '</div>';
  }

  function renderIdle(hand) {
    var html = '<div class="idle">';
    if (state.notice) html += '<p class="notice" role="alert" data-testid="notice">' + esc(state.notice) + '</p>';
    if (hand && hand.finished) {
      html += resultHTML(hand.result);
      html += '<button class="btn btn-primary btn-big" type="button" id="next-hand" data-testid="next-hand">' + esc(t('dealer.next')) + '</button>';
      html += seatsHTML(hand, null).replace('class="seats"', 'class="seats big"');
    } else if (state.table.seats.length >= 2) {
      html += '<p>' + esc(t('dealer.no_hand')) + '</p>';
      html += '<button class="btn btn-primary btn-big" type="button" id="start-hand" data-testid="start-hand">' + esc(t('dealer.start')) + '</button>';
    } else {
      html += '<p>' + esc(t('dealer.setup_first')) + '</p><a class="btn btn-primary btn-big" href="/setup/">' + esc(t('nav.setup')) + '</a>';
    }
    $('work').innerHTML = html + '</div>';
    var next = $('next-hand'), start = $('start-hand');
    if (next) next.addEventListener('click', function () { send('next_hand'); });
    if (start) start.addEventListener('click', function () { send('start_hand'); });
  }

  function renderDeal(hand) {
    var needs = hand.needs || {}, order = hand.prompt.seats.filter(function (s) { return needs[s]; });
    Object.keys(needs).forEach(function (k) { if (order.indexOf(+k) < 0) order.push(+k); });
    if (order.indexOf(target) < 0) { target = order[0]; targetUp = null; }
    var need = needs[target] || { down: 0, up: 0 };
    var up = targetUp === null ? need.down === 0 : targetUp;
    if (up && need.up === 0) up = false;
    if (!up && need.down === 0) up = true;
    var html = '<div class="picker-head">';
    order.forEach(function (s) {
      html += '<button type="button" class="btn seat-pick' + (s === target ? ' btn-primary' : '') + '" data-target="' + s + '">' +
        s + '<span class="seat-pick-name"> · ' + esc(seatName(hand, s)) + '</span></button>';
    });
    html += '<strong class="deal-target" data-testid="deal-target">' +
      esc(t('dealer.to_seat', { seat: target, name: seatName(hand, target) })) + '</strong>';
    if (need.down) html += '<button type="button" class="btn' + (!up ? ' btn-primary' : '') + '" data-updown="down">' + esc(t('dealer.down')) + ' ×' + need.down + '</button>';
    if (need.up) html += '<button type="button" class="btn' + (up ? ' btn-primary' : '') + '" data-updown="up">' + esc(t('dealer.up')) + ' ×' + need.up + '</button>';
    if (!up) html += '<button type="button" class="btn btn-go" data-testid="unknown-card" id="unknown-card">' + esc(t('dealer.skip')) + '</button>';
    html += '</div>' + pickerHTML(hand.seen || []) + seatsHTML(hand, target);
    $('work').innerHTML = html;
    $('work').querySelectorAll('[data-target]').forEach(function (b) {
      b.addEventListener('click', function () { target = +b.dataset.target; targetUp = null; render(); });
    });
    $('work').querySelectorAll('[data-updown]').forEach(function (b) {
      b.addEventListener('click', function () { targetUp = b.dataset.updown === 'up'; render(); });
    });
    var unknown = $('unknown-card');
    if (unknown) unknown.addEventListener('click', function () { act({ type: 'deal', seat: target, card: null, up: false }); });
    onPick(function (code) { act({ type: 'deal', seat: target, card: code, up: up }); });
  }

  function renderCommunity(hand) {
    $('work').innerHTML = '<div class="picker-head"><strong>' + esc(t('dealer.community')) + '</strong></div>' + pickerHTML(hand.seen || []);
    onPick(function (code) { act({ type: 'community', card: code }); });
  }

  /* the showing seat's down cards: those entered as dealt, and how many are still to name */
  function showing(hand) {
    var seatNo = hand.prompt.seats[0], seat = null;
    hand.seats.forEach(function (s) { if (s.seat === seatNo) seat = s; });
    var downs = seat.cards.filter(function (c) { return !c.public; });
    var known = downs.filter(function (c) { return c.card; }).map(function (c) { return c.card; });
    return { seatNo: seatNo, seat: seat, known: known, missing: downs.length - known.length };
  }
  /* the camera read a card turned up at the showing seat, and the dealer tapped it */
  document.addEventListener('stud:camera-show', function (ev) {
    var hand = state && state.hand;
    if (!hand || hand.finished || hand.prompt.kind !== 'show') return;
    var sh = showing(hand), card = ev.detail.card;
    if (ev.detail.seat !== sh.seatNo || showPick.length >= sh.missing) return;
    if (showPick.indexOf(card) >= 0) return;
    if ((hand.seen || []).indexOf(card) >= 0) { toast(t('camera.err.in_hand', { card: S.cardLabel(card) })); return; }
    showPick.push(card);
    render();
  });
  function renderShow(hand) {
    var sh = showing(hand), seatNo = sh.seatNo, seat = sh.seat, known = sh.known, missing = sh.missing;
    showPick = showPick.filter(function (c) { return (hand.seen || []).indexOf(c) < 0; }).slice(0, missing);
    var ready = showPick.length === missing;
    /* nothing to tap when every down card was entered as dealt: say so, not "tap the cards" */
    var hint = t(missing ? 'dealer.show_hint' : 'dealer.show_known', { name: seat.seat + ' · ' + seat.name });
    var html = '<div class="picker-head"><strong data-testid="show-hint">' + esc(hint) + '</strong>' +
      '<span class="cards">' + seat.cards.map(function (c) { return S.cardHTML(c, { unknown: true }); }).join('') + '</span>' +
      '<span class="cards">' + showPick.map(function (c) { return S.cardHTML({ card: c }); }).join('') + '</span></div>' +
      '<div class="picker-head"><button type="button" class="btn btn-go btn-big" id="show-cards" data-testid="show-cards"' + (ready ? '' : ' disabled') + '>' +
      esc(t('dealer.show')) + '</button><button type="button" class="btn btn-danger btn-big" id="muck" data-testid="muck">' + esc(t('dealer.muck')) + '</button></div>';
    if (missing) html += pickerHTML((hand.seen || []).concat(showPick));
    $('work').innerHTML = html;
    $('show-cards').addEventListener('click', function () {
      var cards = known.concat(showPick); showPick = [];
      act({ type: 'show', seat: seatNo, cards: cards });
    });
    $('muck').addEventListener('click', function () { showPick = []; act({ type: 'muck', seat: seatNo }); });
    onPick(function (code) { if (showPick.length < missing) { showPick.push(code); render(); } });
  }

  function renderTool(hand) {
    var seat = null;
    hand.seats.forEach(function (s) { if (s.seat === tool.seat) seat = s; });
    if (!seat) { tool = null; return false; }
    var html = '<div class="picker-head"><strong>' + esc(seat.seat + ' · ' + seat.name) + '</strong>' +
      '<span class="cards">' + seat.cards.map(function (c) { return S.cardHTML(c, { unknown: true }); }).join('') + '</span>' +
      '<button type="button" class="btn' + (tool.mode === 'identify' ? ' btn-primary' : '') + '" data-mode="identify" data-testid="tool-identify">' + esc(t('dealer.tool.identify')) + '</button>' +
      '<button type="button" class="btn' + (tool.mode === 'expose' ? ' btn-primary' : '') + '" data-mode="expose" data-testid="tool-expose">' + esc(t('dealer.tool.expose')) + '</button>' +
      '<button type="button" class="btn btn-ghost" data-mode="close" data-testid="tool-close">' + esc(t('dealer.tool.close')) + '</button></div>';
    if (tool.mode) html += '<p class="muted">' + esc(t('dealer.tool.' + tool.mode + '.hint')) + '</p>' +
      pickerHTML(tool.mode === 'identify' ? (hand.seen || []) : allBut(seat));
    $('work').innerHTML = html;
    $('work').querySelectorAll('[data-mode]').forEach(function (b) {
      b.addEventListener('click', function () {
        if (b.dataset.mode === 'close') tool = null; else tool.mode = b.dataset.mode;
        render();
      });
    });
    onPick(function (code) {
      send('act', { type: tool.mode, seat: tool.seat, card: code }, function () { tool = null; });
    });
    return true;
  }
  /* for an exposed card: the seat's own known down cards stay tappable, every other seen card not */
  function allBut(seat) {
    var own = seat.cards.filter(function (s) { return s.card && !s.public; }).map(function (s) { return s.card; });
    return (state.hand.seen || []).filter(function (c) { return own.indexOf(c) < 0; });
  }
  function bindSeatTools() {
    $('work').querySelectorAll('.seats .seat').forEach(function (box) {
      box.addEventListener('click', function () { tool = { seat: +box.dataset.seat, mode: null }; render(); });
    });
  }

  /* while the dealer acts, the pot, the side pots and the last action sit in a line of their own
     just above the action bar, never in the scrolling seat area (a small screen shows the pot
     in the top bar only) */
  function renderInfo(hand, acting) {
    var info = $('table-info');
    info.hidden = !acting;
    if (!acting) { info.innerHTML = ''; return; }
    info.innerHTML = '<span class="pot">' + esc(t('dealer.pot')) + ' ' + hand.total_pot + '</span>' +
      (hand.pots.length > 1 ? '<span class="side-pots" data-testid="side-pots">' + hand.pots.map(function (p, i) {
        return '<span class="one-pot">' + esc(i === 0 ? t('result.main') : t('result.side', { n: i })) + ' ' + p.amount + '</span>';
      }).join(' · ') + '</span>' : '') +
      '<span class="last" data-testid="last-action">' + esc(hand.last_action ? hand.last_action.text : '') + '</span>';
  }

  function render() {
    renderBar();
    var hand = state && state.hand;
    var prompt = $('prompt');
    $('undo').disabled = !(hand && hand.can_undo);
    $('misdeal').disabled = !(hand && !hand.finished);
    if (!hand || hand.finished) {
      showLegal(null, '');
      prompt.textContent = hand && hand.result ? t('dealer.result') : '';
      renderInfo(hand, false);
      renderIdle(hand);
      return;
    }
    prompt.textContent = hand.prompt.text || '';
    var kind = hand.prompt.kind;
    if (tool && (kind === 'act' || kind === 'bring_in') && renderTool(hand)) {
      /* the correction panel replaces the seats until it is used or closed */
    } else if (kind === 'deal') renderDeal(hand);
    else if (kind === 'community') renderCommunity(hand);
    else if (kind === 'show') renderShow(hand);
    else {
      $('work').innerHTML = seatsHTML(hand, null).replace('class="seats"', 'class="seats big"');
      bindSeatTools();
    }
    renderInfo(hand, kind === 'act' || kind === 'bring_in');
    if (kind === 'act' || kind === 'bring_in') showLegal(hand.to_act, legalHTML(hand));
    else showLegal(null, '');
    /* a small screen cannot show every seat above the action bar (now at its final height):
       keep the seat to act in sight */
    var turn = $('work').querySelector('.seats.big .seat.turn');
    if (turn) turn.scrollIntoView({ block: 'nearest' });
  }
})();
