/* The dealer's touchscreen: renders the state the server pushes and sends the dealer's taps.
   Every entry is answered at once (feedback.js); the card picker follows the dealing order. */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc, F = window.StudFeedback;
  var app = document.getElementById('app');
  var lang = app.dataset.lang;
  var $ = function (id) { return document.getElementById(id); };
  var state = null, online = false, showPick = [];
  /* the dealer's own choice of where the next card goes ({seat, up}), or null: the picker then
     follows the dealing order the engine gives (hand.next_card) */
  var pick = null;
  var tool = null;  /* {seat, mode: null | 'identify' | 'expose'}: a correction to one seat's cards */

  var socket = S.live('dealer', lang, function (st) {
    state = st;
    app.dataset.version = st.version;  /* the state drawn (a test waits for the next one) */
    F.configure(st.table.screen);
    document.body.classList.toggle('hide-down', !!(st.table.screen && st.table.screen.hide_down));
    render();
  }, function (on) { online = on; renderBar(); });
  /* a serial card reader or button panel was refused, or a device came or went (kiosk/devices/) */
  socket.on('device_notice', function (notice) { F.say(notice.message, 'error'); });

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
          F.say(t('live.offline'), 'error');
          /* not answered: the same entry again once the link is back (a few times at most) */
          if (WITH_ID[name] && tries < 5) {
            if (socket.connected) setTimeout(attempt, 1000); else socket.once('connect', attempt);
          }
        } else if (!ack || !ack.ok) F.say((ack && ack.error) || '?', 'error');
        else { F.clear(); if (done) done(ack); }
      });
    }
    attempt();
  }

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

  /* ---- seats and cards ---- */
  function seatOf(hand, number) {
    for (var i = 0; i < hand.seats.length; i++) if (hand.seats[i].seat === number) return hand.seats[i];
    return null;
  }
  /* a seat as the screen calls it: its player's name, or "seat 3" */
  function called(seat) {
    return seat.name && seat.name !== String(seat.seat) ? seat.name : t('say.seat', { seat: seat.seat });
  }
  /* where a card already in the hand is, in words, or null */
  function whereIs(hand, code) {
    var label = S.cardLabel(code);
    for (var i = 0; i < hand.seats.length; i++) {
      if (hand.seats[i].cards.some(function (c) { return c.card === code; })) {
        return t('dealer.card_where', { card: label, name: called(hand.seats[i]) });
      }
    }
    if ((hand.community || []).indexOf(code) >= 0) return t('dealer.card_community', { card: label });
    return null;
  }

  function renderBar() {
    var bar = $('hand-bar');
    if (!state) { bar.innerHTML = ''; return; }
    /* the game and its stakes in two short lines, so that the bar keeps its place for the rest */
    var hand = state.hand, html = '<span class="game-info wide-only"><strong>' + esc(state.table.game_name) +
      '</strong><span class="muted stakes" data-testid="stakes">' + esc(state.table.stakes_text) + '</span></span>';
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

  function cardsHTML(seat) {
    return '<div class="cards">' + seat.cards.map(function (c) { return S.cardHTML(c, { unknown: true }); }).join('') + '</div>';
  }
  /* opts: {mark: the seat dealt to, cls: 'big' | 'strip', needs: seats that may be picked} */
  function seatsHTML(hand, opts) {
    opts = opts || {};
    var html = '<div class="seats' + (opts.cls ? ' ' + opts.cls : '') + '" data-testid="seats">';
    hand.seats.forEach(function (s) {
      var cls = 'seat', pickable = opts.needs && opts.needs[s.seat];
      if (hand.to_act === s.seat && !hand.finished) cls += ' turn';
      if (opts.mark === s.seat) cls += ' target';
      if (s.folded) cls += ' folded';
      if (opts.needs && !pickable && !s.folded) cls += ' done';
      var tag = s.folded ? t('seat.folded') : s.all_in ? t('seat.all_in') :
        s.mucked ? t('dealer.mucked') : s.shown ? t('dealer.shown') : '';
      html += '<div class="' + cls + '" data-seat="' + s.seat + '"' + (pickable ? ' data-target="' + s.seat + '"' : '') + '>' +
        '<div class="who"><span class="name">' + s.seat + ' · ' + esc(s.name) + '</span>' +
        (state.table.dealer === s.seat ? '<span class="dealer-button">' + esc(t('seat.dealer')) + '</span>' : '') +
        '<span class="stack">' + s.stack + '</span></div>' + cardsHTML(s) +
        '<div class="bet">' + (s.bet ? esc(t('dealer.bet')) + ' ' + s.bet : '') +
        ' <span class="tag">' + esc(tag) + '</span></div></div>';
    });
    return html + '</div>';
  }

  /* ---- the card picker: every card; one already in the hand says where it is ---- */
  function pickerHTML(used, off) {
    var html = '<div class="picker" data-testid="picker">';
    S.SUITS.forEach(function (suit) {
      S.RANKS.forEach(function (rank) {
        var code = rank + suit, taken = used.indexOf(code) >= 0, gone = (off || []).indexOf(code) >= 0;
        html += '<button type="button" class="s-' + suit + (taken ? ' used' : '') + (gone ? ' picked' : '') + '" data-card="' + code + '"' +
          ' aria-label="' + code + '">' + S.cardLabel(code) + '</button>';
      });
    });
    return html + '</div>';
  }
  function onPick(handler) {
    $('work').querySelectorAll('.picker button').forEach(function (b) {
      b.addEventListener('click', function () {
        if (b.classList.contains('used')) {
          F.say(whereIs(state.hand, b.dataset.card) || t('dealer.card_where', { card: S.cardLabel(b.dataset.card), name: '?' }), 'error');
          return;
        }
        handler(b.dataset.card);
      });
    });
  }

  /* ---- betting: the action bar names the player ---- */
  function actionLabel(a) {
    var label = t('action.' + a.action, { amount: a.amount, to: a.to });
    return a.all_in ? t('action.all_in', { label: label }) : label;
  }
  function legalHTML(hand) {
    var seat = seatOf(hand, hand.to_act);
    return '<span class="acting" data-testid="acting">' + esc(called(seat)) + ':</span>' + (hand.legal || []).map(function (a) {
      var cls = a.action === 'fold' ? 'btn btn-danger btn-big' : a.action === 'check' || a.action === 'call' ? 'btn btn-go btn-big' : 'btn btn-primary btn-big';
      return '<button type="button" class="' + cls + '" data-action="' + a.action + '" data-amount="' + a.amount + '">' +
        esc(actionLabel(a)) + '</button>';
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
    var text = $('legal').querySelector('.acting').textContent + ' ' + b.textContent;
    send('act', { type: 'act', seat: +seat, action: b.dataset.action, amount: +b.dataset.amount },
      function () { F.say(text, 'ok'); });
  });

  /* ---- undo and misdeal ---- */
  $('undo').addEventListener('click', function () {
    send('undo', null, function (ack) {
      showPick = []; tool = null; pick = null;
      var undone = ack.undone || {};
      /* the picker goes back to the seat whose card was taken back */
      if (undone.type === 'deal') pick = { seat: undone.seat, up: undone.up };
      if (ack.undone_text) F.say(t('dealer.undone', { what: ack.undone_text }), 'ok');
      render();
    });
  });
  var dialog = $('misdeal-dialog');
  $('misdeal').addEventListener('click', function () { dialog.showModal(); });
  $('misdeal-no').addEventListener('click', function () { dialog.close(); });
  $('misdeal-yes').addEventListener('click', function () { dialog.close(); send('misdeal'); });

  /* ---- the result ---- */
  function resultHTML(result) {
    if (!result) return '';
    var returned = result.returned.map(function (r) {
      return '<div class="push"><span>' + esc(t('result.returned', { to: r.to, amount: r.amount })) +
        '</span><span class="amount">' + r.amount + '</span></div>';
    }).join('');
    if (result.misdeal) {
      return '<div class="result" data-testid="result"><div class="pot-result misdeal" data-testid="misdeal-result"><h3>' +
        esc(t('result.misdeal')) + '</h3><div class="why">' + esc(t('result.misdeal_back')) + '</div>' + returned + '</div></div>';
    }
    var html = '<div class="result" data-testid="result">';
    result.pots.forEach(function (pot) {
      var hilo = pot.shares.some(function (x) { return x.half === 'low'; });
      html += '<div class="pot-result"><h3>' + esc(pot.title) + ' · ' + pot.amount + '</h3>';
      pot.shares.forEach(function (sh) {
        html += '<div class="push"><span>' + esc(t('result.push', { amount: sh.amount, to: sh.to })) +
          (hilo ? ' <span class="why">(' + esc(t('result.' + sh.half)) + ')</span>' : '') +
          '</span><span class="why">' + esc(sh.hand || t('result.uncontested')) + '</span>' +
          '<span class="amount">' + sh.amount + '</span></div>';
      });
      (pot.beaten || []).forEach(function (b) {
        html += '<div class="beaten" data-testid="beaten"><span class="who">' + esc(t('result.beaten', { name: b.name, hand: b.hand })) +
          (b.half === 'high' ? ' (' + esc(t('result.high')) + ')' : '') +
          '</span><span class="why">' + esc(b.why) + '</span></div>';
      });
      if (pot.no_low) html += '<div class="why">' + esc(t('result.no_low')) + '</div>';
      pot.odd_chips.forEach(function (text) { html += '<div class="why">' + esc(text) + '</div>'; });
      html += '</div>';
    });
    if (returned) html += '<div class="pot-result">' + returned + '</div>';
    return html + '</div>';
  }

  /* The next hand: one button, or in a dealer's choice one button per game (one tap deals it);
     in a rotation, the game after it and when it comes. */
  function nextHTML(id, label) {
    var rot = state.table.rotation;
    if (rot.mode === 'choice') {
      return '<p class="choose" data-testid="chooser">' + esc(rot.chooser_text || t('rotation.choose')) + '</p>' +
        '<div class="choice-row games" data-testid="choose-game">' + rot.games.map(function (g) {
          return '<button class="btn btn-big' + (g.game === rot.game ? ' btn-primary' : '') + '" type="button" data-game="' +
            g.game + '" data-testid="game-' + g.game + '">' + esc(g.name) + '</button>';
        }).join('') + '</div>';
    }
    var html = '<button class="btn btn-primary btn-big" type="button" id="' + id + '" data-testid="' + id + '">' + esc(label) + '</button>';
    if (rot.mode === 'list') {
      html += '<p class="rotation" data-testid="rotation">' + esc(t('rotation.now') + ': ' + rot.game_name) +
        (rot.next_text ? ' · ' + esc(rot.next_text) : '') + '</p>';
    }
    return html;
  }
  /* the night so far, between hands: each player's chips and result (the Night page has the rest) */
  function nightHTML() {
    var n = state.night;
    if (!n || n.closed) return '';
    return '<div class="night-strip" data-testid="night-strip"><a class="btn btn-ghost" href="/night">' + esc(t('night.nav')) + '</a>' +
      n.rows.filter(function (r) { return !r.left; }).map(function (r) {
        return '<span class="night-line"><span>' + esc(r.name) + '</span> <span class="' +
          (r.result_cents > 0 ? 'gain' : r.result_cents < 0 ? 'loss' : '') + '">' + esc(r.result) + '</span></span>';
      }).join('') + '</div>';
  }
  function renderIdle(hand) {
    var html = '<div class="idle">';
    if (state.notice) html += '<p class="notice" role="alert" data-testid="notice">' + esc(state.notice) + '</p>';
    if (hand && hand.finished) {
      html += resultHTML(hand.result);
      html += nextHTML('next-hand', t('dealer.next'));
      html += seatsHTML(hand, { cls: 'big' });
    } else if (state.table.seats.filter(function (s) { return !s.out; }).length >= 2) {
      html += '<p>' + esc(t('dealer.no_hand')) + '</p>';
      html += nextHTML('start-hand', t('dealer.start'));
    } else {
      html += '<p>' + esc(t('dealer.setup_first')) + '</p><a class="btn btn-primary btn-big" href="/setup/">' + esc(t('nav.setup')) + '</a>' +
        (state.night && !state.night.closed ? ' <a class="btn btn-big" href="/night" data-testid="to-night">' + esc(t('night.nav')) + '</a>' : '');
    }
    html += nightHTML();
    $('work').innerHTML = html + '</div>';
    var next = $('next-hand'), start = $('start-hand');
    if (next) next.addEventListener('click', function () { send('next_hand'); });
    if (start) start.addEventListener('click', function () { send('start_hand'); });
    $('work').querySelectorAll('[data-game]').forEach(function (b) {
      b.addEventListener('click', function () { send(hand && hand.finished ? 'next_hand' : 'start_hand', { game: b.dataset.game }); });
    });
  }

  /* ---- dealing: the card goes to the seat being dealt to, in dealing order ---- */
  function dealTarget(hand) {
    var needs = hand.needs || {};
    if (pick && needs[pick.seat]) {
      var need = needs[pick.seat], up = pick.up === null ? need.down === 0 : pick.up;
      if (up && !need.up) up = false;
      if (!up && !need.down) up = true;
      return { seat: pick.seat, up: up };
    }
    pick = null;
    return hand.next_card ? { seat: hand.next_card.seat, up: hand.next_card.up } : null;
  }
  function renderDeal(hand) {
    var target = dealTarget(hand);
    if (!target) return;
    var seat = seatOf(hand, target.seat), need = hand.needs[target.seat] || { down: 0, up: 0 };
    var kind = t(target.up ? 'dealer.up' : 'dealer.down');
    var label = seat.name && seat.name !== String(seat.seat)
      ? t('dealer.card_for', { name: seat.name, seat: seat.seat, kind: kind })
      : t('dealer.card_for_seat', { seat: seat.seat, kind: kind });
    var html = '<div class="picker-head deal-head"><strong class="deal-target" data-testid="deal-target" data-seat="' + target.seat + '">' + esc(label) + '</strong>';
    if (need.down && need.up) {
      html += '<button type="button" class="btn' + (!target.up ? ' btn-primary' : '') + '" data-updown="down" aria-pressed="' + !target.up + '">' + esc(t('dealer.down')) + ' ×' + need.down + '</button>';
      html += '<button type="button" class="btn' + (target.up ? ' btn-primary' : '') + '" data-updown="up" aria-pressed="' + target.up + '">' + esc(t('dealer.up')) + ' ×' + need.up + '</button>';
    }
    if (!target.up) html += '<button type="button" class="btn btn-go" data-testid="unknown-card" id="unknown-card">' + esc(t('dealer.skip')) + '</button>';
    html += '</div>' + seatsHTML(hand, { cls: 'strip', mark: target.seat, needs: hand.needs }) + pickerHTML(hand.seen || []);
    $('work').innerHTML = html;
    $('work').querySelectorAll('[data-target]').forEach(function (b) {
      b.addEventListener('click', function () { pick = { seat: +b.dataset.target, up: null }; render(); });
    });
    $('work').querySelectorAll('[data-updown]').forEach(function (b) {
      b.addEventListener('click', function () { pick = { seat: target.seat, up: b.dataset.updown === 'up' }; render(); });
    });
    function deal(card) {
      send('act', { type: 'deal', seat: target.seat, card: card, up: target.up }, function () {
        pick = null;
        F.say(t('dealer.dealt', { card: card ? S.cardLabel(card) : t('dealer.down'), name: called(seat) }), 'ok');
        render();
      });
    }
    var unknown = $('unknown-card');
    if (unknown) unknown.addEventListener('click', function () { deal(null); });
    onPick(deal);
    var box = $('work').querySelector('.seats.strip .seat.target');
    if (box) box.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  function renderCommunity(hand) {
    $('work').innerHTML = '<div class="picker-head"><strong>' + esc(t('dealer.community')) + '</strong></div>' + pickerHTML(hand.seen || []);
    onPick(function (code) {
      send('act', { type: 'community', card: code }, function () { F.say(S.cardLabel(code), 'ok'); });
    });
  }

  /* the showing seat's down cards: those entered as dealt, and how many are still to name */
  function showing(hand) {
    var seat = seatOf(hand, hand.prompt.seats[0]);
    var downs = seat.cards.filter(function (c) { return !c.public; });
    var known = downs.filter(function (c) { return c.card; }).map(function (c) { return c.card; });
    return { seatNo: seat.seat, seat: seat, known: known, missing: downs.length - known.length };
  }
  /* the camera read a card turned up at the showing seat, and the dealer tapped it */
  document.addEventListener('stud:camera-show', function (ev) {
    var hand = state && state.hand;
    if (!hand || hand.finished || hand.prompt.kind !== 'show') return;
    var sh = showing(hand), card = ev.detail.card;
    if (ev.detail.seat !== sh.seatNo || showPick.length >= sh.missing) return;
    if (showPick.indexOf(card) >= 0) return;
    if ((hand.seen || []).indexOf(card) >= 0) { F.say(t('camera.err.in_hand', { card: S.cardLabel(card) }), 'error'); return; }
    showPick.push(card);
    render();
  });
  function renderShow(hand) {
    var sh = showing(hand), seatNo = sh.seatNo, seat = sh.seat, known = sh.known, missing = sh.missing;
    showPick = showPick.filter(function (c) { return (hand.seen || []).indexOf(c) < 0; }).slice(0, missing);
    var ready = showPick.length === missing;
    /* nothing to tap when every down card was entered as dealt: say so, not "tap the cards" */
    var hint = t(missing ? 'dealer.show_hint' : 'dealer.show_known', { name: seat.seat + ' · ' + seat.name });
    var html = '<div class="picker-head"><strong data-testid="show-hint">' + esc(hint) + '</strong>' + cardsHTML(seat) +
      '<span class="cards">' + showPick.map(function (c) { return S.cardHTML({ card: c }); }).join('') + '</span></div>' +
      '<div class="picker-head"><button type="button" class="btn btn-go btn-big" id="show-cards" data-testid="show-cards"' + (ready ? '' : ' disabled') + '>' +
      esc(t('dealer.show')) + '</button><button type="button" class="btn btn-danger btn-big" id="muck" data-testid="muck"' +
      (hand.prompt.params && hand.prompt.params.must_show ? ' disabled' : '') + '>' + esc(t('dealer.muck')) + '</button></div>';
    if (missing) html += pickerHTML(hand.seen || [], showPick);
    $('work').innerHTML = html;
    $('show-cards').addEventListener('click', function () {
      var cards = known.concat(showPick); showPick = [];
      send('act', { type: 'show', seat: seatNo, cards: cards }, function () { F.say(t('history.shows', { name: called(seat) }), 'ok'); });
    });
    $('muck').addEventListener('click', function () {
      showPick = [];
      send('act', { type: 'muck', seat: seatNo }, function () { F.say(t('history.mucks', { name: called(seat) }), 'ok'); });
    });
    onPick(function (code) {
      var at = showPick.indexOf(code);
      if (at >= 0) showPick.splice(at, 1);  /* a second tap takes a picked card back */
      else if (showPick.length < missing) showPick.push(code);
      render();
    });
  }

  function renderTool(hand) {
    var seat = seatOf(hand, tool.seat);
    if (!seat) { tool = null; return false; }
    var html = '<div class="picker-head"><strong>' + esc(seat.seat + ' · ' + seat.name) + '</strong>' + cardsHTML(seat) +
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
      send('act', { type: tool.mode, seat: tool.seat, card: code }, function () {
        tool = null;  /* the entry is made: back to the seats */
        F.say(t('dealer.dealt', { card: S.cardLabel(code), name: called(seat) }), 'ok');
        render();
      });
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
    $('undo').disabled = !state.can_undo;
    $('misdeal').disabled = !(hand && !hand.finished);
    if (!hand || hand.finished) {
      showLegal(null, '');
      prompt.textContent = hand && hand.result ? t(hand.result.misdeal ? 'result.misdeal' : 'dealer.result') : '';
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
      $('work').innerHTML = seatsHTML(hand, { cls: 'big' });
      bindSeatTools();
    }
    if (window.StudPeek.seat) {  /* a finger still held on a seat's cards keeps them shown */
      var held = $('work').querySelector('[data-seat="' + window.StudPeek.seat + '"] .cards');
      if (held) held.classList.add('peek');
    }
    renderInfo(hand, kind === 'act' || kind === 'bring_in');
    if (kind === 'act' || kind === 'bring_in') showLegal(hand.to_act, legalHTML(hand));
    else showLegal(null, '');
    F.speak(hand.prompt.say, lang);
    /* a small screen cannot show every seat above the action bar (now at its final height):
       keep the seat to act in sight */
    var turn = $('work').querySelector('.seats.big .seat.turn');
    if (turn) turn.scrollIntoView({ block: 'nearest' });
  }
})();
